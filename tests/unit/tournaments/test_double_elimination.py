"""Double elimination: two losses to go out, shifted drops, the reset final, placings, lengths."""

import random
from collections import Counter
from collections.abc import Callable, Mapping

import pytest

from tournaments.formats.base import (
    BYE,
    Draw,
    DrawInvariantError,
    Entrant,
    Flight,
    FormatError,
    LoserOf,
    Pairing,
    PairingKey,
    Placing,
    Result,
    WinnerOf,
    play_out,
)
from tournaments.formats.double_elimination import (
    GRAND_FINAL,
    RESET,
    DoubleElimination,
    DoubleEliminationOptions,
    drop_mask,
)
from tournaments.formats.knockout import Knockout, KnockoutOptions, Seeding

FIELD_SIZES = range(4, 257)


def by_rating(count: int) -> list[Entrant]:
    """Entrants whose id is also their rating seed: entrant 1 is the highest rated."""
    return [Entrant(id_, rating=2000.0 - id_) for id_ in range(1, count + 1)]


def double_elimination(
    *,
    reset: bool = True,
    lengths: Mapping[Flight, tuple[int, ...]] | None = None,
    seeding: Seeding = Seeding.RATING,
) -> DoubleElimination:
    round_lengths = {Flight.MAIN: (5,)} if lengths is None else lengths
    return DoubleElimination(DoubleEliminationOptions(round_lengths, seeding, reset))


def players(pairing: Pairing) -> tuple[int, int]:
    assert isinstance(pairing.top, int)
    assert isinstance(pairing.bottom, int)
    return pairing.top, pairing.bottom


def favourite(pairing: Pairing) -> int:
    return min(players(pairing))


def underdog(pairing: Pairing) -> int:
    return max(players(pairing))


def coin_flips(rng: random.Random) -> Callable[[Pairing], int]:
    def choose(pairing: Pairing) -> int:
        return rng.choice(players(pairing))

    return choose


def played_out(
    count: int, choose_winner: Callable[[Pairing], int], *, reset: bool = True
) -> tuple[DoubleElimination, Draw]:
    fmt = double_elimination(reset=reset)
    return fmt, play_out(fmt, fmt.initial_draw(by_rating(count), random.Random(0)), choose_winner)


def matches(draw: Draw) -> list[Pairing]:
    """The decided pairings that were played, byes left out."""
    return [p for p in draw.pairings if p.winner is not None and not p.is_bye]


def losses(draw: Draw) -> Counter[int]:
    return Counter(loser for p in matches(draw) if isinstance(loser := p.loser, int))


def key(flight: Flight, round_: int, position: int) -> PairingKey:
    return PairingKey(flight, round_, position)


@pytest.mark.parametrize("count", FIELD_SIZES)
def test_every_field_plays_out_until_everyone_but_the_champion_has_lost_twice(count):
    fmt = double_elimination()
    for seed in range(3):
        rng = random.Random(seed)

        draw = play_out(fmt, fmt.initial_draw(by_rating(count), rng), coin_flips(rng))

        assert fmt.is_finished(draw)
        assert fmt.ready_pairings(draw) == ()
        assert all(not (p.top is BYE and p.bottom is BYE) for p in draw.pairings)
        champion = fmt.placings(draw)[0].entrant
        lost = losses(draw)
        reset_played = not draw.pairing(RESET).is_bye
        assert lost[champion] == (1 if reset_played else 0)
        assert all(lost[entrant] == 2 for entrant in range(1, count + 1) if entrant != champion)


@pytest.mark.parametrize("count", FIELD_SIZES)
def test_placings_rank_every_entrant_once_in_consecutive_places(count):
    rng = random.Random(count)
    fmt, draw = played_out(count, coin_flips(rng))

    placings = fmt.placings(draw)

    assert sorted(p.entrant for p in placings) == list(range(1, count + 1))
    assert [p.place for p in placings[:4]] == [1, 2, 3, 4]
    next_place = 1
    for place, group in _groups(placings).items():
        assert place == next_place
        assert all(p.shared_to == place + len(group) - 1 for p in group)
        next_place += len(group)
    assert next_place == count + 1


def _groups(placings: tuple[Placing, ...]) -> dict[int, list[Placing]]:
    groups: dict[int, list[Placing]] = {}
    for placing in placings:
        groups.setdefault(placing.place, []).append(placing)
    return groups


@pytest.mark.parametrize("count", FIELD_SIZES)
def test_when_favourites_win_only_the_losers_final_and_the_grand_final_are_rematches(count):
    _, draw = played_out(count, favourite)

    meetings = Counter(frozenset(players(p)) for p in matches(draw))

    # The losers' final pits the winners' final loser against a semi-finalist one of the
    # finalists beat, and the grand final the winners' finalists again: no layout avoids them.
    losers_final = draw.rounds(Flight.LOSERS)[-1][0]
    grand_final = draw.pairing(GRAND_FINAL)
    assert {pair for pair, times in meetings.items() if times > 1} == {
        frozenset(players(losers_final)),
        frozenset(players(grand_final)),
    }
    assert all(times <= 2 for times in meetings.values())


@pytest.mark.parametrize("count", range(8, 257))
def test_a_dropped_player_meets_the_one_they_beat_just_before_only_from_the_losers_semi_final(
    count: int,
) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        fmt = double_elimination()
        draw = play_out(fmt, fmt.initial_draw(by_rating(count), rng), coin_flips(rng))
        winners_rounds = draw.rounds(Flight.MAIN)
        losers_semi_final = len(draw.rounds(Flight.LOSERS)) - 2

        beaten_just_before: dict[int, int] = {}
        for round_ in range(1, len(winners_rounds)):
            for pairing in winners_rounds[round_]:
                dropped = pairing.loser
                assert isinstance(dropped, int)
                earlier = next(p for p in winners_rounds[round_ - 1] if p.winner == dropped)
                if isinstance(earlier.loser, int):
                    beaten_just_before[dropped] = earlier.loser

        for round_, pairings in enumerate(draw.rounds(Flight.LOSERS)[:losers_semi_final]):
            for pairing in pairings:
                if pairing.is_bye:
                    continue
                top, bottom = players(pairing)
                assert beaten_just_before.get(top) != bottom, (seed, round_, top, bottom)
                assert beaten_just_before.get(bottom) != top, (seed, round_, top, bottom)


@pytest.mark.parametrize("count", [32, 64, 128, 256])
def test_with_coin_flip_results_the_losers_flight_averages_under_one_rematch(count: int) -> None:
    fmt = double_elimination()
    rematches = 0
    for seed in range(100):
        rng = random.Random(seed)
        draw = play_out(fmt, fmt.initial_draw(by_rating(count), rng), coin_flips(rng))
        met: set[frozenset[int]] = set()
        for pairing in matches(draw):
            pair = frozenset(players(pairing))
            if pair in met and pairing.key.flight is Flight.LOSERS:
                rematches += 1
            met.add(pair)

    # The losers' final alone is a rematch about a third of the time. Reversing the drop-ins
    # in alternate rounds instead would average 1.2 rematches at 32 players and 6.8 at 256.
    assert rematches / 100 < 1


@pytest.mark.parametrize(
    ("drop_round", "digits", "mask"),
    [
        (1, 2, 0b10),  # halves swap
        (2, 2, 0b01),  # quarters swap inside each half
        (3, 2, 0b11),  # both
        (4, 2, 0b00),  # eighths swap, but two digits have no eighths
        (1, 3, 0b100),
        (4, 3, 0b001),
        (6, 3, 0b011),
        (1, 0, 0),  # the losers' final has one position
    ],
)
def test_drop_masks_read_the_drop_round_in_binary_backwards(drop_round, digits, mask):
    assert drop_mask(drop_round, digits) == mask


def test_sixteen_players_drop_into_the_losers_flight_shifted_by_halves():
    draw = double_elimination().initial_draw(by_rating(16), random.Random(0))

    def dropped_from(round_: int) -> list[int]:
        """The winners' pairings whose losers drop into losers' round ``round_``, by position."""
        positions = []
        for pairing in draw.rounds(Flight.LOSERS)[round_]:
            side = draw.source(pairing.key, "bottom")
            assert isinstance(side, LoserOf)
            assert side.key.flight is Flight.MAIN
            positions.append(side.key.position)
        return positions

    first_round_pairs = [
        (draw.source(p.key, "top"), draw.source(p.key, "bottom"))
        for p in draw.rounds(Flight.LOSERS)[0]
    ]
    assert first_round_pairs == [
        (LoserOf(key(Flight.MAIN, 0, 2 * q)), LoserOf(key(Flight.MAIN, 0, 2 * q + 1)))
        for q in range(4)
    ]
    assert dropped_from(1) == [2, 3, 0, 1]
    assert dropped_from(3) == [0, 1]
    assert dropped_from(5) == [0]
    assert [len(round_) for round_ in draw.rounds(Flight.LOSERS)] == [4, 4, 2, 2, 1, 1]


def test_each_side_tells_where_its_player_comes_from_even_once_filled():
    fmt = double_elimination()
    draw = play_out(fmt, fmt.initial_draw(by_rating(8), random.Random(0)), favourite)

    drop = key(Flight.LOSERS, 1, 0)
    assert draw.source(drop, "top") == WinnerOf(key(Flight.LOSERS, 0, 0))
    assert draw.source(drop, "bottom") == LoserOf(key(Flight.MAIN, 1, 1))
    assert draw.source(GRAND_FINAL, "top") == WinnerOf(key(Flight.MAIN, 2, 0))
    assert draw.source(GRAND_FINAL, "bottom") == WinnerOf(key(Flight.LOSERS, 3, 0))
    # Seeds 1 v 8, 4 v 5 | 3 v 6, 2 v 7: 5 beat 8 in losers' round 0; 3 lost to 2 in the
    # winners' semi-final and drops into the half of the losers' flight away from 6, whom 3
    # beat in round 0.
    assert players(draw.pairing(drop)) == (5, 3)


def test_the_winners_flight_is_the_knockout_bracket_of_the_same_field():
    for count in (5, 12, 16, 27):
        entrants = by_rating(count)
        knockout = Knockout(KnockoutOptions((5,), Seeding.RANDOM)).initial_draw(
            entrants, random.Random(count)
        )
        double = double_elimination(seeding=Seeding.RANDOM).initial_draw(
            entrants, random.Random(count)
        )

        assert double.rounds(Flight.MAIN) == knockout.rounds(Flight.MAIN)


def test_a_losers_pairing_only_byes_could_fill_is_left_out_and_its_place_is_a_bye():
    # 9 players in a bracket of 16: seeds 1 to 7 have byes, only 8 v 9 is played.
    draw = double_elimination().initial_draw(by_rating(9), random.Random(0))

    losers_round_0, losers_round_1 = draw.rounds(Flight.LOSERS)[:2]

    assert [p.key for p in losers_round_0] == [key(Flight.LOSERS, 0, 0)]
    assert losers_round_0[0].top is BYE
    assert draw.source(losers_round_0[0].key, "top") == LoserOf(key(Flight.MAIN, 0, 0))
    assert [p.top for p in losers_round_1] == [
        WinnerOf(key(Flight.LOSERS, 0, 0)),
        BYE,
        BYE,
        BYE,
    ]


def test_the_loser_of_a_first_round_match_next_to_a_bye_goes_through_losers_round_0():
    fmt = double_elimination()
    draw = fmt.initial_draw(by_rating(9), random.Random(0))

    draw = fmt.advance(draw, [Result(key(Flight.MAIN, 0, 1), 8)])

    round_0 = draw.pairing(key(Flight.LOSERS, 0, 0))
    assert (round_0.top, round_0.bottom, round_0.winner) == (BYE, 9, 9)
    assert draw.pairing(key(Flight.LOSERS, 1, 0)).top == 9
    assert all(p.key.flight is Flight.MAIN for p in fmt.ready_pairings(draw))


def test_the_reset_is_called_off_when_the_unbeaten_finalist_wins_the_grand_final():
    fmt, draw = played_out(8, favourite)

    reset = draw.pairing(RESET)
    assert (reset.top, reset.bottom, reset.winner) == (1, BYE, 1)
    assert fmt.is_finished(draw)
    assert losses(draw)[1] == 0
    assert losses(draw)[2] == 2


def test_the_reset_is_played_when_the_losers_flight_champion_wins_the_grand_final():
    fmt = double_elimination()
    draw = fmt.initial_draw(by_rating(8), random.Random(0))
    while not draw.pairing(GRAND_FINAL).is_ready:
        draw = fmt.advance(draw, [Result(p.key, favourite(p)) for p in fmt.ready_pairings(draw)])
    assert players(draw.pairing(GRAND_FINAL)) == (1, 2)

    draw = fmt.advance(draw, [Result(GRAND_FINAL, 2)])

    assert not fmt.is_finished(draw)
    assert fmt.ready_pairings(draw) == (draw.pairing(RESET),)
    assert players(draw.pairing(RESET)) == (2, 1)
    assert fmt.placings(draw)[:2] == (Placing(1, 1, 2), Placing(2, 1, 2))

    draw = fmt.advance(draw, [Result(RESET, 1)])

    assert fmt.is_finished(draw)
    assert fmt.placings(draw)[:2] == (Placing(1, 1, 1), Placing(2, 2, 2))
    assert losses(draw)[1] == 1
    assert losses(draw)[2] == 2


def test_without_the_reset_the_grand_final_decides_alone():
    fmt, draw = played_out(
        8, lambda p: underdog(p) if p.key == GRAND_FINAL else favourite(p), reset=False
    )

    assert draw.rounds(Flight.FINAL) == ((draw.pairing(GRAND_FINAL),),)
    assert fmt.placings(draw)[:2] == (Placing(2, 1, 1), Placing(1, 2, 2))
    assert losses(draw)[1] == 1


def test_a_result_for_a_called_off_reset_is_refused():
    fmt, draw = played_out(8, favourite)

    with pytest.raises(DrawInvariantError, match="was won by 1"):
        fmt.advance(draw, [Result(RESET, 2)])


def test_sixteen_favourites_finish_in_seed_order_with_losers_rounds_sharing_places():
    fmt, draw = played_out(16, favourite)

    places = {p.entrant: (p.place, p.shared_to) for p in fmt.placings(draw)}

    assert [places[seed] for seed in (1, 2, 3, 4)] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert {places[seed] for seed in (5, 6)} == {(5, 6)}
    assert {places[seed] for seed in (7, 8)} == {(7, 8)}
    assert {places[seed] for seed in range(9, 13)} == {(9, 12)}
    assert {places[seed] for seed in range(13, 17)} == {(13, 16)}


def test_byes_are_not_losses_and_shrink_the_shared_places():
    # 6 players in a bracket of 8: seeds 1 and 2 have byes, 4 v 5 and 3 v 6 are played.
    fmt, draw = played_out(6, favourite)

    assert [(p.entrant, p.place, p.shared_to) for p in fmt.placings(draw)] == [
        (1, 1, 1),
        (2, 2, 2),
        (3, 3, 3),
        (4, 4, 4),
        (5, 5, 6),
        (6, 5, 6),
    ]


def test_an_unfinished_draw_lists_the_players_still_in_as_sharing_the_top_places():
    fmt = double_elimination()
    draw = fmt.initial_draw(by_rating(4), random.Random(0))

    draw = fmt.advance(draw, [Result(key(Flight.MAIN, 0, 0), 1), Result(key(Flight.MAIN, 0, 1), 2)])
    draw = fmt.advance(draw, [Result(key(Flight.LOSERS, 0, 0), 3)])

    assert not fmt.is_finished(draw)
    assert fmt.placings(draw) == (
        Placing(1, 1, 3),
        Placing(2, 1, 3),
        Placing(3, 1, 3),
        Placing(4, 4, 4),
    )


@pytest.mark.parametrize(
    ("lengths", "reset", "winners", "losers", "final"),
    [
        (
            {Flight.MAIN: (5, 5, 7, 9), Flight.LOSERS: (3, 5, 7), Flight.FINAL: (11, 13)},
            True,
            (5, 5, 7, 9),
            (3, 3, 3, 3, 5, 7),
            (11, 13),
        ),
        ({Flight.MAIN: (5, 5, 7, 9)}, True, (5, 5, 7, 9), (5, 5, 5, 5, 7, 9), (9, 9)),
        (
            {Flight.MAIN: (7, 9), Flight.FINAL: (11, 13)},
            False,
            (7, 7, 7, 9),
            (7, 7, 7, 7, 7, 9),
            (13,),
        ),
    ],
)
def test_each_flight_plays_its_own_match_lengths_read_from_its_last_round(
    lengths, reset, winners, losers, final
):
    draw = double_elimination(lengths=lengths, reset=reset).initial_draw(
        by_rating(16), random.Random(0)
    )

    def per_round(flight: Flight) -> tuple[int, ...]:
        rounds = draw.rounds(flight)
        assert all(len({p.match_length for p in round_}) == 1 for round_ in rounds)
        return tuple(round_[0].match_length for round_ in rounds)

    assert per_round(Flight.MAIN) == winners
    assert per_round(Flight.LOSERS) == losers
    assert per_round(Flight.FINAL) == final


@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_a_double_elimination_needs_four_entrants(count):
    with pytest.raises(FormatError, match="needs at least 4 entrants; it has"):
        double_elimination().initial_draw(by_rating(count), random.Random(0))


@pytest.mark.parametrize(
    ("lengths", "message"),
    [
        ({Flight.LOSERS: (5,)}, "Give the match lengths of the winners' flight"),
        ({Flight.MAIN: ()}, "Give at least one match length for the winners' flight"),
        ({Flight.MAIN: (5,), Flight.FINAL: ()}, "at least one match length for the grand final"),
        ({Flight.MAIN: (5,), Flight.LOSERS: (3, 0)}, "at least 1 point long, not 0"),
        ({Flight.MAIN: (5,), Flight.CONSOLATION: (3,)}, "not a consolation flight"),
    ],
)
def test_match_lengths_must_cover_the_winners_flight_and_be_positive(lengths, message):
    with pytest.raises(FormatError, match=message):
        double_elimination(lengths=lengths)


def test_an_entrant_registered_twice_is_a_caller_bug():
    entrants = [Entrant(1, 1500.0), Entrant(1, 1600.0), Entrant(2, 1500.0), Entrant(3, 1500.0)]

    with pytest.raises(DrawInvariantError):
        double_elimination().initial_draw(entrants, random.Random(0))
