"""REST endpoints for accounts: API tokens, the caller's profile, wallets."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts import ledger
from accounts.device import device_sent, log_in_seen
from accounts.forms import SignUpForm
from accounts.ledger.approvals import adjustment_approve, adjustment_ask, adjustment_reject
from accounts.models import (
    MAX_AMOUNT_CENTS,
    AdjustmentApproval,
    AdjustmentDirection,
    ApprovalState,
    Currency,
    User,
)
from accounts.selectors import pending_approvals
from accounts.services import logout_everywhere, user_create
from accounts.tokens import (
    current_token_id,
    token_issue,
    token_revoke,
    tokens_of,
)
from core.api import Api, JsonCharField, refused_by_the_rules
from core.errors import Forbidden

WALLET_API_LINES = 100


class TokenObtainApi(Api):
    """Exchange a username and password for a new API token, valid until ``expiry``.

    Send it as ``Authorization: Token <token>``. Repeated failures lock the account and
    the address out for a while (429 with ``Retry-After``). Like a log-in on the site, it
    keeps salted digests of the address and device cookie for fair play.
    """

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    throttle_scope = "login"

    class TokenInputSerializer(serializers.Serializer[Any]):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(
            style={"input_type": "password"}, trim_whitespace=False, max_length=4096
        )

    class TokenOutputSerializer(serializers.Serializer[Any]):
        token = serializers.CharField(help_text="The secret; shown this once.")
        id = serializers.CharField(source="token_id", help_text="Names the token in the list.")
        expiry = serializers.DateTimeField()

    @extend_schema(
        request=TokenInputSerializer,
        responses={200: TokenOutputSerializer},
        operation_id="auth_token",
        extensions=refused_by_the_rules("Those are not a valid username and password."),
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
        assert isinstance(user, User)
        issued = token_issue(user=user)
        # A program that keeps no cookies would leave a new device behind at every log-in.
        log_in_seen(request=request, user=user, device=device_sent(request))
        return Response(self.TokenOutputSerializer(issued).data)


class SignUpApi(Api):
    """Make an account and get an API token for it, as a program starting from nothing does.

    The same rules as the sign-up page: a username of one script that passes for nobody
    else's name, a password the site's password rules accept (long enough, not common, not
    like the username or the address), and a display name that is the username when left
    out. The new player gets the play-money grant. ``email`` is optional; without one a
    forgotten password cannot be reset and no notice comes by e-mail (an address given is
    mailed a link that confirms it). Sign-ups share a budget per address with the page
    (429 with ``Retry-After``). Send the token as ``Authorization: Token <token>``.
    """

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    throttle_scope = "signup"

    class SignUpInputSerializer(serializers.Serializer[Any]):
        username = JsonCharField(max_length=150)
        password = JsonCharField(
            style={"input_type": "password"}, trim_whitespace=False, max_length=4096
        )
        email = serializers.EmailField(required=False, allow_blank=True, max_length=254)
        display_name = JsonCharField(required=False, allow_blank=True, max_length=40)

    class SignUpOutputSerializer(serializers.Serializer[Any]):
        username = serializers.CharField()
        token = serializers.CharField(help_text="The secret; shown this once.")
        id = serializers.CharField(source="token_id", help_text="Names the token in the list.")
        expiry = serializers.DateTimeField()

    @extend_schema(
        request=SignUpInputSerializer,
        responses={201: SignUpOutputSerializer},
        operation_id="auth_signup",
        extensions=refused_by_the_rules(
            "username: A user with that username already exists.",
            "password: This password is too common.",
            "“bob” looks like another player's name: choose a username nobody could take"
            " for theirs.",
        ),
    )
    def post(self, request: Request) -> Response:
        data = self.SignUpInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        form = SignUpForm(
            {
                "username": values["username"],
                "email": values.get("email", ""),
                "display_name": values.get("display_name", ""),
                "password1": values["password"],
                "password2": values["password"],
            }
        )
        if not form.is_valid():
            raise serializers.ValidationError(
                {
                    _SIGN_UP_FIELDS.get(field, field): [str(message) for message in messages]
                    for field, messages in form.errors.items()
                }
            )
        user = user_create(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            email=form.cleaned_data["email"],
            display_name=form.cleaned_data["display_name"],
            language=translation.get_language() or "",
        )
        issued = token_issue(user=user)
        log_in_seen(request=request, user=user, device=device_sent(request))
        answer = {"username": user.username, **vars(issued)}
        return Response(self.SignUpOutputSerializer(answer).data, status=status.HTTP_201_CREATED)


# The form's names for the fields the API calls otherwise.
_SIGN_UP_FIELDS = {"password1": "password", "password2": "password", "__all__": "non_field_errors"}


class TokenListApi(Api):
    """The caller's API tokens that have not expired, newest first; never their secrets."""

    permission_classes = [IsAuthenticated]

    class TokenRowSerializer(serializers.Serializer[Any]):
        id = serializers.CharField(source="token_id")
        created = serializers.DateTimeField()
        expiry = serializers.DateTimeField()
        current = serializers.BooleanField(help_text="Whether this request was made with it.")

    @extend_schema(responses={200: TokenRowSerializer(many=True)}, operation_id="auth_tokens")
    def get(self, request: Request) -> Response:
        user = request.user
        assert isinstance(user, User)
        current = current_token_id(request.auth)
        rows = [
            {
                "token_id": row.token_id,
                "created": row.created,
                "expiry": row.expiry,
                "current": row.token_id == current,
            }
            for row in tokens_of(user=user)
        ]
        return Response(self.TokenRowSerializer(rows, many=True).data)


class TokenRevokeApi(Api):
    """Revoke one of the caller's API tokens, named by its id from the list."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None}, operation_id="auth_token_revoke")
    def delete(self, request: Request, token_id: str) -> Response:
        user = request.user
        assert isinstance(user, User)
        token_revoke(user=user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutAllApi(Api):
    """Log the caller out everywhere: every API token and every browser session ends, and
    the sockets they hold open close."""

    permission_classes = [IsAuthenticated]

    class LogoutAllOutputSerializer(serializers.Serializer[Any]):
        revoked = serializers.IntegerField(help_text="How many tokens were revoked.")
        sessions = serializers.IntegerField(help_text="How many browser sessions ended.")

    @extend_schema(
        request=None, responses={200: LogoutAllOutputSerializer}, operation_id="logout_all"
    )
    def post(self, request: Request) -> Response:
        user = request.user
        assert isinstance(user, User)
        sessions, revoked = logout_everywhere(user=user)
        return Response(
            self.LogoutAllOutputSerializer({"revoked": revoked, "sessions": sessions}).data
        )


class MeApi(Api):
    """Who the caller is: username, role, rating and board preferences."""

    permission_classes = [IsAuthenticated]

    class MeOutputSerializer(serializers.Serializer[Any]):
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


class WalletBalancesSerializer(serializers.Serializer[dict[str, Any]]):
    FUN = serializers.IntegerField(help_text="Play money, in cents.")
    REAL = serializers.IntegerField(help_text="Real money, in cents.")


class WalletHistoryLineSerializer(serializers.Serializer[dict[str, Any]]):
    transaction_id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    currency = serializers.CharField()
    kind = serializers.CharField()
    description = serializers.CharField()
    memo = serializers.CharField()
    amount_cents = serializers.IntegerField(source="amount")
    balance_after_cents = serializers.IntegerField(source="balance_after")
    about = serializers.CharField(
        help_text='What it was for: "5-point match against Bruno Costa", a tournament\'s '
        'name, or "".'
    )
    url = serializers.CharField(help_text="The page of that match or tournament, or empty.")
    detail = serializers.CharField(
        help_text='How, in a player\'s words: "Held in escrow until the game or match is settled".'
    )


class WalletQuerySerializer(serializers.Serializer[dict[str, Any]]):
    currency = serializers.ChoiceField(choices=Currency.choices, required=False)


class WalletApi(Api):
    """The caller's balances in cents per currency, and their latest wallet entries."""

    permission_classes = [IsAuthenticated]
    query_serializer = WalletQuerySerializer

    class WalletOutputSerializer(serializers.Serializer[Any]):
        balances = WalletBalancesSerializer()
        history = WalletHistoryLineSerializer(many=True)

    @extend_schema(
        parameters=[WalletQuerySerializer],
        responses={200: WalletOutputSerializer},
        operation_id="wallet",
    )
    def get(self, request: Request) -> Response:
        user = request.user
        assert isinstance(user, User)
        wallet = {
            "balances": ledger.balances(user=user),
            "history": ledger.history(
                user=user, currency=self.query.get("currency"), limit=WALLET_API_LINES
            ),
        }
        return Response(self.WalletOutputSerializer(wallet).data)


class ApprovalOutputSerializer(serializers.Serializer[AdjustmentApproval]):
    """A real-money adjustment that waits for, or had, a second staff member's decision."""

    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    currency = serializers.CharField()
    direction = serializers.CharField()
    amount_cents = serializers.IntegerField()
    reason = serializers.CharField()
    key = serializers.CharField(source="client_key")
    state = serializers.ChoiceField(choices=ApprovalState.choices)
    requested_by = serializers.CharField(source="requested_by.username")
    created_at = serializers.DateTimeField()
    decided_by = serializers.CharField(source="decided_by.username", allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    decision_reason = serializers.CharField()
    transaction_id = serializers.IntegerField(allow_null=True)


class WalletAdjustApi(Api):
    """Staff deposit into or withdraw from a player's wallet, with a reason; audited.

    Nobody adjusts their own wallet (400). Real money above the approval threshold
    (``CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS``) is answered 202 with a pending approval
    and moves only once another staff member approves it (``/api/wallet-approvals/``).
    Send the same ``key`` and body again to retry safely: the money moves once.
    """

    permission_classes = [IsAuthenticated]

    class WalletAdjustInputSerializer(serializers.Serializer[Any]):
        currency = serializers.ChoiceField(choices=Currency.choices)
        amount_cents = serializers.IntegerField(min_value=1, max_value=MAX_AMOUNT_CENTS)
        direction = serializers.ChoiceField(choices=AdjustmentDirection.choices)
        reason = serializers.CharField(max_length=300)
        key = serializers.CharField(
            max_length=64,
            required=False,
            help_text="Idempotency key of this wallet: a retry with the same body is answered"
            " with the original adjustment, another body is refused (409). One is made if"
            " absent.",
        )

    class WalletAdjustOutputSerializer(serializers.Serializer[Any]):
        transaction_id = serializers.IntegerField(source="transaction.pk")
        username = serializers.CharField(source="user.username")
        currency = serializers.CharField()
        direction = serializers.CharField()
        amount_cents = serializers.IntegerField()
        reason = serializers.CharField()
        balance_before_cents = serializers.IntegerField(source="balance_before")
        balance_after_cents = serializers.IntegerField(source="balance_after")
        staff = serializers.CharField(source="staff.username")
        approved_by = serializers.CharField(source="approved_by.username", allow_null=True)
        created_at = serializers.DateTimeField()

    @extend_schema(
        request=WalletAdjustInputSerializer,
        responses={201: WalletAdjustOutputSerializer, 202: ApprovalOutputSerializer},
        operation_id="wallet_adjust",
        extensions=refused_by_the_rules(
            "Staff cannot adjust their own wallet: another staff member must do it.",
            "erin's REAL balance is 0.00; this needs 25.00.",
        ),
    )
    def post(self, request: Request, username: str) -> Response:
        staff = _staff(request)
        owner = get_object_or_404(User, username=username)
        data = self.WalletAdjustInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        asked = adjustment_ask(
            user=owner,
            currency=values["currency"],
            amount_cents=values["amount_cents"],
            direction=AdjustmentDirection(values["direction"]),
            reason=values["reason"],
            staff=staff,
            key=values.get("key"),
        )
        if asked.approval is not None:
            return Response(
                ApprovalOutputSerializer(asked.approval).data, status=status.HTTP_202_ACCEPTED
            )
        return Response(
            self.WalletAdjustOutputSerializer(asked.adjustment).data,
            status=status.HTTP_201_CREATED,
        )


class WalletApprovalsApi(Api):
    """Staff: the real-money adjustments waiting for a second staff member, oldest first."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: ApprovalOutputSerializer(many=True)}, operation_id="wallet_approvals"
    )
    def get(self, request: Request) -> Response:
        _staff(request)
        return Response(
            [ApprovalOutputSerializer(approval).data for approval in pending_approvals()]
        )


class WalletApprovalApproveApi(Api):
    """A second staff member approves a pending adjustment: the money moves, once.

    Neither the staff member who asked nor the wallet's owner may approve (403); approving
    again answers the approval as it is; a rejected one is a 409.
    """

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: ApprovalOutputSerializer},
        operation_id="wallet_approval_approve",
        extensions=refused_by_the_rules("erin's REAL balance is 0.00; this needs 500.00."),
    )
    def post(self, request: Request, approval_id: int) -> Response:
        approval = adjustment_approve(approval_id=approval_id, staff=_staff(request))
        return Response(ApprovalOutputSerializer(approval).data)


class WalletApprovalRejectApi(Api):
    """A second staff member rejects a pending adjustment: nothing moves."""

    permission_classes = [IsAuthenticated]

    class RejectInputSerializer(serializers.Serializer[Any]):
        reason = serializers.CharField(max_length=300, required=False, allow_blank=True)

    @extend_schema(
        request=RejectInputSerializer,
        responses={200: ApprovalOutputSerializer},
        operation_id="wallet_approval_reject",
    )
    def post(self, request: Request, approval_id: int) -> Response:
        staff = _staff(request)
        data = self.RejectInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        approval = adjustment_reject(
            approval_id=approval_id, staff=staff, reason=data.validated_data.get("reason", "")
        )
        return Response(ApprovalOutputSerializer(approval).data)


def _staff(request: Request) -> User:
    staff = request.user
    assert isinstance(staff, User)
    if not staff.has_perm(ledger.ADJUST_PERMISSION):
        raise Forbidden(_("Only staff who may adjust wallets can do this."))
    return staff
