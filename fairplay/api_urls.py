from django.urls import path

from fairplay import api, conduct_api, player_api, screen_api

urlpatterns = [
    path("fairplay/cases/", api.CaseListApi.as_view(), name="api-fairplay-cases"),
    path("fairplay/cases/<id:case_id>/", api.CaseDetailApi.as_view(), name="api-fairplay-case"),
    path(
        "fairplay/cases/<id:case_id>/assign/",
        api.CaseAssignApi.as_view(),
        name="api-fairplay-case-assign",
    ),
    path(
        "fairplay/cases/<id:case_id>/decide/",
        api.CaseDecideApi.as_view(),
        name="api-fairplay-case-decide",
    ),
    path(
        "fairplay/cases/<id:case_id>/appeal/",
        api.CaseAppealApi.as_view(),
        name="api-fairplay-case-appeal",
    ),
    path("fairplay/screen/", screen_api.ScreenApi.as_view(), name="api-fairplay-screen"),
    path(
        "players/<str:username>/block/",
        conduct_api.PlayerBlockApi.as_view(),
        name="api-player-block",
    ),
    path("me/blocks/", conduct_api.MyBlocksApi.as_view(), name="api-my-blocks"),
    path(
        "chat/<id:message_id>/report/", conduct_api.ChatReportApi.as_view(), name="api-chat-report"
    ),
    path("me/standing/", player_api.MyStandingApi.as_view(), name="api-my-standing"),
    path("me/self-exclusion/", player_api.SelfExclusionApi.as_view(), name="api-my-self-exclusion"),
]
