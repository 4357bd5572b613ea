"""REST endpoints for accounts: token log-in, the caller's profile, wallets."""

from __future__ import annotations

import uuid

from django.contrib.auth import authenticate
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import ledger
from accounts.models import AdjustmentDirection, Currency, User, WalletAdjustment
from config.errors import Forbidden

WALLET_API_LINES = 100


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


class WalletBalancesSerializer(serializers.Serializer):
    FUN = serializers.IntegerField(help_text="Play money, in cents.")
    REAL = serializers.IntegerField(help_text="Real money, in cents.")


class WalletHistoryLineSerializer(serializers.Serializer):
    transaction_id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    currency = serializers.CharField()
    kind = serializers.CharField()
    description = serializers.CharField()
    memo = serializers.CharField()
    amount_cents = serializers.IntegerField(source="amount")
    balance_after_cents = serializers.IntegerField(source="balance_after")


class WalletApi(APIView):
    """The caller's balances in cents per currency, and their latest wallet entries."""

    permission_classes = [IsAuthenticated]

    class WalletInputSerializer(serializers.Serializer):
        currency = serializers.ChoiceField(choices=Currency.choices, required=False)

    class WalletOutputSerializer(serializers.Serializer):
        balances = WalletBalancesSerializer()
        history = WalletHistoryLineSerializer(many=True)

    @extend_schema(
        parameters=[WalletInputSerializer],
        responses={200: WalletOutputSerializer},
        operation_id="wallet",
    )
    def get(self, request: Request) -> Response:
        query = self.WalletInputSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        user = request.user
        assert isinstance(user, User)
        wallet = {
            "balances": ledger.balances(user=user),
            "history": ledger.history(
                user=user, currency=query.validated_data.get("currency"), limit=WALLET_API_LINES
            ),
        }
        return Response(self.WalletOutputSerializer(wallet).data)


class WalletAdjustApi(APIView):
    """Staff deposit into or withdraw from a player's wallet, with a reason; audited.

    Send the same ``key`` again to retry safely: the money moves once.
    """

    permission_classes = [IsAuthenticated]

    class WalletAdjustInputSerializer(serializers.Serializer):
        currency = serializers.ChoiceField(choices=Currency.choices)
        amount_cents = serializers.IntegerField(min_value=1)
        direction = serializers.ChoiceField(choices=AdjustmentDirection.choices)
        reason = serializers.CharField(max_length=300)
        key = serializers.CharField(
            max_length=64, required=False, help_text="Idempotency key; one is made if absent."
        )

    class WalletAdjustOutputSerializer(serializers.Serializer):
        transaction_id = serializers.IntegerField(source="transaction.pk")
        username = serializers.CharField(source="user.username")
        currency = serializers.CharField()
        direction = serializers.CharField()
        amount_cents = serializers.IntegerField()
        reason = serializers.CharField()
        balance_before_cents = serializers.IntegerField(source="balance_before")
        balance_after_cents = serializers.IntegerField(source="balance_after")
        staff = serializers.CharField(source="staff.username")
        created_at = serializers.DateTimeField()

    @extend_schema(
        request=WalletAdjustInputSerializer,
        responses={201: WalletAdjustOutputSerializer},
        operation_id="wallet_adjust",
    )
    def post(self, request: Request, username: str) -> Response:
        staff = request.user
        assert isinstance(staff, User)
        if not staff.has_perm(ledger.ADJUST_PERMISSION):
            raise Forbidden("Only staff who may adjust wallets can do this.")
        owner = get_object_or_404(User, username=username)
        data = self.WalletAdjustInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        move = (
            ledger.deposit
            if values["direction"] == AdjustmentDirection.DEPOSIT
            else ledger.withdraw
        )
        done = move(
            user=owner,
            currency=values["currency"],
            amount_cents=values["amount_cents"],
            reason=values["reason"],
            staff=staff,
            key=f"adjust:{values.get('key') or uuid.uuid4().hex}",
        )
        adjustment = WalletAdjustment.objects.select_related("user", "staff", "transaction").get(
            transaction=done
        )
        return Response(
            self.WalletAdjustOutputSerializer(adjustment).data, status=status.HTTP_201_CREATED
        )
