from django.urls import path

from tournaments import views
from tournaments.divisions import views as divisions_views

urlpatterns = [
    path("tournaments/", views.lobby, name="tournaments"),
    path("tournaments/mine/", views.mine, name="tournaments-mine"),
    path("tournaments/new/", views.create, name="tournament-create"),
    path("tournaments/<id:tournament_id>/", views.detail, name="tournament"),
    path("tournaments/<id:tournament_id>/edit/", views.edit, name="tournament-edit"),
    path("tournaments/<id:tournament_id>/bracket/", views.bracket_page, name="tournament-bracket"),
    path(
        "tournaments/<id:tournament_id>/bracket/fragment/",
        views.bracket_fragment,
        name="tournament-bracket-fragment",
    ),
    path(
        "tournaments/<id:tournament_id>/bracket/round/<str:flight>/<int:number>/",
        views.bracket_round,
        name="tournament-bracket-round",
    ),
    path("tournaments/<id:tournament_id>/cancel/", views.cancel, name="tournament-cancel"),
    path(
        "tournaments/<id:tournament_id>/beside/<str:kind>/",
        divisions_views.side_event_new,
        name="tournament-side-event",
    ),
    path("tournaments/<id:tournament_id>/<str:action>/", views.act, name="tournament-act"),
]
