from django.urls import path

from disputes import api

urlpatterns = [
    path("disputes/", api.DisputeListCreateApi.as_view(), name="api-disputes"),
    path("disputes/<id:dispute_id>/", api.DisputeDetailApi.as_view(), name="api-dispute"),
    path(
        "disputes/<id:dispute_id>/assign/",
        api.DisputeAssignApi.as_view(),
        name="api-dispute-assign",
    ),
    path(
        "disputes/<id:dispute_id>/decide/",
        api.DisputeDecideApi.as_view(),
        name="api-dispute-decide",
    ),
]
