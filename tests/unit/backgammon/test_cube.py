"""The doubling cube: who may double, take, drop, beaver, raccoon and automatic doubles."""

from __future__ import annotations

import pytest

from backgammon.cube import (
    Cube,
    CubeRules,
    Drop,
    Offer,
    beaver,
    double,
    drop,
    opening_roll,
    raccoon,
    take,
)
from backgammon.errors import BackgammonError

MATCH = CubeRules()
MONEY = CubeRules(money=True)
BEAVERS = CubeRules(money=True, beavers=True)
RACCOONS = CubeRules(money=True, beavers=True, raccoons=True)


def test_a_centred_cube_may_be_doubled_by_either_player_and_the_taker_owns_it() -> None:
    for player in (0, 1):
        offered = double(Cube(), MATCH, player=player, on_roll=player, rolled=False)

        assert offered.offer is Offer.DOUBLE
        assert offered.awaiting == 1 - player
        assert take(offered, player=1 - player) == Cube(value=2, owner=1 - player)


def test_the_owner_redoubles_without_limit_and_the_cube_changes_hands() -> None:
    cube = Cube()
    for turn in range(12):
        player = turn % 2
        cube = take(
            double(cube, MATCH, player=player, on_roll=player, rolled=False), player=1 - player
        )

    assert cube == Cube(value=4096, owner=0)


@pytest.mark.parametrize(
    ("cube", "rules", "player", "on_roll", "rolled", "message"),
    [
        (
            Cube(value=2, owner=1),
            MATCH,
            0,
            0,
            False,
            "You may not double: your opponent owns the cube",
        ),
        (Cube(), CubeRules(crawford_game=True), 0, 0, False, "No doubling in the Crawford game"),
        (Cube(), MATCH, 0, 0, True, "Doubling is only allowed before you roll"),
        (Cube(), MATCH, 1, 0, False, "You may double only on your own turn, before rolling"),
        (
            Cube(value=64, owner=0),
            CubeRules(max_cube=64),
            0,
            0,
            False,
            "The cube is at its maximum (64)",
        ),
        (
            Cube(offer=Offer.DOUBLE, offered_by=1, offered_value=2),
            MATCH,
            0,
            0,
            False,
            "A double is already on the table: it must be answered first",
        ),
    ],
)
def test_a_double_is_refused_with_the_rule_it_breaks(
    cube: Cube, rules: CubeRules, player: int, on_roll: int, rolled: bool, message: str
) -> None:
    with pytest.raises(BackgammonError) as refused:
        double(cube, rules, player=player, on_roll=on_roll, rolled=rolled)

    assert str(refused.value) == message


def test_the_cube_may_reach_its_maximum_but_not_pass_it() -> None:
    rules = CubeRules(max_cube=64)
    offered = double(Cube(value=32, owner=0), rules, player=0, on_roll=0, rolled=False)

    assert take(offered, player=1) == Cube(value=64, owner=1)


@pytest.mark.parametrize(("value", "owner"), [(1, None), (2, 0), (16, 0)])
def test_a_drop_loses_the_value_before_the_double(value: int, owner: int | None) -> None:
    offered = double(Cube(value=value, owner=owner), MATCH, player=0, on_roll=0, rolled=False)

    assert drop(offered, player=1) == Drop(winner=0, points=value)


@pytest.mark.parametrize(
    ("cube", "action", "message"),
    [
        (Cube(), "take", "There is no double to take"),
        (Cube(), "drop", "There is no double to drop"),
        (Cube(), "beaver", "There is no double to beaver"),
        (Cube(), "raccoon", "There is no double to raccoon"),
        (
            Cube(offer=Offer.DOUBLE, offered_by=0, offered_value=2),
            "take",
            "Your opponent must answer your offer",
        ),
        (
            Cube(offer=Offer.DOUBLE, offered_by=0, offered_value=2),
            "drop",
            "Your opponent must answer your offer",
        ),
    ],
)
def test_only_the_player_doubled_answers_an_open_double(
    cube: Cube, action: str, message: str
) -> None:
    actions = {
        "take": lambda: take(cube, player=0),
        "drop": lambda: drop(cube, player=0),
        "beaver": lambda: beaver(cube, RACCOONS, player=0),
        "raccoon": lambda: raccoon(cube, RACCOONS, player=0),
    }
    with pytest.raises(BackgammonError) as refused:
        actions[action]()

    assert str(refused.value) == message


def test_a_beaver_redoubles_at_once_and_the_beaverer_keeps_the_cube() -> None:
    offered = double(Cube(), BEAVERS, player=0, on_roll=0, rolled=False)

    assert beaver(offered, BEAVERS, player=1) == Cube(value=4, owner=1)


def test_a_beaver_of_a_redouble_quadruples_the_value_before_it() -> None:
    offered = double(Cube(value=2, owner=0), BEAVERS, player=0, on_roll=0, rolled=False)

    assert beaver(offered, BEAVERS, player=1) == Cube(value=8, owner=1)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (MATCH, "Beavers are allowed only in money play"),
        (MONEY, "Beavers are not allowed in this game"),
        (CubeRules(money=True, beavers=True, max_cube=2), "The cube is at its maximum (2)"),
    ],
)
def test_a_beaver_is_refused_where_the_rules_forbid_it(rules: CubeRules, message: str) -> None:
    offered = double(Cube(), rules, player=0, on_roll=0, rolled=False)

    with pytest.raises(BackgammonError) as refused:
        beaver(offered, rules, player=1)

    assert str(refused.value) == message


def test_with_raccoons_the_doubler_answers_a_beaver_by_taking_or_raccooning() -> None:
    offered = double(Cube(), RACCOONS, player=0, on_roll=0, rolled=False)
    beavered = beaver(offered, RACCOONS, player=1)

    assert beavered.offer is Offer.BEAVER
    assert beavered.awaiting == 0
    assert take(beavered, player=0) == Cube(value=4, owner=1)
    assert raccoon(beavered, RACCOONS, player=0) == Cube(value=8, owner=0)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("drop", "A beaver cannot be dropped: take it or raccoon"),
        ("beaver", "Only a double can be beavered"),
    ],
)
def test_a_beaver_cannot_be_dropped_or_beavered_back(action: str, message: str) -> None:
    beavered = beaver(
        double(Cube(), RACCOONS, player=0, on_roll=0, rolled=False), RACCOONS, player=1
    )

    answer = {
        "drop": lambda: drop(beavered, player=0),
        "beaver": lambda: beaver(beavered, RACCOONS, player=0),
    }[action]

    with pytest.raises(BackgammonError) as refused:
        answer()

    assert str(refused.value) == message


def test_a_raccoon_answers_only_a_beaver_and_only_where_allowed() -> None:
    offered = double(Cube(), RACCOONS, player=0, on_roll=0, rolled=False)
    with pytest.raises(BackgammonError, match=r"^Only a beaver can be answered with a raccoon$"):
        raccoon(offered, RACCOONS, player=1)

    beavered = Cube(offer=Offer.BEAVER, offered_by=1, offered_value=4)
    with pytest.raises(BackgammonError, match=r"^Raccoons are not allowed in this game$"):
        raccoon(beavered, BEAVERS, player=0)


def test_opening_doubles_bump_the_centred_cube_up_to_the_set_number() -> None:
    rules = CubeRules(money=True, automatic_doubles=2)
    cube = Cube()
    for dice in [(3, 3), (4, 2)]:
        cube = opening_roll(cube, rules, dice)
    assert cube == Cube(value=2, automatic_doubles=1)

    for dice in [(5, 5), (6, 6), (1, 1)]:
        cube = opening_roll(cube, rules, dice)
    assert cube == Cube(value=4, automatic_doubles=2)
    assert cube.centred
    assert not cube.turned


@pytest.mark.parametrize(
    ("rules", "value"),
    [
        (MONEY, 1),
        (MATCH, 1),
        (CubeRules(money=True, automatic_doubles=3, max_cube=2), 2),
    ],
)
def test_automatic_doubles_need_the_option_and_respect_the_maximum(
    rules: CubeRules, value: int
) -> None:
    cube = Cube()
    for _ in range(3):
        cube = opening_roll(cube, rules, (2, 2))

    assert cube.value == value


def test_after_an_automatic_double_either_player_may_still_double() -> None:
    rules = CubeRules(money=True, automatic_doubles=1)
    cube = opening_roll(Cube(), rules, (6, 6))

    offered = double(cube, rules, player=1, on_roll=1, rolled=False)

    assert take(offered, player=0) == Cube(value=4, owner=0, automatic_doubles=1)


@pytest.mark.parametrize(
    "rules",
    [
        {"beavers": True},
        {"automatic_doubles": 1},
        {"money": True, "raccoons": True},
        {"max_cube": 48},
    ],
)
def test_rules_that_cannot_go_together_are_refused(rules: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        CubeRules(**rules)  # type: ignore[arg-type]
