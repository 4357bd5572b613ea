"""The bracket as players and organizers read it: every flight's rounds with their slots,
each slot's players or bye, match, score and winner, and where a pending side's player comes
from (the winner or the loser of another slot). Three queries whatever the size.

How the page draws it, each flight's rounds as columns of cells with the lines between
them and every side's source in words, is ``tournaments.bracket.layout``'s."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy

from matches.models import FinishReason, Match, MatchStatus
from matches.selectors import LIVE_WITHIN
from tournaments.draw_rows import source_side
from tournaments.formats.base import Flight, LoserOf, PairingKey, WinnerOf
from tournaments.models import Entry, Pairing, Tournament, TournamentState
from tournaments.reads.rounds import plays_tiebreaks, round_name


@dataclass(frozen=True)
class BracketSide:
    user_id: int | None
    username: str
    name: str
    bye: bool
    won: bool
    lost: bool
    seed: int | None = None

    @property
    def pending(self) -> bool:
        return self.user_id is None and not self.bye


@dataclass(frozen=True)
class BracketSlot:
    round: int
    position: int
    top: BracketSide
    bottom: BracketSide
    match_id: int | None
    match_length: int
    status: str
    score: tuple[int, int] | None
    late: bool
    flight: str = Flight.MAIN.value
    top_from: WinnerOf | LoserOf | None = None  # where a pending side's player comes from
    bottom_from: WinnerOf | LoserOf | None = None

    @property
    def key(self) -> PairingKey:
        return PairingKey(Flight(self.flight), self.round, self.position)

    @property
    def status_words(self) -> str:
        """The status as the page shows it, in the active language."""
        return status_words(self.status)


@dataclass(frozen=True)
class BracketRound:
    number: int
    name: str
    match_length: int
    slots: list[BracketSlot]
    flight: str = Flight.MAIN.value


# How a slot reads: waiting (its players come from earlier rounds), a bye, waiting for
# players (its match started, but they have not both come to the board), live, in play,
# suspended, adjudicated, forfeit, finished, or not played (the tournament ended first, as
# a satellite does once no match left can change who wins a ticket).
SLOT_STATUS = {
    MatchStatus.SUSPENDED: "suspended",
    MatchStatus.FINISHED: "finished",
}


# Each status as the page says it; the status itself is a code the scripts and styles read.
STATUS_WORDS = {
    "waiting": gettext_lazy("waiting"),
    "bye": gettext_lazy("bye"),
    "waiting for players": gettext_lazy("waiting for players"),
    "live": gettext_lazy("live"),
    "in play": gettext_lazy("in play"),
    "suspended": gettext_lazy("suspended"),
    "adjudicated": gettext_lazy("adjudicated"),
    "forfeit": gettext_lazy("forfeit"),
    "finished": gettext_lazy("finished"),
    "not played": gettext_lazy("not played"),
}


def status_words(status: str) -> str:
    return str(STATUS_WORDS.get(status, status))


@dataclass(frozen=True)
class _SlotMatch:
    """The columns of a slot's match that the bracket shows."""

    status: str
    score: tuple[int, int]
    finish_reason: str
    both_came: bool
    turn_started_at: datetime | None

    def slot_status(self, *, live_since: datetime) -> str:
        if self.finish_reason == FinishReason.ADJUDICATED:
            return "adjudicated"
        if self.finish_reason == FinishReason.FORFEIT:
            return "forfeit"
        if self.status != MatchStatus.PLAYING:
            return SLOT_STATUS.get(MatchStatus(self.status), "waiting")
        if not self.both_came:
            return "waiting for players"
        # Live as on the home page; a turn started longer ago than that (a correspondence
        # match) is in play.
        if self.turn_started_at is not None and self.turn_started_at >= live_since:
            return "live"
        return "in play"


def bracket(tournament: Tournament) -> list[BracketRound]:
    """Every round with its slots; three queries whatever the size."""
    rows = (
        Pairing.objects.filter(tournament=tournament)
        .order_by("round", "position")
        .values_list(
            "flight",
            "top_source",
            "bottom_source",
            "round",
            "position",
            "top_id",
            "top__username",
            "top__profile__display_name",
            "top_bye",
            "bottom_id",
            "bottom__username",
            "bottom__profile__display_name",
            "bottom_bye",
            "match_id",
            "match_length",
            "winner_id",
            "late",
        )
    )
    matches = {
        pk: _SlotMatch(status, (score_0, score_1), reason, seen_0 and seen_1, turn_started_at)
        for pk, status, score_0, score_1, reason, seen_0, seen_1, turn_started_at in (
            Match.objects.filter(tournament_id=tournament.pk).values_list(
                "pk",
                "status",
                "score_0",
                "score_1",
                "finish_reason",
                "seen_0",
                "seen_1",
                "turn_started_at",
            )
        )
    }
    live_since = timezone.now() - LIVE_WITHIN
    seeds = dict(
        Entry.objects.filter(tournament=tournament, drawn_seed__isnull=False).values_list(
            "user_id", "drawn_seed"
        )
    )
    finished = tournament.state in (TournamentState.FINISHED, TournamentState.CANCELLED)
    rounds: dict[tuple[str, int], BracketRound] = {}
    for row in rows:
        flight, top_from, bottom_from = row[:3]
        (round_, position, top_id, top_user, top_name, top_bye) = row[3:9]
        (bottom_id, bottom_user, bottom_name, bottom_bye) = row[9:13]
        match_id, length, winner_id, late = row[13:]
        decided = winner_id is not None
        top = BracketSide(
            top_id,
            top_user or "",
            top_name or "",
            top_bye,
            decided and winner_id == top_id,
            decided and top_id is not None and winner_id != top_id,
            seeds.get(top_id),
        )
        bottom = BracketSide(
            bottom_id,
            bottom_user or "",
            bottom_name or "",
            bottom_bye,
            decided and winner_id == bottom_id,
            decided and bottom_id is not None and winner_id != bottom_id,
            seeds.get(bottom_id),
        )
        match = matches.get(match_id) if match_id is not None else None
        score = match.score if match is not None else None
        if top_bye or bottom_bye:
            status = "bye"
        elif match is not None:
            status = match.slot_status(live_since=live_since)
        elif finished and not decided:
            status = "not played"
        else:
            status = "waiting"
        if (flight, round_) not in rounds:
            rounds[flight, round_] = BracketRound(round_, "", length, [], flight)
        rounds[flight, round_].slots.append(
            BracketSlot(
                round_,
                position,
                top,
                bottom,
                match_id,
                length,
                status,
                score,
                late,
                flight,
                source_side(top_from) if top_from else None,
                source_side(bottom_from) if bottom_from else None,
            )
        )
    ordered = sorted(rounds.values(), key=lambda r: (FLIGHT_ORDER.index(r.flight), r.number))
    totals = {r.flight: r.number + 1 for r in ordered}
    return [
        BracketRound(
            r.number,
            round_name(
                tournament.format,
                r.flight,
                r.number,
                totals[r.flight],
                tiebreaks=plays_tiebreaks(tournament),
            ),
            r.match_length,
            r.slots,
            r.flight,
        )
        for r in ordered
    ]


FLIGHT_ORDER = [flight.value for flight in Flight]


def bracket_data(rounds: list[BracketRound]) -> list[dict[str, Any]]:
    """The bracket as plain data for the API."""

    def side(s: BracketSide) -> dict[str, Any] | None:
        if s.user_id is None:
            return None
        return {"username": s.username, "display_name": s.name, "seed": s.seed}

    def source(side: WinnerOf | LoserOf | None) -> dict[str, Any] | None:
        if side is None:
            return None
        key = side.key
        slot = {"flight": key.flight.value, "round": key.round, "position": key.position}
        return {"winner_of" if isinstance(side, WinnerOf) else "loser_of": slot}

    return [
        {
            "flight": r.flight,
            "round": r.number,
            "name": r.name,
            "match_length": r.match_length,
            "slots": [
                {
                    "position": slot.position,
                    "top": side(slot.top),
                    "bottom": side(slot.bottom),
                    "top_bye": slot.top.bye,
                    "bottom_bye": slot.bottom.bye,
                    "match_id": slot.match_id,
                    "status": slot.status,
                    "score": list(slot.score) if slot.score is not None else None,
                    "winner": (
                        slot.top.username
                        if slot.top.won
                        else slot.bottom.username
                        if slot.bottom.won
                        else None
                    ),
                    "late": slot.late,
                    "top_from": source(slot.top_from),
                    "bottom_from": source(slot.bottom_from),
                }
                for slot in r.slots
            ],
        }
        for r in rounds
    ]
