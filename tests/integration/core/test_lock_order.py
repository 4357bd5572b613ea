"""The lock order as code (``core.locks``): a transaction that takes two locks out of order
is refused at once, in the suite, before two such transactions ever meet in production."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from core import locks
from core.errors import Conflict
from core.locks import Lock, LockOrderError
from matches.models import Match
from matches.state import lock_match
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match
from tests.integration.tournaments.helpers import open_tournament, organizer
from tournaments.models import Tournament
from tournaments.scheduler import locked_tournament

pytestmark = pytest.mark.django_db


def _two_matches() -> tuple[Match, Match]:
    alice, bruno, chloe = (UserFactory(username=name) for name in ("alice", "bruno", "chloe"))
    first = start_match(alice, bruno, length=3)
    second = start_match(chloe, alice, length=3)
    return Match.objects.get(pk=first), Match.objects.get(pk=second)


def _tournament() -> Tournament:
    return open_tournament(organizer())


def test_a_match_then_its_tournament_is_the_order() -> None:
    match, _ = _two_matches()
    tournament = _tournament()
    with transaction.atomic():
        lock_match(match.pk)
        locked_tournament(tournament.pk)


def test_a_tournament_then_a_match_is_refused() -> None:
    match, _ = _two_matches()
    tournament = _tournament()
    with transaction.atomic():
        locked_tournament(tournament.pk)
        with pytest.raises(LockOrderError, match=r"MATCH .* taken after TOURNAMENT"):
            lock_match(match.pk)


def test_a_tournament_then_a_match_it_cancels_is_the_order() -> None:
    match, _ = _two_matches()
    tournament = _tournament()
    with transaction.atomic():
        locked_tournament(tournament.pk)
        lock_match(match.pk, kind=Lock.NEXT_MATCH)


def test_matches_are_locked_in_ascending_ids_and_again_at_will() -> None:
    first, second = _two_matches()
    with transaction.atomic():
        lock_match(first.pk)
        lock_match(second.pk)
        lock_match(first.pk)  # held already: taking it again waits for nobody


def test_a_match_held_already_may_be_taken_again_after_its_tournament() -> None:
    match, _ = _two_matches()
    tournament = _tournament()
    with transaction.atomic():
        lock_match(match.pk)
        locked_tournament(tournament.pk)
        lock_match(match.pk)


def test_matches_in_descending_ids_are_refused() -> None:
    first, second = _two_matches()
    with transaction.atomic():
        lock_match(second.pk)
        with pytest.raises(LockOrderError, match="ascending"):
            lock_match(first.pk)


def test_rows_of_one_kind_are_named_in_ascending_order() -> None:
    with transaction.atomic(), pytest.raises(LockOrderError, match="ascending"):
        locks.taken(Lock.PAIRING, 7, 3)


def test_a_committed_transaction_leaves_nothing_held_for_the_next() -> None:
    match, _ = _two_matches()
    tournament = _tournament()
    with transaction.atomic():
        locked_tournament(tournament.pk)
    with transaction.atomic():
        lock_match(match.pk)


def test_a_transaction_rolled_back_leaves_nothing_held_for_the_next() -> None:
    match, _ = _two_matches()
    tournament = _tournament()

    def refused_after_the_lock() -> None:
        with transaction.atomic():
            locked_tournament(tournament.pk)
            raise Conflict("refused after the lock")

    with pytest.raises(Conflict):
        refused_after_the_lock()
    with transaction.atomic():
        lock_match(match.pk)


@pytest.mark.django_db(transaction=True)
def test_real_transactions_are_told_apart_and_checked_each() -> None:
    match, _ = _two_matches()
    tournament = _tournament()
    with transaction.atomic():
        locked_tournament(tournament.pk)
    with transaction.atomic():
        lock_match(match.pk)
        locked_tournament(tournament.pk)
    with transaction.atomic():
        locked_tournament(tournament.pk)
        with pytest.raises(LockOrderError):
            lock_match(match.pk)


def test_an_adjustment_key_may_come_after_a_wallet() -> None:
    with transaction.atomic():
        locks.taken(Lock.WALLET)
        locks.advisory(Lock.ADJUSTMENT_KEY, "adjust:1:retry")
        locks.taken(Lock.WALLET)


def test_the_checks_are_off_unless_the_setting_is_on(settings: Any) -> None:
    match, _ = _two_matches()
    tournament = _tournament()
    settings.CRAWFORD_LOCK_ORDER_CHECKS = False
    with transaction.atomic():
        locked_tournament(tournament.pk)
        lock_match(match.pk)


def test_a_match_made_in_the_transaction_may_be_locked_after_a_wallet() -> None:
    with transaction.atomic():
        locks.taken(Lock.WALLET)
        locks.made(Lock.MATCH, 10**9)
        locks.taken(Lock.MATCH, 10**9)
