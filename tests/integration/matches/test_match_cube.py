"""Match swing's match cube, played through the REST API: double, take, double back, drop;
what is refused and why; nothing else while a match double waits; its clock."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from rest_framework.response import Response

from matches.chat import chat_send
from matches.models import Action, ActionKind, ChatMessage, FinishReason, Match, MatchStatus
from matches.tasks import sweep_deadlines
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for, board_opened, quick_play, start_match

pytestmark = pytest.mark.django_db


class Table:
    """Alice and Bruno at a match, acting through the REST API by name."""

    def __init__(self, *, match_cube: bool = True, length: int = 3, **body: Any) -> None:
        self.users = {name: UserFactory(username=name) for name in ("alice", "bruno")}
        self.match_id = start_match(self.users["alice"], self.users["bruno"], length=length, **body)
        if match_cube:
            Match.objects.filter(pk=self.match_id).update(match_cube=1, crawford_rule=False)

    def state(self, name: str = "alice") -> dict[str, Any]:
        return api_for(self.users[name]).get(f"/api/matches/{self.match_id}/").json()  # type: ignore[no-any-return]

    def act(self, name: str, action: str, **extra: Any) -> Response:
        return api_for(self.users[name]).post(  # type: ignore[no-any-return]
            f"/api/matches/{self.match_id}/actions/", {"type": action, **extra}, format="json"
        )

    def ok(self, name: str, action: str, **extra: Any) -> dict[str, Any]:
        response = self.act(name, action, **extra)
        assert response.status_code == 200, response.json()
        return response.json()  # type: ignore[no-any-return]

    def to_act(self) -> str:
        return str(self.state()["game"]["turn"])

    def other(self, name: str) -> str:
        return "bruno" if name == "alice" else "alice"

    def seat(self, name: str) -> int:
        return 0 if name == "alice" else 1

    def play(self, name: str) -> None:
        """``name`` plays the dice he rolled (if any play is left to make)."""
        state = self.state(name)
        if state["game"]["phase"] == "move" and state["game"]["turn"] == name:
            self.ok(name, "play", play=quick_play(state["game"]["legal_plays"]))

    def turn(self, name: str) -> None:
        """``name`` rolls and plays; the turn passes to the other player."""
        self.ok(name, "roll")
        self.play(name)
        assert self.to_act() == self.other(name)

    def after_the_opening(self) -> tuple[str, str]:
        """The opening roll played: (the player now at the start of his turn, the other)."""
        opener = self.to_act()
        self.play(opener)
        return self.other(opener), opener


def refused(response: Response, status: int, message: str) -> None:
    assert (response.status_code, response.json()["detail"]) == (status, message)


def test_a_match_double_is_taken_doubled_back_and_dropped_and_the_doubler_wins_the_match() -> None:
    # given
    table = Table()
    doubler, taker = table.after_the_opening()

    # when the match stake is doubled and taken
    offered = table.ok(doubler, "match_double")
    answering = table.state(taker)
    taken = table.ok(taker, "match_take")
    going_on = table.state(doubler)

    # then
    assert offered["match_cube"] == {
        "value": 1,
        "owner": None,
        "offered_by": table.seat(doubler),
        "max": 0,
    }
    assert offered["game"]["turn"] == taker
    assert answering["may_match_take"]
    assert answering["may_match_drop"]
    assert not any(answering[f"may_{action}"] for action in ("roll", "double", "resign"))
    assert taken["match_cube"] == {
        "value": 2,
        "owner": table.seat(taker),
        "offered_by": None,
        "max": 0,
    }
    assert going_on["game"]["turn"] == doubler
    assert going_on["may_roll"]
    assert going_on["may_double"]
    assert not going_on["may_match_double"]

    # when the taker doubles back on his turn and the first doubler drops
    table.turn(doubler)
    table.ok(taker, "match_double")
    final = table.ok(doubler, "match_drop")

    # then
    assert final["status"] == MatchStatus.FINISHED
    assert final["winner"] == taker
    assert final["finish_reason"] == "match_dropped"
    assert final["match_cube"] == {
        "value": 2,
        "owner": table.seat(taker),
        "offered_by": None,
        "max": 0,
    }
    match = Match.objects.get(pk=table.match_id)
    assert (match.winner_seat, match.finish_reason) == (
        table.seat(taker),
        FinishReason.MATCH_CUBE_DROPPED,
    )
    logged = list(
        Action.objects.filter(match=match, kind__startswith="match_")
        .order_by("seq")
        .values_list("kind", "seat")
    )
    assert logged == [
        (ActionKind.MATCH_DOUBLE, table.seat(doubler)),
        (ActionKind.MATCH_TAKE, table.seat(taker)),
        (ActionKind.MATCH_DOUBLE, table.seat(taker)),
        (ActionKind.MATCH_DROP, table.seat(doubler)),
        (ActionKind.MATCH_OVER, table.seat(taker)),
    ]
    moves = api_for(table.users["alice"]).get(f"/api/matches/{table.match_id}/moves/").json()
    assert [row["text"] for row in moves if row["kind"].startswith("match_")] == [
        "Doubles the match stake => 2",
        "Takes the match double",
        "Doubles the match stake => 4",
        "Drops the match double",
    ]


def test_nothing_but_an_answer_is_allowed_while_a_match_double_waits_and_chat_goes_on() -> None:
    # given
    table = Table()
    doubler, taker = table.after_the_opening()
    table.ok(doubler, "match_double")
    logged = Action.objects.filter(match_id=table.match_id).count()
    answer_first = "Answer the match double first: take or drop"
    wait = "Wait for your opponent to answer your match double"

    # when, then
    refused(table.act(taker, "roll"), 400, answer_first)
    refused(table.act(taker, "resign", resign="single"), 400, answer_first)
    refused(table.act(taker, "match_double"), 400, answer_first)
    refused(table.act(doubler, "roll"), 409, wait)
    refused(table.act(doubler, "double"), 409, wait)
    refused(table.act(doubler, "match_take"), 409, wait)
    refused(table.act(doubler, "resign", resign="single"), 400, wait)
    assert Action.objects.filter(match_id=table.match_id).count() == logged
    waiting = table.state(doubler)
    assert not any(value for key, value in waiting.items() if key.startswith("may_"))
    chat_send(
        match_id=table.match_id, author=table.users[taker], seat=table.seat(taker), text="hmm"
    )
    assert ChatMessage.objects.filter(match_id=table.match_id, text="hmm").exists()


def test_the_match_stake_may_be_doubled_only_at_the_start_of_ones_turn() -> None:
    # given
    table = Table()
    opener = table.to_act()

    # when, then: the opening roll's turn starts already rolled
    before_rolling = "You can double the match stake only at the start of your turn, before rolling"
    refused(table.act(opener, "match_double"), 400, before_rolling)
    refused(table.act(table.other(opener), "match_double"), 409, "It is not your turn")

    # when, then: after rolling
    doubler, _ = table.after_the_opening()
    rolled = table.ok(doubler, "roll")
    assert rolled["game"]["phase"] == "move"
    refused(table.act(doubler, "match_double"), 400, before_rolling)


def test_after_a_game_double_is_taken_the_match_stake_waits_for_the_next_turn() -> None:
    # given
    table = Table()
    doubler, taker = table.after_the_opening()
    table.ok(doubler, "double")
    table.ok(taker, "take")

    # when
    back_on_roll = table.state(doubler)
    response = table.act(doubler, "match_double")

    # then
    assert back_on_roll["may_roll"]
    assert not back_on_roll["may_match_double"]
    refused(
        response,
        400,
        "You can double the match stake only at the start of your turn, before the game cube"
        " is turned",
    )
    table.turn(doubler)
    table.turn(taker)
    assert table.state(doubler)["may_match_double"]


def test_only_the_owner_may_double_the_match_stake_again_and_never_past_its_maximum() -> None:
    # given
    table = Table()
    Match.objects.filter(pk=table.match_id).update(max_match_cube=2)
    doubler, taker = table.after_the_opening()
    table.ok(doubler, "match_double")
    table.ok(taker, "match_take")
    table.turn(doubler)

    # when, then
    assert not table.state(taker)["may_match_double"]
    refused(table.act(taker, "match_double"), 400, "The match stake is at its maximum (2)")
    table.turn(taker)
    refused(table.act(doubler, "match_double"), 400, "Your opponent owns the match cube")


def test_a_match_without_a_match_cube_shows_none_and_refuses_a_match_double() -> None:
    table = Table(match_cube=False)
    player, _ = table.after_the_opening()

    state = table.state(player)

    assert state["match_cube"] is None
    assert not any(state[f"may_match_{action}"] for action in ("double", "take", "drop"))
    refused(table.act(player, "match_double"), 400, "This match is played without a match cube")


def test_the_answer_to_a_match_double_is_on_the_clock_and_running_out_loses_the_match() -> None:
    # given both at the board, the doubler with less time left than the taker
    table = Table(clock={"kind": "move", "move_seconds": 5, "reserve_seconds": 10})
    for user in table.users.values():
        board_opened(table.match_id, user)
    doubler, taker = table.after_the_opening()
    Match.objects.filter(pk=table.match_id).update(**{f"reserve_ms_{table.seat(doubler)}": 3000})

    # when
    table.ok(doubler, "match_double")

    # then the deadline is the taker's
    match = Match.objects.get(pk=table.match_id)
    assert match.turn_started_at is not None
    assert match.deadline is not None
    assert match.deadline - match.turn_started_at == timedelta(seconds=5, milliseconds=10_000)

    # when the taker's time runs out
    Match.objects.filter(pk=match.pk).update(
        turn_started_at=match.turn_started_at - timedelta(seconds=16),
        deadline=match.deadline - timedelta(seconds=16),
    )
    sweep_deadlines()

    # then he loses the match, as any timeout does under this clock
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert (match.winner_seat, match.finish_reason) == (table.seat(doubler), FinishReason.TIMEOUT)
    assert match.match_cube_offered_by is None
    assert Action.objects.filter(
        match=match, kind=ActionKind.TIMEOUT, seat=table.seat(taker)
    ).exists()


@pytest.mark.parametrize(("crawford_rule", "crawford_game"), [(False, False), (True, True)])
def test_without_the_crawford_rule_no_crawford_game_is_played_one_point_away(
    crawford_rule: bool, crawford_game: bool
) -> None:
    # given a 2-point match
    table = Table(length=2)
    Match.objects.filter(pk=table.match_id).update(crawford_rule=crawford_rule)
    opener = table.to_act()

    # when the other player resigns the first game: the opener is one point away
    table.ok(table.other(opener), "resign", resign="single")
    table.ok(opener, "accept_resign")

    # then
    state = table.state()
    assert sorted(state["score"]) == [0, 1]
    assert state["game"]["number"] == 2
    assert state["crawford"] is crawford_game
    doubler, _ = table.after_the_opening()
    assert table.state(doubler)["may_double"] is not crawford_game
