from django.urls import path

from lobby import views

urlpatterns = [
    path("", views.home, name="home"),
    path("play/", views.play, name="lobby"),
    path("play/challenge/", views.challenge, name="challenge"),
    path("play/pass-and-play/", views.pass_and_play, name="pass-and-play"),
    path("play/practice/", views.practice, name="practice"),
    path("play/now/", views.play_now, name="play-now"),
    path("play/seeks/", views.seeks_fragment, name="seeks-fragment"),
    path("play/seeks/post/", views.seek_post, name="seek-post"),
    path("play/seeks/<id:seek_id>/take/", views.seek_take, name="seek-take"),
    path("play/seeks/<id:seek_id>/cancel/", views.seek_cancel, name="seek-cancel"),
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/read/", views.notifications_read, name="notifications-read"),
]
