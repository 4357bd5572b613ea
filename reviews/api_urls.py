from django.urls import path

from reviews import api

urlpatterns = [
    path(
        "matches/<id:match_id>/analysis/",
        api.MatchAnalysisApi.as_view(),
        name="api-match-analysis",
    ),
    path("analyses/", api.AnalysisListApi.as_view(), name="api-analyses"),
    path("analyses/<id:analysis_id>/", api.AnalysisDetailApi.as_view(), name="api-analysis"),
]
