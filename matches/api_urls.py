from django.urls import path

from matches import api, chat_api

urlpatterns = [
    path("matches/", api.MatchCreateApi.as_view(), name="api-match-create"),
    path("matches/<id:match_id>/", api.MatchDetailApi.as_view(), name="api-match-detail"),
    path("matches/<id:match_id>/accept/", api.MatchAcceptApi.as_view(), name="api-match-accept"),
    path("matches/<id:match_id>/decline/", api.MatchDeclineApi.as_view(), name="api-match-decline"),
    path("matches/<id:match_id>/actions/", api.MatchActionApi.as_view(), name="api-match-action"),
    path("matches/<id:match_id>/moves/", api.MatchMovesApi.as_view(), name="api-match-moves"),
    path("matches/<id:match_id>/export.mat", api.MatchExportApi.as_view(), name="api-match-export"),
    path("matches/<id:match_id>/chat/", chat_api.MatchChatApi.as_view(), name="api-match-chat"),
]
