"""REST endpoints for accounts: token log-in and the caller's own profile."""

from __future__ import annotations

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class TokenObtainApi(APIView):
    """Exchange a username and password for an API token (the same token every time)."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    class TokenInputSerializer(serializers.Serializer):
        username = serializers.CharField()
        password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)

    class TokenOutputSerializer(serializers.Serializer):
        token = serializers.CharField()

    @extend_schema(
        request=TokenInputSerializer,
        responses={200: TokenOutputSerializer},
        operation_id="auth_token",
    )
    def post(self, request: Request) -> Response:
        data = self.TokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(
            request._request,
            username=data.validated_data["username"],
            password=data.validated_data["password"],
        )
        if user is None:
            return Response(
                {"detail": "Those are not a valid username and password."},
                status=status.HTTP_400_BAD_REQUEST,
            )
        token, _ = Token.objects.get_or_create(user=user)
        return Response(self.TokenOutputSerializer({"token": token.key}).data)


class MeApi(APIView):
    """Who the caller is: username, role, rating and board preferences."""

    permission_classes = [IsAuthenticated]

    class MeOutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        role = serializers.CharField()
        display_name = serializers.CharField(source="profile.display_name")
        country = serializers.CharField(source="profile.country.code")
        rating = serializers.FloatField(source="profile.rating")
        experience = serializers.IntegerField(source="profile.experience")
        checker_colour = serializers.CharField(source="profile.checker_colour")
        highlight_legal_moves = serializers.BooleanField(source="profile.highlight_legal_moves")
        automatic_forced_moves = serializers.BooleanField(source="profile.automatic_forced_moves")
        use_doubling_cube = serializers.BooleanField(source="profile.use_doubling_cube")

    @extend_schema(responses={200: MeOutputSerializer}, operation_id="me")
    def get(self, request: Request) -> Response:
        return Response(self.MeOutputSerializer(request.user).data)
