"""Multiple accounts: one person behind two names, seen through what their log-ins share.

Terms:

* *sighting* (``accounts.models.Sighting``): the salted digest of an address or a device
  cookie an account signed up or logged in from, with when it was first and last seen and
  how often. The address itself is never stored, so it never reaches a case either.
* *shared*: two accounts have a sighting of the same kind and digest.
* *counted match*: one the two started against each other that can move rating or money
  (rated, or with a stake or chips); pass-and-play and games against the engine are not.

A pair of accounts gets a case (key ``accounts:<lower id>:<higher id>``, about the newer
account, the older one among its others) when:

* they share a *device*: two accounts used in one browser; or
* they share an *address* and show a second sign, so that a household or a club's shared
  network does not fill the staff queue: they played each other in a counted match (what
  a second account is for: feeding rating or chips to the first), or both signed up from
  that address within ``SIGNUP_WINDOW`` of each other (a second account made straight
  after the first, in a fresh browser). Accounts that merely log in from one network, or
  signed up there days apart and never play each other, open nothing.

Each sign-up or log-in is checked against the accounts it shares a digest with
(``scan_sightings``, from ``accounts.events.AccountSighted``), and each match that ends
between two accounts sharing one (``scan_match``). Once staff have decided a pair's case
(dismissed it as a household, or linked the accounts), the pair opens a new one only on
something new since: a digest first shared after the decision, or a match after it.

The evidence names the shared digests (kind, a short prefix to tell them apart, and each
account's first and last sighting and count), every match between the two (newest
``MATCHES_SHOWN``) with its result and the money each account's wallets gained or lost
through the match's escrow, and the net money that went to the newer account.

Accounts the demo loader or staff made (``accounts.models.MadeBy``) are passed over: a
newcomer trying the demo logs in as its players from one browser, and staff make accounts
for people from their own.

Staff *link* accounts they find to be one person's (``link_accounts``, called by the
``link`` sanction).
"""

from __future__ import annotations

import functools
import operator
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from django.db import transaction
from django.db.models import F, Q, QuerySet, Sum
from django.utils import timezone

from accounts.models import LedgerEntry, MadeBy, Sighting, SightingKind, User
from core.errors import DomainError, NotFound
from fairplay.cases import case_report
from fairplay.models import AccountLink, Case, CaseKind, CaseState
from matches.models import Match
from matches.money import escrow_ref

# Two accounts whose sign-ups came from one address this close together.
SIGNUP_WINDOW = timedelta(hours=1)
# A sighting first made this soon after an account was created is its sign-up's.
SIGNUP_SIGHTING = timedelta(minutes=10)
MATCHES_SHOWN = 50
DIGEST_SHOWN = 12
UNDECIDED = (CaseState.OPEN, CaseState.IN_REVIEW)
# Accounts made to be tried from one machine (the demo loader's) or by staff for someone:
# what they share is no sign of one person behind two names.
SHARED_BY_DESIGN = (MadeBy.DEMO, MadeBy.STAFF)


def scan_sightings(user_id: int, sighting_ids: Iterable[int]) -> list[Case]:
    """``user_id`` was just seen (``sighting_ids``): check them against every account
    sharing one of those digests with them. Returns the cases opened or updated."""
    user = User.objects.filter(pk=user_id).exclude(profile__made_by__in=SHARED_BY_DESIGN).first()
    seen = list(
        Sighting.objects.filter(pk__in=list(sighting_ids), user_id=user_id).values_list(
            "kind", "digest"
        )
    )
    if user is None or not seen:
        return []
    same = functools.reduce(operator.or_, (Q(kind=kind, digest=digest) for kind, digest in seen))
    sharers = Sighting.objects.filter(same).exclude(user_id=user_id)
    devices = set(sharers.filter(kind=SightingKind.DEVICE).values_list("user_id", flat=True))
    addresses = set(sharers.filter(kind=SightingKind.ADDRESS).values_list("user_id", flat=True))
    suspects = devices | _opponents(user, addresses - devices) | _signed_up_with(user, seen)
    cases = []
    others = User.objects.filter(pk__in=suspects).exclude(profile__made_by__in=SHARED_BY_DESIGN)
    for other in others.order_by("pk"):
        case = _check_pair(user, other)
        if case is not None:
            cases.append(case)
    return cases


def scan_match(match_id: int) -> Case | None:
    """A match ended: its two players may share a device or an address."""
    match = Match.objects.select_related("player_0__profile", "player_1__profile").get(pk=match_id)
    if match.pass_and_play or match.engine_strength or match.player_0_id == match.player_1_id:
        return None
    if {match.player_0.profile.made_by, match.player_1.profile.made_by} & set(SHARED_BY_DESIGN):
        return None
    return _check_pair(match.player_0, match.player_1)


@transaction.atomic
def link_accounts(*, staff: User, user_ids: list[int], reason: str) -> list[int]:
    """Record ``user_ids`` as one person's accounts, every pair of them; returns the ids of
    the links, in pair order (a pair linked before keeps its link)."""
    people = sorted(set(user_ids))
    if len(people) < 2:
        raise DomainError("Linking needs at least two accounts.")
    found = set(User.objects.filter(pk__in=people).values_list("pk", flat=True))
    if len(found) != len(people):
        raise NotFound("One of those accounts does not exist.")
    links = []
    for low, high in combinations(people, 2):
        link, _ = AccountLink.objects.get_or_create(
            low_id=low, high_id=high, defaults={"staff": staff, "reason": reason}
        )
        links.append(link.pk)
    return links


# Who to look at --------------------------------------------------------------------


def _counted(matches: QuerySet[Match]) -> QuerySet[Match]:
    return matches.filter(started_at__isnull=False, pass_and_play=False, engine_strength="").filter(
        Q(rated=True) | Q(stake_cents__gt=0) | Q(chip_stake__gt=0)
    )


def _opponents(user: User, among: set[int]) -> set[int]:
    """Those of ``among`` who played ``user`` in a counted match."""
    if not among:
        return set()
    played = _counted(
        Match.objects.filter(
            Q(player_0=user, player_1_id__in=among) | Q(player_1=user, player_0_id__in=among)
        )
    ).values_list("player_0_id", "player_1_id")
    return {seat for pair in played for seat in pair} - {user.pk}


def _signed_up_with(user: User, seen: list[tuple[str, str]]) -> set[int]:
    """Accounts that signed up from an address ``user`` signed up from, close in time."""
    own = Sighting.objects.filter(
        user=user,
        kind=SightingKind.ADDRESS,
        digest__in=[digest for kind, digest in seen if kind == SightingKind.ADDRESS],
        first_seen__lte=user.date_joined + SIGNUP_SIGHTING,
    ).values_list("digest", flat=True)
    return set(
        Sighting.objects.filter(
            kind=SightingKind.ADDRESS,
            digest__in=list(own),
            first_seen__lte=F("user__date_joined") + SIGNUP_SIGHTING,
            user__date_joined__gte=user.date_joined - SIGNUP_WINDOW,
            user__date_joined__lte=user.date_joined + SIGNUP_WINDOW,
        )
        .exclude(user=user)
        .values_list("user_id", flat=True)
    )


# One pair --------------------------------------------------------------------------


def _check_pair(first: User, second: User) -> Case | None:
    newer, older = sorted((first, second), key=lambda user: (user.date_joined, user.pk))[::-1]
    shared = _shared(newer, older)
    if not shared:
        return None
    matches = list(
        Match.objects.filter(
            Q(player_0=newer, player_1=older) | Q(player_0=older, player_1=newer),
            started_at__isnull=False,
            pass_and_play=False,
        ).order_by("-started_at", "-pk")
    )
    counted = set(
        _counted(Match.objects.filter(pk__in=[match.pk for match in matches])).values_list(
            "pk", flat=True
        )
    )
    signs = _signs(shared, len(counted))
    key = f"accounts:{min(newer.pk, older.pk)}:{max(newer.pk, older.pk)}"
    if not signs or not _worth_a_case(key, shared, matches):
        return None
    shown = matches[:MATCHES_SHOWN]
    money = _money_by_match(shown, newer, older)
    return case_report(
        kind=CaseKind.ACCOUNTS,
        subject=newer,
        others=[older],
        key=key,
        summary=f"{newer.username} and {older.username} {' and '.join(signs)}",
        evidence={
            "newer": _account(newer),
            "older": _account(older),
            "signs": signs,
            "shared": [{**row, "since": row["since"].isoformat()} for row in shared],
            "matches_played": len(matches),
            "counted_matches": len(counted),
            "matches": _match_rows(shown, newer, older, counted, money),
            "money_to_newer": _money_to(newer, money),
        },
    )


def _shared(newer: User, older: User) -> list[dict[str, Any]]:
    """The digests both accounts were seen with, devices first."""
    by_digest: dict[tuple[str, str], dict[int, Sighting]] = defaultdict(dict)
    for sighting in Sighting.objects.filter(user__in=[newer, older]):
        by_digest[(sighting.kind, sighting.digest)][sighting.user_id] = sighting
    rows = []
    for (kind, digest), seen in sorted(by_digest.items(), key=lambda item: item[0][0] != "device"):
        if len(seen) < 2:
            continue
        rows.append(
            {
                "kind": kind,
                "digest": digest[:DIGEST_SHOWN],
                "since": max(sighting.first_seen for sighting in seen.values()),
                "signed_up_together": _signed_up_together(newer, older, seen),
                "accounts": {
                    user.username: {
                        "first_seen": seen[user.pk].first_seen.isoformat(),
                        "last_seen": seen[user.pk].last_seen.isoformat(),
                        "times": seen[user.pk].times,
                    }
                    for user in (newer, older)
                },
            }
        )
    return rows


def _signed_up_together(newer: User, older: User, seen: dict[int, Sighting]) -> bool:
    return newer.date_joined - older.date_joined <= SIGNUP_WINDOW and all(
        seen[user.pk].first_seen <= user.date_joined + SIGNUP_SIGHTING for user in (newer, older)
    )


def _signs(shared: list[dict[str, Any]], counted: int) -> list[str]:
    kinds = {row["kind"] for row in shared}
    signs = []
    if SightingKind.DEVICE in kinds:
        signs.append("used one device")
    if SightingKind.ADDRESS in kinds:
        if counted:
            signs.append(
                f"share an address and played each other {counted} time{'s' * (counted != 1)} "
                "for rating or money"
            )
        if any(row["signed_up_together"] for row in shared if row["kind"] == "address"):
            minutes = int(SIGNUP_WINDOW.total_seconds() // 60)
            signs.append(f"signed up from one address within {minutes} minutes")
    return signs


def _worth_a_case(key: str, shared: list[dict[str, Any]], matches: list[Match]) -> bool:
    """An undecided case takes the new evidence; a decided one only yields to news."""
    if Case.objects.filter(key=key, state__in=UNDECIDED).exists():
        return True
    decided: datetime | None = (
        Case.objects.filter(key=key, decided_at__isnull=False)
        .order_by("-decided_at")
        .values_list("decided_at", flat=True)
        .first()
    )
    if decided is None:
        return True
    return any(row["since"] > decided for row in shared) or any(
        (match.started_at or timezone.now()) > decided for match in matches
    )


def _account(user: User) -> dict[str, Any]:
    return {"id": user.pk, "username": user.username, "joined": user.date_joined.isoformat()}


def _match_rows(
    matches: list[Match],
    newer: User,
    older: User,
    counted: set[int],
    money: dict[int, dict[int, dict[str, int]]],
) -> list[dict[str, Any]]:
    names = {newer.pk: newer.username, older.pk: older.username}
    return [
        {
            "match": match.pk,
            "status": match.status,
            "tournament": match.tournament_id,
            "length": match.length,
            "rated": match.rated,
            "currency": match.currency,
            "stake_cents": match.stake_cents,
            "counted": match.pk in counted,
            "started_at": match.started_at.isoformat() if match.started_at else None,
            "finished_at": match.finished_at.isoformat() if match.finished_at else None,
            "winner": (
                None
                if match.winner_seat is None
                else names[match.player_1_id if match.winner_seat else match.player_0_id]
            ),
            "score": {
                names[match.player_0_id]: match.score_0,
                names[match.player_1_id]: match.score_1,
            },
            "reason": match.finish_reason,
            "money_cents": {
                names[user_id]: cents for user_id, cents in money.get(match.pk, {}).items()
            },
        }
        for match in matches
    ]


def _money_by_match(
    matches: list[Match], newer: User, older: User
) -> dict[int, dict[int, dict[str, int]]]:
    """Per match, what each account's wallets gained (+) or lost (-) through its escrow."""
    refs = {escrow_ref(match): match.pk for match in matches}
    sums = (
        LedgerEntry.objects.filter(
            transaction__escrow_ref__in=list(refs), account__user__in=[newer, older]
        )
        .values("transaction__escrow_ref", "account__user_id", "account__currency")
        .annotate(total=Sum("amount"))
    )
    found: dict[int, dict[int, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for row in sums:
        if row["total"]:
            match_id = refs[row["transaction__escrow_ref"]]
            found[match_id][row["account__user_id"]][row["account__currency"]] = int(row["total"])
    return found


def _money_to(newer: User, money: dict[int, dict[int, dict[str, int]]]) -> dict[str, int]:
    """What the newer account's wallets gained (+) or lost (-) over the matches shown."""
    flow: dict[str, int] = defaultdict(int)
    for by_user in money.values():
        for currency, cents in by_user.get(newer.pk, {}).items():
            flow[currency] += cents
    return {currency: cents for currency, cents in flow.items() if cents}
