from django.urls import path

from tournaments import api
from tournaments.divisions import api as divisions_api

urlpatterns = [
    path("tournaments/", api.TournamentCreateApi.as_view(), name="api-tournament-create"),
    path(
        "tournaments/<id:tournament_id>/",
        api.TournamentDetailApi.as_view(),
        name="api-tournament-detail",
    ),
    path(
        "tournaments/<id:tournament_id>/bracket/",
        api.TournamentBracketApi.as_view(),
        name="api-tournament-bracket",
    ),
    path(
        "tournaments/<id:tournament_id>/standings/",
        api.TournamentStandingsApi.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "tournaments/<id:tournament_id>/edit/",
        api.TournamentEditApi.as_view(),
        name="api-tournament-edit",
    ),
    path(
        "tournaments/<id:tournament_id>/beside/<str:kind>/",
        divisions_api.SideEventCreateApi.as_view(),
        name="api-tournament-side-event-create",
    ),
    *(
        path(
            f"tournaments/<id:tournament_id>/{action}/",
            view.as_view(),
            name=f"api-tournament-{action}",
        )
        for action, view in (
            ("open", api.TournamentOpenApi),
            ("start", api.TournamentStartApi),
            ("cancel", api.TournamentCancelApi),
            ("tiebreak", api.TournamentTiebreakApi),
            ("share-ties", api.TournamentShareTiesApi),
            ("register", api.TournamentRegisterApi),
            ("unregister", api.TournamentUnregisterApi),
            ("check-in", api.TournamentCheckInApi),
            ("withdraw", api.TournamentWithdrawApi),
            ("replace", api.TournamentReplaceApi),
        )
    ),
]
