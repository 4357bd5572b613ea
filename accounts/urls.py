from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import auth_views as sign_in
from accounts import views

urlpatterns = [
    path("signup/", sign_in.signup, name="signup"),
    path("login/", sign_in.LogInView.as_view(), name="login"),
    path("logout/", sign_in.LogOutView.as_view(), name="logout"),
    path("logout/everywhere/", sign_in.logout_everywhere_view, name="logout-everywhere"),
    path("password/", sign_in.PasswordChangeView.as_view(), name="password_change"),
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
    path("staff/wallet-approvals/", views.wallet_approvals, name="wallet-approvals"),
    path(
        "staff/wallet-approvals/<id:approval_id>/approve/",
        views.wallet_approval_approve,
        name="wallet-approval-approve",
    ),
    path(
        "staff/wallet-approvals/<id:approval_id>/reject/",
        views.wallet_approval_reject,
        name="wallet-approval-reject",
    ),
    path("players/<str:username>/", views.player, name="player"),
    path("ratings/", views.ratings, name="ratings"),
    path("ratings/pr/", views.pr_leaderboard_page, name="pr-leaderboard"),
]
