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
    path("password/reset/", sign_in.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        sign_in.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("profile/email/", sign_in.email_change_view, name="email-change"),
    path("email/verify/<str:token>/", sign_in.email_verify, name="email-verify"),
    path("email/unsubscribe/<str:token>/", sign_in.mail_unsubscribe, name="mail-unsubscribe"),
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
