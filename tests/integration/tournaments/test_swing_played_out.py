"""Swing tournaments played to the end through the match API.

Every game is an ordinary match played (or resigned, doubled, dropped) by its players'
API clients; the scheduler pairs the free players as games end. After every game the chips
add up to the field's starting chips; at the end places go by the order players went out,
the last player holding chips is paid first prize and every cent is accounted for.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts import ledger
from accounts.models import User
from lobby.models import NoticeKind, Notification
from matches.models import Match, MatchKind, MatchStatus
from matches.tasks import sweep_deadlines
from tests.integration.matches.helpers import Bot, board_left
from tests.integration.tournaments.helpers import (
    assert_money_conserved,
    concede,
    live_matches,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import services
from tournaments.models import Entry, SwingGame, SwingSeat, Tournament, TournamentState
from tournaments.swing.reads import schedule

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

LEVELS = ("single", "gammon", "backgammon")


def swing(field: list[User], **settings: Any) -> Tournament:
    owner = organizer()
    values: dict[str, Any] = {
        "name": "Thursday Swing",
        "format": "swing",
        "starting_chips": 1000,
        "cpp_levels": (50, 100),
        "cpp_step": 50,
        **settings,
    }
    tournament = open_tournament(owner, **values)
    register_all(tournament, field)
    if tournament.seats is None:
        services.tournament_start(tournament_id=tournament.pk, user=owner)
    tournament.refresh_from_db()
    return tournament


def finish_game(match_id: int, users: dict[int, User], rng: random.Random, *, full: bool) -> None:
    """One swing game, by the API: played out, or after a move each way a double (taken or
    dropped) and a resignation of a random kind."""
    match = Match.objects.get(pk=match_id)
    seated = {
        user.username: user
        for pk, user in users.items()
        if pk in (match.player_0_id, match.player_1_id)
    }
    bot = Bot(seated, doubles=rng.random() < 0.5)
    if full:
        bot.play_out(match_id)
        return
    state = bot.step(match_id)  # the opening roll's play
    while state["status"] == "playing" and state["game"]["phase"] != "roll":
        state = bot.step(match_id)
    if state["status"] != "playing":
        return
    roller = state["game"]["turn"]
    other = next(name for name in seated if name != roller)
    mine = bot.clients[roller].get(f"/api/matches/{match_id}/").json()
    if mine["may_double"] and rng.random() < 0.6:
        bot.act(match_id, roller, {"type": "double"})
        if rng.random() < 0.25:
            bot.act(match_id, other, {"type": "drop"})
            return
        bot.act(match_id, other, {"type": "take"})
    loser = rng.choice([roller, other])
    winner = other if loser == roller else roller
    bot.act(match_id, loser, {"type": "resign", "resign": rng.choice(LEVELS)})
    bot.act(match_id, winner, {"type": "accept_resign"})


def play_to_the_end(
    tournament: Tournament, field: list[User], *, seed: int, full_games: int = 0
) -> list[SwingGame]:
    rng = random.Random(seed)
    users = {user.pk: user for user in field}
    total = len(field) * (tournament.starting_chips or 0)
    played = 0
    for _ in range(500):
        tournament.refresh_from_db()
        if tournament.state != TournamentState.RUNNING:
            break
        live = live_matches(tournament)
        assert live, "a running swing always has a game being played"
        for match in live:
            finish_game(match.pk, users, rng, full=played < full_games)
            played += 1
            assert (
                sum(SwingSeat.objects.filter(tournament=tournament).values_list("chips", flat=True))
                == total
            )
    else:
        raise AssertionError("the swing did not end")
    return list(SwingGame.objects.filter(tournament=tournament).order_by("pk"))


def assert_finished_paid_and_conserved(
    tournament: Tournament, field: list[User], before: int
) -> None:
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    seats = {seat.user_id: seat for seat in SwingSeat.objects.filter(tournament=tournament)}
    total = len(field) * (tournament.starting_chips or 0)
    assert seats[tournament.champion_id].chips == total
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=tournament)}
    assert sorted(e.place for e in entries.values()) == list(range(1, len(field) + 1))
    assert entries[tournament.champion_id].place == 1
    # Places follow the order players went out: the later out, the better the place.
    out = sorted((s for s in seats.values() if s.out_at), key=lambda s: (s.out_at, s.pk))
    assert [entries[s.user_id].place for s in out] == list(range(len(field), 1, -1))
    assert sum(e.prize_cents for e in entries.values()) == len(field) * 1000
    assert entries[tournament.champion_id].prize_cents == max(
        e.prize_cents for e in entries.values()
    )
    assert_money_conserved(tournament, field, before)
    games = SwingGame.objects.filter(tournament=tournament)
    assert all(game.settled_at is not None for game in games)


def test_a_swing_of_four_is_played_to_the_last_chip_and_pays_the_champion() -> None:
    field = players(4)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)
    tournament = swing(field, jacoby=True)

    first = live_matches(tournament)
    assert len(first) == 2
    snapshot = Bot({field[0].username: field[0]}).state(first[0].pk)
    assert snapshot["kind"] == MatchKind.MONEY
    assert snapshot["tournament"] == tournament.pk
    assert snapshot["swing"] == {"cpp": 50, "stake": 1000, "all_in": False}
    assert snapshot["options"]["jacoby"] is True
    assert snapshot["options"]["max_cube"] == 32

    games = play_to_the_end(tournament, field, seed=4, full_games=2)

    assert_finished_paid_and_conserved(tournament, field, before)
    assert_each_game_at_its_players_round(tournament, games)
    assert max(game.cpp for game in games) > 100
    for game in games:
        match = Match.objects.get(pk=game.match_id)
        moved = abs(game.chips_to_0)
        assert moved <= game.stake
        if game.all_in:  # one point already reaches the all-in stake, which is all it moves
            assert moved == game.stake < game.cpp
        elif match.winner_seat is not None:
            points = match.score_0 if match.winner_seat == 0 else match.score_1
            loser_after = game.chips_after_1 if match.winner_seat == 0 else game.chips_after_0
            assert loser_after is not None
            # The loser pays the whole amount, or everything they held if that is less.
            assert moved == min(max(points, 1) * game.cpp, loser_after + moved)


def assert_each_game_at_its_players_round(tournament: Tournament, games: list[SwingGame]) -> None:
    """Each game was played at the level of the more games either of its players had
    played before it (their round), the CPP of that level."""
    played: dict[int, int] = {}
    plan = schedule(tournament)
    for game in sorted(games, key=lambda g: g.pk):  # a player's games follow one another
        rounds = (played.get(game.player_0_id, 0), played.get(game.player_1_id, 0))
        assert game.level == max(rounds)
        assert game.cpp == plan.cpp(game.level)
        for player in (game.player_0_id, game.player_1_id):
            played[player] = played.get(player, 0) + 1


def test_a_swing_of_five_tells_the_odd_player_to_wait_and_ends() -> None:
    field = players(5)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)
    tournament = swing(field, cpp_raise="knockout", starting_chips=400)

    assert len(live_matches(tournament)) == 2
    waiting = SwingSeat.objects.get(tournament=tournament, current_match_id__isnull=True)
    notice = Notification.objects.get(user_id=waiting.user_id, kind=NoticeKind.WAITING)
    assert "as soon as another game ends" in notice.text
    standings = (
        Bot({field[0].username: field[0]})
        .clients[field[0].username]
        .get(f"/api/tournaments/{tournament.pk}/standings/")
        .json()
    )
    assert {row["current_match_id"] is None for row in standings["rows"]} == {True, False}
    assert all(row["chips"] == 400 and row["place"] is None for row in standings["rows"])

    games = play_to_the_end(tournament, field, seed=5)

    assert_finished_paid_and_conserved(tournament, field, before)
    # The CPP rose only at knockouts: 4 knockouts, 4 levels after the first.
    assert {game.cpp for game in games} <= {50, 100, 150, 200}
    detail = (
        Bot({field[0].username: field[0]})
        .clients[field[0].username]
        .get(f"/api/tournaments/{tournament.pk}/")
        .json()
    )
    assert detail["champion"] is not None
    assert detail["swing"]["cpp"] == 250
    assert detail["swing"]["level"] == 5


def test_a_swing_of_nine_with_a_prize_table_by_place() -> None:
    field = players(9)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)
    tournament = swing(
        field,
        starting_chips=500,
        cpp_levels=(25,),
        cpp_step=25,
        prize_table={"main": (5000, 3000, 2000)},
    )

    play_to_the_end(tournament, field, seed=9, full_games=1)

    assert_finished_paid_and_conserved(tournament, field, before)
    prizes = sorted(Entry.objects.filter(tournament=tournament).values_list("place", "prize_cents"))
    assert prizes[:4] == [(1, 4500), (2, 2700), (3, 1800), (4, 0)]


def test_an_all_in_game_is_for_the_short_stack_and_has_no_cube() -> None:
    field = players(3)
    # Game 1 at CPP 300 takes the loser's 300 whatever its result; then the one who sat
    # out (300 chips) plays the winner (600) at CPP 600: all-in.
    tournament = swing(field, starting_chips=300, cpp_levels=(300, 600))
    games = play_to_the_end(tournament, field, seed=3)
    assert not games[0].all_in
    assert games[0].stake == games[0].cpp == 300
    all_in = [game for game in games if game.all_in]
    assert all_in
    assert all_in[0].pk == games[1].pk
    for game in all_in:
        match = Match.objects.get(pk=game.match_id)
        assert match.all_in
        assert match.max_cube == 1
        assert match.chip_stake == game.stake < game.cpp
        assert abs(game.chips_to_0) == game.stake  # won or lost, the game was for his chips


def test_the_richer_player_losing_pays_the_full_amount_to_a_poorer_one() -> None:
    field = players(2)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)
    tournament = swing(field, starting_chips=1000, cpp_levels=(100, 300))
    (first,) = live_matches(tournament)
    concede(first, first.player_1)  # one point at CPP 100: 1,100 against 900
    chips = dict(SwingSeat.objects.filter(tournament=tournament).values_list("user_id", "chips"))
    richer = next(user for user in field if chips[user.pk] == 1100)
    poorer = next(user for user in field if chips[user.pk] == 900)

    # Game 2, both in their second game: CPP 300. The richer risks his 1,100 and the cube
    # goes to 4 (4 × 300 reaches it); the poorer risks his 900.
    (second,) = live_matches(tournament)
    bot = Bot({user.username: user for user in field})
    state = until_roll(bot, second.pk)
    assert state["swing"] == {"cpp": 300, "stake": 1100, "all_in": False}
    assert state["options"]["max_cube"] == 4
    roller = state["game"]["turn"]
    other = next(user.username for user in field if user.username != roller)
    bot.act(second.pk, roller, {"type": "double"})
    bot.act(second.pk, other, {"type": "take"})
    # A gammon on 2 at CPP 300 is 1,200: the richer pays all his 1,100, more than the
    # poorer held (the cap is the loser's chips, not the poorer player's).
    bot.act(second.pk, richer.username, {"type": "resign", "resign": "gammon"})
    bot.act(second.pk, poorer.username, {"type": "accept_resign"})

    assert_finished_paid_and_conserved(tournament, field, before)
    tournament.refresh_from_db()
    assert tournament.champion_id == poorer.pk
    game = SwingGame.objects.get(match_id=second.pk)
    assert (game.level, game.cpp, game.stake) == (1, 300, 1100)
    assert abs(game.chips_to_0) == 1100


def test_a_sit_and_go_swing_starts_when_its_seats_are_taken() -> None:
    field = players(3)
    tournament = swing(field, seats=3)
    assert tournament.state == TournamentState.RUNNING
    assert len(live_matches(tournament)) == 1


def test_an_abandoned_swing_game_is_adjudicated_and_paid_in_chips() -> None:
    field = players(2)
    tournament = swing(field, abandon_policy="engine")
    (match,) = live_matches(tournament)
    bot = Bot({user.username: user for user in field})
    for _ in range(4):
        bot.step(match.pk)
    board_left(match.pk, match.player_1)
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(grace_ends_1=past, deadline=past)
    sweep_deadlines()

    game = SwingGame.objects.get(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.winner_seat is None
    assert game.settled_at is not None
    assert game.chips_after_0 + game.chips_after_1 == 2000
    decision = match.adjudications.get().decision
    expected = round(decision["cubeful_equity"] * decision["cube_value"] * 50)
    assert game.chips_to_0 == max(-1000, min(1000, expected))
    # Both hold chips still (an equity split takes at most a game's worth): they play again.
    if game.chips_after_0 and game.chips_after_1:
        assert len(live_matches(tournament)) == 1


def until_roll(bot: Bot, match_id: int) -> dict[str, Any]:
    """Play on until a player is at the start of a turn; that state."""
    state = bot.state(match_id)
    while state["status"] == "playing" and state["game"]["phase"] != "roll":
        state = bot.step(match_id)
    return state


def test_match_swing_pays_the_match_stake_and_a_dropped_match_cube() -> None:
    field = players(2)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)
    tournament = swing(field, starting_chips=1000, cpp_levels=(100,), swing_match_length=3)
    by_name = {user.username: user for user in field}

    # Match 1: the match stake doubled, taken, redoubled and dropped: the redoubler wins 2.
    (first,) = live_matches(tournament)
    assert (first.kind, first.length, first.crawford_rule) == ("match", 3, False)
    assert (first.match_cube, first.max_match_cube) == (1, 16)
    bot = Bot(by_name)
    state = until_roll(bot, first.pk)
    doubler = state["game"]["turn"]
    taker = next(name for name in by_name if name != doubler)
    bot.act(first.pk, doubler, {"type": "match_double"})
    bot.act(first.pk, taker, {"type": "match_take"})
    bot.act(first.pk, doubler, {"type": "roll"})
    state = until_roll(bot, first.pk)
    assert state["game"]["turn"] == taker
    bot.act(first.pk, taker, {"type": "match_double"})
    bot.act(first.pk, doubler, {"type": "match_drop"})

    first.refresh_from_db()
    assert first.status == MatchStatus.FINISHED
    assert first.finish_reason == "match_dropped"
    assert first.player(first.winner_seat or 0).username == taker
    game = SwingGame.objects.get(match_id=first.pk)
    chips = dict(
        SwingSeat.objects.filter(tournament=tournament).values_list("user__username", "chips")
    )
    assert chips == {taker: 1200, doubler: 800}  # the match stake (2) × CPP 100

    # Match 2, both players in their second round: CPP 150. The richer player risks his
    # 1,200, so the match cube goes to 8 (8 × 150 reaches it), though 4 × 150 already
    # takes the poorer player's 800.
    (second,) = live_matches(tournament)
    assert second.chips_per_point == 150
    assert second.max_match_cube == 8
    assert second.chip_stake == 1200
    bot = Bot(by_name)
    for _ in range(3):
        state = until_roll(bot, second.pk)
        roller = state["game"]["turn"]
        other = next(name for name in by_name if name != roller)
        bot.act(second.pk, roller, {"type": "match_double"})
        bot.act(second.pk, other, {"type": "match_take"})
        bot.act(second.pk, roller, {"type": "roll"})
    roller = until_roll(bot, second.pk)["game"]["turn"]
    mine = bot.clients[roller].get(f"/api/matches/{second.pk}/").json()
    assert mine["match_cube"]["value"] == 8
    assert mine["match_cube"]["owner"] == mine["seat"]
    assert not mine["may_match_double"]  # at its maximum: one match takes both caps
    # The richer player loses the match: 8 × 150 = 1,200, all he holds, paid to a player
    # who held 800.
    bot.act(second.pk, taker, {"type": "resign", "resign": "backgammon"})
    bot.act(second.pk, doubler, {"type": "accept_resign"})

    assert_finished_paid_and_conserved(tournament, field, before)
    tournament.refresh_from_db()
    assert tournament.champion.username == doubler
    assert abs(SwingGame.objects.get(match_id=second.pk).chips_to_0) == 1200
    assert game.stake == 1000
