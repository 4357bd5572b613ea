from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

urlpatterns = [
    path("", views.home, name="home"),
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(success_url="/password/done/"),
        name="password_change",
    ),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("profile/", views.profile, name="profile"),
    path("wallet/", views.wallet, name="wallet"),
    path("wallet/export.csv", views.wallet_export, name="wallet-export"),
    path("wallet/<str:username>/", views.wallet_of, name="wallet-of"),
    path("wallet/<str:username>/export.csv", views.wallet_export_of, name="wallet-export-of"),
    path("wallet/<str:username>/adjust/", views.wallet_adjust, name="wallet-adjust"),
    path("players/<str:username>/", views.player, name="player"),
    path("ratings/", views.ratings, name="ratings"),
]
