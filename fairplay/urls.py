from django.urls import path

from fairplay import conduct_views, player_views, views

urlpatterns = [
    path("staff/fairplay/", views.queue, name="fairplay-queue"),
    path("staff/fairplay/<id:case_id>/", views.detail, name="fairplay-case"),
    path("staff/fairplay/<id:case_id>/assign/", views.assign, name="fairplay-assign"),
    path("staff/fairplay/<id:case_id>/decide/", views.decide, name="fairplay-decide"),
    path("fairplay/mine/", views.mine, name="fairplay-mine"),
    path("fairplay/<id:case_id>/", views.detail, name="fairplay-my-case"),
    path("fairplay/<id:case_id>/appeal/", views.appeal, name="fairplay-appeal"),
    path("players/<str:username>/block/", conduct_views.block, name="player-block"),
    path("me/self-exclusion/", player_views.self_exclusion, name="fairplay-self-exclusion"),
]
