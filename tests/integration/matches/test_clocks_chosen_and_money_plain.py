"""Players choose the clock when they challenge, and money is said plainly: a challenge
nobody can cover is refused at once, naming whose balance is short."""

from __future__ import annotations

import pytest

from accounts import ledger
from accounts.roles import Role
from matches.models import Match, MatchConnection
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for, board_left, start_match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("preset", "kind", "move_seconds", "reserve_ms"),
    [
        ("blitz", "delay", 8, 3 * 30_000),
        ("standard", "delay", 12, 3 * 120_000),
        ("relaxed", "delay", 30, 3 * 180_000),
        ("correspondence", "days", 2 * 86_400, 0),
    ],
)
def test_a_challenge_plays_under_the_named_clock_it_chose(
    preset: str, kind: str, move_seconds: int, reserve_ms: int
) -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")

    match_id = start_match(alice, bruno, length=3, clock={"preset": preset})

    match = Match.objects.get(pk=match_id)
    assert (match.clock, match.move_seconds, match.reserve_ms_0) == (kind, move_seconds, reserve_ms)


def test_the_default_clock_is_live_tournament_plays_two_minutes_a_point_and_12_s_delay() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")

    state = api_for(alice).get(f"/api/matches/{start_match(alice, bruno, length=7)}/").json()

    assert state["clock"]["kind"] == "delay"
    assert state["clock"]["move_seconds"] == 12
    assert state["clock"]["reserve_ms"] == [14 * 60_000, 14 * 60_000]


def test_leaving_a_correspondence_board_starts_no_grace() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3, clock={"preset": "correspondence"})

    board_left(match_id, alice)

    match = Match.objects.get(pk=match_id)
    assert match.grace_ends_0 is None
    assert not MatchConnection.objects.filter(match=match).exists()
    assert match.show_up_by is not None
    assert (match.show_up_by - match.started_at).days == 2


def test_a_clock_the_rules_refuse_is_a_400_in_words() -> None:
    alice = UserFactory(username="alice")
    UserFactory(username="bruno")

    refused = api_for(alice).post(
        "/api/matches/",
        {"opponent": "bruno", "length": 3, "clock": {"kind": "move", "move_seconds": 3600}},
        format="json",
    )

    assert refused.status_code == 400
    assert "600 seconds" in refused.json()["detail"]


def test_a_challenge_the_challenger_cannot_cover_is_refused_at_once() -> None:
    alice = UserFactory(username="alice")
    UserFactory(username="bruno")
    balance = ledger.balance(user=alice, currency="FUN")

    refused = api_for(alice).post(
        "/api/matches/",
        {"opponent": "bruno", "length": 5, "stake_cents": balance + 100},
        format="json",
    )

    assert refused.status_code == 400
    detail = refused.json()["detail"]
    assert detail.startswith("Your FUN balance is ")
    assert "needs" in detail
    assert not Match.objects.exists()


def test_accepting_names_the_challenger_whose_balance_fell_short() -> None:
    alice = UserFactory(username="alice", display_name="Alice Adams")
    bruno = UserFactory(username="bruno")
    challenge = api_for(alice).post(
        "/api/matches/", {"opponent": "bruno", "length": 5, "stake_cents": 5000}, format="json"
    )
    spend = ledger.balance(user=alice, currency="FUN") - 100
    ledger.withdraw(
        user=alice,
        currency="FUN",
        amount_cents=spend,
        reason="cashed out",
        staff=UserFactory(username="sam", role=Role.STAFF),
        key="test-withdraw",
    )

    refused = api_for(bruno).post(f"/api/matches/{challenge.json()['id']}/accept/")

    assert refused.status_code == 400
    assert refused.json()["detail"].startswith("Alice Adams's FUN balance is 1.00")
