from django.urls import path

from matches import views

urlpatterns = [
    path("matches/<id:match_id>/", views.match_page, name="match"),
    path("matches/<id:match_id>/dice/", views.dice_check, name="match-dice"),
    path("matches/<id:match_id>/adjudication/", views.adjudication_page, name="match-adjudication"),
    path("matches/<id:match_id>/<str:answer>/", views.respond, name="match-respond"),
]
