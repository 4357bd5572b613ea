from django.urls import path

from lobby import api

urlpatterns = [
    path("notifications/", api.NotificationListApi.as_view(), name="api-notifications"),
    path("notifications/read/", api.NotificationReadApi.as_view(), name="api-notifications-read"),
    path("opponents/", api.OpponentSearchApi.as_view(), name="api-opponents"),
    path("seeks/", api.SeekListApi.as_view(), name="api-seeks"),
    path("seeks/play-now/", api.PlayNowApi.as_view(), name="api-seek-play-now"),
    path("seeks/<id:seek_id>/", api.SeekDetailApi.as_view(), name="api-seek"),
    path("seeks/<id:seek_id>/accept/", api.SeekAcceptApi.as_view(), name="api-seek-accept"),
]
