from django.urls import path

from matches import views

urlpatterns = [
    path("play/", views.lobby, name="lobby"),
    path("play/challenge/", views.challenge, name="challenge"),
    path("play/pass-and-play/", views.pass_and_play, name="pass-and-play"),
    path("play/practice/", views.practice, name="practice"),
    path("matches/<int:match_id>/", views.match_page, name="match"),
    path("matches/<int:match_id>/dice/", views.dice_check, name="match-dice"),
    path(
        "matches/<int:match_id>/adjudication/", views.adjudication_page, name="match-adjudication"
    ),
    path("matches/<int:match_id>/<str:answer>/", views.respond, name="match-respond"),
]
