from django.urls import path

from disputes import views

urlpatterns = [
    path("disputes/", views.queue, name="dispute-queue"),
    path("disputes/mine/", views.mine, name="disputes-mine"),
    path("disputes/audit/", views.audit, name="dispute-audit"),
    path("disputes/new/<id:match_id>/", views.file, name="dispute-file"),
    path("disputes/<id:dispute_id>/", views.detail, name="dispute"),
    path("disputes/<id:dispute_id>/assign/", views.assign, name="dispute-assign"),
    path("disputes/<id:dispute_id>/decide/", views.decide, name="dispute-decide"),
]
