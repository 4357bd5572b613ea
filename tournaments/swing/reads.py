"""What a swing tournament's page and API show: the CPP level and the next one, the chip
leaderboard, the chips over time, the games being played and the knockouts.

Reads only; the writes are ``tournaments.swing``'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.formats.swing import CppRaise, CppSchedule
from tournaments.models import (
    Entry,
    EntryStatus,
    SwingGame,
    SwingSeat,
    Tournament,
    TournamentFormat,
    TournamentState,
)

NEXT_LEVEL_WORDS = {
    CppRaise.GAME: gettext_lazy("with each player's next game"),
    CppRaise.KNOCKOUT: gettext_lazy("at the next knockout"),
    CppRaise.MINUTES: gettext_lazy("on the clock"),
}


def schedule(tournament: Tournament) -> CppSchedule:
    """The tournament's CPP schedule."""
    return CppSchedule(
        tuple(tournament.cpp_levels),
        tournament.cpp_step,
        CppRaise(tournament.cpp_raise or CppRaise.GAME),
        tournament.cpp_raise_minutes,
    )


def current_level(tournament: Tournament, now: datetime) -> int:
    """The field's CPP level (from 0) at ``now``: counted from the players out so far or
    from the clock, as the schedule rises. When it rises with every game, each game has the
    level of its players' round (``CppSchedule.game_level``) and the field's level is the
    highest round reached: the most games a player still holding chips has played."""
    plan = schedule(tournament)
    games = knockouts = 0
    if plan.raise_on is CppRaise.GAME:
        games = (
            SwingSeat.objects.filter(tournament=tournament, out_at__isnull=True).aggregate(
                most=Max("games")
            )["most"]
            or 0
        )
    elif plan.raise_on is CppRaise.KNOCKOUT:
        knockouts = SwingSeat.objects.filter(tournament=tournament, out_at__isnull=False).count()
    started = tournament.started_at or now
    return plan.level(games=games, knockouts=knockouts, elapsed=now - started)


@dataclass(frozen=True)
class SwingLevel:
    level: int  # from 1, as players count
    cpp: int
    next_cpp: int | None
    next_at: datetime | None
    next_when: str

    def as_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "cpp": self.cpp,
            "next_cpp": self.next_cpp,
            "next_at": self.next_at,
            "next_when": self.next_when,
        }


def swing_level(tournament: Tournament, now: datetime | None = None) -> SwingLevel:
    """The CPP now and the next level: how much, and when (a time only on a clock)."""
    moment = now or timezone.now()
    plan = schedule(tournament)
    level = current_level(tournament, moment)
    rises = plan.rises_after(level) and tournament.state != TournamentState.FINISHED
    raise_on = CppRaise(tournament.cpp_raise or CppRaise.GAME)
    started = tournament.started_at
    return SwingLevel(
        level=level + 1,
        cpp=plan.cpp(level),
        next_cpp=plan.cpp(level + 1) if rises else None,
        next_at=plan.next_rise(level, started) if rises and started else None,
        next_when=str(NEXT_LEVEL_WORDS[raise_on] if rises else _("the CPP rises no more")),
    )


def swing_settings(tournament: Tournament) -> dict[str, Any] | None:
    """The swing's settings and its level now, for the API (None for other formats)."""
    if tournament.format != TournamentFormat.SWING:
        return None
    return {
        "starting_chips": tournament.starting_chips,
        "cpp_levels": tournament.cpp_levels,
        "cpp_step": tournament.cpp_step,
        "cpp_raise": tournament.cpp_raise,
        "cpp_raise_minutes": tournament.cpp_raise_minutes,
        "jacoby": tournament.jacoby,
        "beavers": tournament.beavers,
        "swing_match_length": tournament.swing_match_length,
        **swing_level(tournament).as_json(),
    }


def swing_standings(tournament: Tournament) -> list[dict[str, Any]]:
    """The chip leaderboard: players holding chips, most first, then those out by place."""
    seats = list(SwingSeat.objects.filter(tournament=tournament).select_related("user__profile"))
    places = dict(
        Entry.objects.filter(
            tournament=tournament, status=EntryStatus.REGISTERED, place__isnull=False
        ).values_list("user_id", "place")
    )
    seats.sort(key=lambda s: (s.out_at is not None, places.get(s.user_id, 0), -s.chips, s.pk))
    return [
        {
            "username": seat.user.username,
            "display_name": seat.user.profile.display_name,
            "chips": seat.chips,
            "place": places.get(seat.user_id),
            "games": seat.games,
            "won": seat.won,
            "lost": seat.lost,
            "current_match_id": seat.current_match_id,
            "waiting_since": seat.free_since if seat.out_at is None else None,
        }
        for seat in seats
    ]


def chip_history(tournament: Tournament) -> dict[str, Any]:
    """Each player's chips after every game they played, from the start: for the chart."""
    start = tournament.started_at
    names = dict(
        SwingSeat.objects.filter(tournament=tournament).values_list("user_id", "user__username")
    )
    series: dict[int, list[list[Any]]] = {
        user_id: [[start, tournament.starting_chips]] for user_id in names
    }
    settled = SwingGame.objects.filter(tournament=tournament, settled_at__isnull=False).order_by(
        "settled_at", "pk"
    )
    for game in settled.values_list(
        "settled_at", "player_0_id", "chips_after_0", "player_1_id", "chips_after_1"
    ):
        at, first, first_chips, second, second_chips = game
        series[first].append([at, first_chips])
        series[second].append([at, second_chips])
    return {
        "start": start,
        "total": (tournament.starting_chips or 0) * len(names),
        "players": [
            {"username": names[user_id], "points": points} for user_id, points in series.items()
        ],
    }


def games_in_play(tournament: Tournament) -> list[dict[str, Any]]:
    """The games being played, newest first, with their terms."""
    games = (
        SwingGame.objects.filter(tournament=tournament, settled_at__isnull=True)
        .select_related("player_0__profile", "player_1__profile")
        .order_by("-started_at", "-pk")
    )
    return [
        {
            "match_id": game.match_id,
            "players": [game.player_0.profile.display_name, game.player_1.profile.display_name],
            "cpp": game.cpp,
            "stake": game.stake,
            "all_in": game.all_in,
            "started_at": game.started_at,
        }
        for game in games
    ]


def knockouts(tournament: Tournament) -> list[dict[str, Any]]:
    """The players out, the latest first, with their place."""
    places = dict(
        Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED).values_list(
            "user_id", "place"
        )
    )
    out = (
        SwingSeat.objects.filter(tournament=tournament, out_at__isnull=False)
        .select_related("user__profile")
        .order_by("-out_at", "-pk")
    )
    return [
        {
            "display_name": seat.user.profile.display_name,
            "place": places.get(seat.user_id),
            "out_at": seat.out_at,
            "games": seat.games,
        }
        for seat in out
    ]


# ---------------------------------------------------------------- the chips chart

CHART_WIDTH, CHART_HEIGHT = 600, 180
CHART_LINES = 8
CHART_COLOURS = (
    "#2563eb",
    "#dc2626",
    "#16a34a",
    "#d97706",
    "#7c3aed",
    "#0891b2",
    "#db2777",
    "#4b5563",
)


@dataclass(frozen=True)
class ChartLine:
    display_name: str
    colour: str
    points: str  # an SVG polyline's points: steps, as chips change only when a game ends
    chips: int


def chip_chart(tournament: Tournament, now: datetime | None = None) -> list[ChartLine]:
    """The chips over time of the players holding most (up to ``CHART_LINES``), as SVG
    step lines on a ``CHART_WIDTH`` × ``CHART_HEIGHT`` box: time across, chips up, the
    top being every chip in play."""
    history = chip_history(tournament)
    start: datetime = history["start"]
    total: int = history["total"]
    if start is None or not total:
        return []
    end = (
        tournament.finished_at
        if tournament.state == TournamentState.FINISHED and tournament.finished_at
        else (now or timezone.now())
    )
    span = max((end - start).total_seconds(), 1.0)
    names = dict(
        SwingSeat.objects.filter(tournament=tournament).values_list(
            "user__username", "user__profile__display_name"
        )
    )

    def x(at: datetime) -> float:
        return round(CHART_WIDTH * min(max((at - start).total_seconds() / span, 0.0), 1.0), 1)

    def y(chips: int) -> float:
        return round(CHART_HEIGHT * (1 - chips / total), 1)

    players = sorted(history["players"], key=lambda p: (-p["points"][-1][1], p["username"]))
    lines = []
    for index, player in enumerate(players[:CHART_LINES]):
        steps: list[str] = []
        previous: int | None = None
        for at, chips in player["points"]:
            if previous is not None:
                steps.append(f"{x(at)},{y(previous)}")
            steps.append(f"{x(at)},{y(chips)}")
            previous = chips
        assert previous is not None
        if previous:  # a player still holding chips: the line runs on to now
            steps.append(f"{CHART_WIDTH},{y(previous)}")
        lines.append(
            ChartLine(
                names.get(player["username"], player["username"]),
                CHART_COLOURS[index % len(CHART_COLOURS)],
                " ".join(steps),
                previous,
            )
        )
    return lines
