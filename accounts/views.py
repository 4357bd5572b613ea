"""Pages: the profile with its preferences, wallets and ratings (getting in:
``accounts.auth_views``)."""

from __future__ import annotations

import csv
import uuid

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import ledger
from accounts.forms import EmailForm, ProfileForm, RatingSearchForm, WalletAdjustForm
from accounts.ledger.approvals import adjustment_approve, adjustment_ask, adjustment_reject
from accounts.models import AdjustmentDirection, Block, Currency, Profile, User
from accounts.money import money_text
from accounts.selectors import (
    LEADERBOARD_MIN_DECISIONS,
    pending_approvals,
    performance,
    pr_leaderboard,
    rating_history,
    ratings_search,
    recent_results,
    wallet_adjustments,
)
from accounts.services import profile_update
from accounts.standing import (
    SELF_EXCLUSION_DAYS,
    standing_now,
)
from accounts.templatetags.money import money
from core.errors import DomainError, Forbidden, NotFound

WALLET_HISTORY_LINES = 100
RATINGS_PER_PAGE = 25


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    player_profile = request.user.profile  # type: ignore[union-attr]
    form = ProfileForm(request.POST or None, instance=player_profile)
    if request.method == "POST" and form.is_valid():
        try:
            profile_update(profile=player_profile, **form.cleaned_data)
        except DomainError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request, _("Your preferences are saved; every board will follow them.")
            )
            return redirect("profile")
    return render(
        request,
        "accounts/profile.html",
        {
            "form": form,
            "email_form": EmailForm(initial={"email": _as_user(request).email}),
            "profile": player_profile,
            "rating_history": rating_history(profile=player_profile),
            "results": recent_results(profile=player_profile),
            "performance": performance(user_id=player_profile.user_id),
            "standing": standing_now(_as_user(request)),
            "self_exclusion_days": SELF_EXCLUSION_DAYS,
        },
    )


# Wallets ---------------------------------------------------------------------------


@login_required
def wallet(request: HttpRequest) -> HttpResponse:
    return _wallet_page(request, _as_user(request), form=None)


@login_required
def wallet_of(request: HttpRequest, username: str) -> HttpResponse:
    return _wallet_page(request, _wallet_owner(request, username), form=None)


@login_required
def wallet_export(request: HttpRequest) -> HttpResponse:
    return _wallet_csv(request, _as_user(request))


@login_required
def wallet_export_of(request: HttpRequest, username: str) -> HttpResponse:
    return _wallet_csv(request, _wallet_owner(request, username))


@login_required
@require_POST
def wallet_adjust(request: HttpRequest, username: str) -> HttpResponse:
    owner = _wallet_owner(request, username)
    if not request.user.has_perm(ledger.ADJUST_PERMISSION):
        raise PermissionDenied
    form = WalletAdjustForm(request.POST)
    if form.is_valid():
        direction = AdjustmentDirection(form.cleaned_data["direction"])
        try:
            asked = adjustment_ask(
                user=owner,
                currency=form.cleaned_data["currency"],
                amount_cents=form.amount_cents,
                direction=direction,
                reason=form.cleaned_data["reason"],
                staff=_as_user(request),
                key=form.cleaned_data["key"],
            )
        except DomainError as error:
            form.add_error(None, str(error))
        else:
            what = f"{money(form.amount_cents)} {form.cleaned_data['currency']}"
            if asked.approval is not None:
                messages.info(request, _waiting(direction, what))
            else:
                messages.success(request, f"{capfirst(_moved(direction, what, owner))}.")
            return redirect("wallet-of", username=owner.username)
    return _wallet_page(request, owner, form=form, status=400)


@login_required
def wallet_approvals(request: HttpRequest) -> HttpResponse:
    """Staff: every real-money adjustment waiting for a second staff member."""
    if not request.user.has_perm(ledger.ADJUST_PERMISSION):
        raise PermissionDenied
    return render(
        request,
        "accounts/wallet_approvals.html",
        {
            "approvals": pending_approvals(),
            "threshold_cents": settings.CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS,
        },
    )


@login_required
@require_POST
def wallet_approval_approve(request: HttpRequest, approval_id: int) -> HttpResponse:
    try:
        approval = adjustment_approve(approval_id=approval_id, staff=_as_user(request))
    except Forbidden:
        raise PermissionDenied from None
    except NotFound:
        raise Http404 from None
    except DomainError as error:
        messages.error(request, str(error))
        return redirect("wallet-approvals")
    direction = AdjustmentDirection(approval.direction)
    what = f"{money(approval.amount_cents)} {approval.currency}"
    messages.success(
        request, _("Approved: %(what)s.") % {"what": _moved(direction, what, approval.user)}
    )
    return redirect("wallet-of", username=approval.user.username)


@login_required
@require_POST
def wallet_approval_reject(request: HttpRequest, approval_id: int) -> HttpResponse:
    try:
        approval = adjustment_reject(
            approval_id=approval_id,
            staff=_as_user(request),
            reason=request.POST.get("reason", ""),
        )
    except Forbidden:
        raise PermissionDenied from None
    except NotFound:
        raise Http404 from None
    except DomainError as error:
        messages.error(request, str(error))
        return redirect("wallet-approvals")
    messages.success(
        request,
        _("Rejected: nothing moved in %(name)s's wallet.")
        % {"name": approval.user.profile.display_name},
    )
    return redirect("wallet-of", username=approval.user.username)


def _moved(direction: AdjustmentDirection, what: str, owner: User) -> str:
    if direction == AdjustmentDirection.DEPOSIT:
        said = _("deposited %(what)s into %(name)s's wallet")
    else:
        said = _("withdrew %(what)s from %(name)s's wallet")
    return said % {"what": what, "name": owner.profile.display_name}


def _waiting(direction: AdjustmentDirection, what: str) -> str:
    if direction == AdjustmentDirection.DEPOSIT:
        said = _(
            "The deposit of %(what)s waits for a second staff member's approval: nothing has"
            " moved yet."
        )
    else:
        said = _(
            "The withdrawal of %(what)s waits for a second staff member's approval: nothing"
            " has moved yet."
        )
    return said % {"what": what}


def _wallet_owner(request: HttpRequest, username: str) -> User:
    """The wallet's owner: the caller themselves, or anyone for staff who adjust wallets."""
    owner = get_object_or_404(User.objects.select_related("profile"), username=username)
    if owner.pk != request.user.pk and not request.user.has_perm(ledger.ADJUST_PERMISSION):
        raise PermissionDenied
    return owner


def _wallet_page(
    request: HttpRequest, owner: User, *, form: WalletAdjustForm | None, status: int = 200
) -> HttpResponse:
    currency = _currency_filter(request)
    may_adjust = request.user.has_perm(ledger.ADJUST_PERMISSION)
    if may_adjust and form is None:
        form = WalletAdjustForm(initial={"key": uuid.uuid4().hex, "currency": Currency.REAL})
    own = owner.pk == request.user.pk
    context = {
        "owner": owner,
        "own": own,
        "balances": ledger.balances(user=owner),
        "history": ledger.history(user=owner, currency=currency, limit=WALLET_HISTORY_LINES),
        "history_limit": WALLET_HISTORY_LINES,
        "currency": currency,
        "currencies": Currency.values,
        "export_url": (
            reverse("wallet-export") if own else reverse("wallet-export-of", args=[owner.username])
        ),
        "may_adjust": may_adjust,
        "form": form,
        "adjustments": wallet_adjustments(user=owner) if may_adjust else [],
        "approvals": pending_approvals(user=owner) if may_adjust else [],
        "approval_threshold": money(settings.CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS) + " REAL",
    }
    return render(request, "accounts/wallet.html", context, status=status)


def _wallet_csv(request: HttpRequest, owner: User) -> HttpResponse:
    currency = _currency_filter(request)
    name = f"crawford-wallet-{owner.username}-{currency or 'all'}.csv"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    writer = csv.writer(response)
    writer.writerow(["date", "currency", "kind", "description", "amount", "balance"])
    for line in ledger.history(user=owner, currency=currency):
        writer.writerow(
            [
                line.created_at.isoformat(timespec="seconds"),
                line.currency,
                line.kind,
                line.in_words,
                _plain_amount(line.amount),
                _plain_amount(line.balance_after),
            ]
        )
    return response


def _plain_amount(cents: int) -> str:
    """Money for spreadsheets: no thousands separators, a point before the cents."""
    return money_text(cents).replace(",", "")


def _currency_filter(request: HttpRequest) -> str | None:
    currency = request.GET.get("currency", "").upper()
    return currency if currency in Currency.values else None


def _as_user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


# Ratings ---------------------------------------------------------------------------


def player(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public page: rating, experience and the rating history chart."""
    player_profile = get_object_or_404(
        Profile.objects.select_related("user"), user__username=username, user__is_active=True
    )
    viewer = request.user
    # Another player may mute or block this one from here (``fairplay.conduct_views``).
    may_block = viewer.is_authenticated and viewer.pk != player_profile.user_id
    own_block = (
        Block.objects.filter(owner_id=viewer.pk, other_id=player_profile.user_id).first()
        if may_block
        else None
    )
    return render(
        request,
        "accounts/player.html",
        {
            "profile": player_profile,
            "may_block": may_block,
            "own_block": own_block,
            "rating_history": rating_history(profile=player_profile),
            "results": recent_results(profile=player_profile),
            "performance": performance(user_id=player_profile.user_id),
        },
    )


def pr_leaderboard_page(request: HttpRequest) -> HttpResponse:
    """Players by PR over their analysed matches, with enough decisions to mean something."""
    return render(
        request,
        "accounts/pr_leaderboard.html",
        {"board": pr_leaderboard(), "min_decisions": LEADERBOARD_MIN_DECISIONS},
    )


def ratings(request: HttpRequest) -> HttpResponse:
    """Every player by rating, searchable by name, a page at a time."""
    form = RatingSearchForm(request.GET or None)
    query = form.cleaned_data["q"].strip() if form.is_valid() else ""
    page = Paginator(ratings_search(query=query), RATINGS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(request, "accounts/ratings.html", {"form": form, "query": query, "page": page})
