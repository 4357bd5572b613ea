from django.urls import path

from accounts import api

urlpatterns = [
    path("auth/token/", api.TokenObtainApi.as_view(), name="api-auth-token"),
    path("me/", api.MeApi.as_view(), name="api-me"),
    path("wallet/", api.WalletApi.as_view(), name="api-wallet"),
    path(
        "wallets/<str:username>/adjust/",
        api.WalletAdjustApi.as_view(),
        name="api-wallet-adjust",
    ),
]
