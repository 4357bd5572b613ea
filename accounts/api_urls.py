from django.urls import path

from accounts import api

urlpatterns = [
    path("auth/signup/", api.SignUpApi.as_view(), name="api-auth-signup"),
    path("auth/token/", api.TokenObtainApi.as_view(), name="api-auth-token"),
    path("auth/tokens/", api.TokenListApi.as_view(), name="api-auth-tokens"),
    path("auth/tokens/<str:token_id>/", api.TokenRevokeApi.as_view(), name="api-auth-token-revoke"),
    path("auth/logout-all/", api.LogoutAllApi.as_view(), name="api-auth-logout-all"),
    path("me/", api.MeApi.as_view(), name="api-me"),
    path("wallet/", api.WalletApi.as_view(), name="api-wallet"),
    path(
        "wallets/<str:username>/adjust/",
        api.WalletAdjustApi.as_view(),
        name="api-wallet-adjust",
    ),
    path("wallet-approvals/", api.WalletApprovalsApi.as_view(), name="api-wallet-approvals"),
    path(
        "wallet-approvals/<id:approval_id>/approve/",
        api.WalletApprovalApproveApi.as_view(),
        name="api-wallet-approval-approve",
    ),
    path(
        "wallet-approvals/<id:approval_id>/reject/",
        api.WalletApprovalRejectApi.as_view(),
        name="api-wallet-approval-reject",
    ),
]
