from django.urls import path

from accounts import api

urlpatterns = [
    path("auth/token/", api.TokenObtainApi.as_view(), name="api-auth-token"),
    path("me/", api.MeApi.as_view(), name="api-me"),
]
