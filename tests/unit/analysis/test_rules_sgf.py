"""The program's SGF of a match, given the rules as played: only each game's root node
changes (``RU`` without the Crawford rule, ``CV`` the initial cube), whatever the names and
comments hold."""

from __future__ import annotations

from analysis.gnubg_match_analysis import root_nodes, with_rules

GAME = (
    "(;FF[4]GM[6]MI[length:3][game:{n}][ws:0][bs:0]PW[{white}]PB[Bob]RU[{rules}]RE[W+1]\n"
    ";W[21fefd]C[a comment ;( with RU[Crawford] and CV[8\\]]\n;B[62aclr])\n"
)


def match(*games: tuple[str, str]) -> str:
    return "".join(
        GAME.format(n=n, white=white, rules=rules) for n, (white, rules) in enumerate(games)
    )


def test_without_the_crawford_rule_no_game_has_it_or_is_the_crawford_game() -> None:
    sgf = match(("Alice", "Crawford"), ("Alice", "Crawford:CrawfordGame"))

    changed = with_rules(sgf, crawford_rule=False, initial_cubes=())

    assert changed == sgf.replace("RU[Crawford]RE", "RE").replace(
        "RU[Crawford:CrawfordGame]RE", "RE"
    )


def test_other_rules_stay_and_the_initial_cube_is_written_per_game() -> None:
    sgf = match(("Alice", "Jacoby"), ("Alice", "Jacoby"))

    changed = with_rules(sgf, crawford_rule=True, initial_cubes=(4, 1))

    first, second = changed.split("\n(;")
    assert "RU[Jacoby]RE[W+1]CV[4]\n;W[21fefd]" in first
    assert "CV[" not in second.split(";W[")[0]
    assert changed.count("C[a comment ;( with RU[Crawford] and CV[8\\]]") == 2


def test_a_name_that_looks_like_a_property_is_left_alone() -> None:
    sgf = match(("x]RU[Crawford", "Crawford"))
    sgf = sgf.replace("PW[x]RU[Crawford]", "PW[x\\]RU[Crawford]")

    changed = with_rules(sgf, crawford_rule=False, initial_cubes=(2,))

    assert "PW[x\\]RU[Crawford]PB[Bob]RE[W+1]CV[2]" in changed
    assert len(root_nodes(changed)) == 1
