"""Every way a match ends, told to both its players in a notice that says how.

A match *finishes* with a result (``MatchFinished``): played out, resigned, on time, by
forfeit, adjudicated by the engine, a money session that could not go on, a match cube
dropped. It *stops* without one (``MatchStopped``): aborted (nobody started it in time),
voided by staff, or cancelled by a bracket correction; what was staked went back.

Each player reads it from their side ("You won your 5-point match against Bruno 5–3: his
time ran out."), under a key naming the match and how it ended, so a second delivery
tells nobody twice; the computer's seat is not told.
"""

from __future__ import annotations

from accounts.models import User
from lobby import selectors
from lobby.models import NoticeKind
from lobby.notifications import Notice, notify_many
from lobby.subscribers import after_the_fact, board, name, offer
from matches.events import MatchFinished, MatchStopped
from matches.models import FinishReason, Match

# Why a match with a result ended, from the winner's side and the loser's: {other} is the
# opponent's name.
_WHY: dict[str, tuple[str, str]] = {
    FinishReason.RESIGNED: ("{other} resigned", "you resigned"),
    FinishReason.TIMEOUT: ("{other}'s time ran out", "your time ran out"),
    # A forfeit is a tournament's no-show or a reconnection grace run out: either way,
    # someone was not at the board in time.
    FinishReason.FORFEIT: (
        "{other} forfeited, not at the board in time",
        "you forfeited, not at the board in time",
    ),
    # Either player may have been the one away: the engine's verdict is told alike.
    FinishReason.ADJUDICATED: ("adjudicated by the engine", "adjudicated by the engine"),
    FinishReason.MATCH_CUBE_DROPPED: (
        "{other} dropped the match cube",
        "you dropped the match cube",
    ),
}

_STOPPED = {
    "voided": "was voided by staff",
    "cancelled": "was cancelled: the tournament's draw was corrected before it began",
}


@after_the_fact
def on_match_finished(event: MatchFinished) -> None:
    match = selectors.match_with_players(match_id=event.match_id)
    if match is None:
        return
    reason = match.finish_reason or FinishReason.PLAYED
    notify_many(
        [
            Notice(
                user_id=match.player_id(seat),
                kind=NoticeKind.MATCH_OVER,
                key=f"match:{match.pk}:over",
                text=finished_text(match, seat),
                url=board(match.pk),
                data={
                    "match_id": match.pk,
                    "how": reason,
                    "won": None if match.winner_seat is None else match.winner_seat == seat,
                },
            )
            for seat in told_seats(match)
        ]
    )


@after_the_fact
def on_match_stopped(event: MatchStopped) -> None:
    match = selectors.match_with_players(match_id=event.match_id)
    if match is None:
        return
    if event.how == "voided" and match.engine_strength:
        return  # the computer failed its seat: PracticeVoided's notice says why
    notify_many(
        [
            Notice(
                user_id=match.player_id(seat),
                kind=NoticeKind.MATCH_OVER,
                key=f"match:{match.pk}:{event.how}",
                text=stopped_text(match, seat, event),
                url=board(match.pk),
                data={"match_id": match.pk, "how": event.how, "won": None},
            )
            for seat in told_seats(match)
        ]
    )


def told_seats(match: Match) -> list[int]:
    """The seats of people: both, but not the computer's (practice, a demo player), and
    one for a pass-and-play match's one player."""
    return [0] if match.engine_strength or match.pass_and_play else [0, 1]


def finished_text(match: Match, seat: int) -> str:
    other = _opponent(match, seat)
    what = f"your {offer(match)} against {other}"
    reason = match.finish_reason or FinishReason.PLAYED
    if match.is_money:
        return _session_text(match, seat, what, reason, other)
    mine, theirs = _score(match, seat)
    won = match.winner_seat == seat
    result = f"You {'won' if won else 'lost'} {what} {mine}–{theirs}"
    if reason in _WHY:
        why = _WHY[reason][0 if won else 1].format(other=other)
        return f"{result}: {why}."
    return f"{result}."


def _session_text(match: Match, seat: int, what: str, reason: str, other: str) -> str:
    mine, theirs = _score(match, seat)
    points = f"{mine}–{theirs} in points"
    if reason == FinishReason.SESSION_ENDED:
        return (
            f"{what[0].upper()}{what[1:]} is over, {points}: one of you could not cover "
            "the next game. Your wallet shows each game's settlement."
        )
    if reason == FinishReason.ADJUDICATED:
        return (
            f"{what[0].upper()}{what[1:]} was adjudicated by the engine and is over, {points}. "
            "Your wallet shows what the engine's split paid."
        )
    if match.winner_seat is not None and reason in _WHY:
        won = match.winner_seat == seat
        why = _WHY[reason][0 if won else 1].format(other=other)
        return f"{what[0].upper()}{what[1:]} is over, {points}: {why}."
    return f"{what[0].upper()}{what[1:]} is over, {points}."


def stopped_text(match: Match, seat: int, event: MatchStopped) -> str:
    what = f"Your {offer(match)} against {_opponent(match, seat)}"
    back = " Your stake is back in your wallet." if match.stake_cents else ""
    if event.how == "aborted":
        return f"{what} was aborted: {_absence(seat, event.absent)}.{back}"
    return f"{what} {_STOPPED.get(event.how, 'was stopped')}.{back}"


def _absence(seat: int, absent: tuple[int, ...]) -> str:
    if not absent:
        return "no move was made before the show-up time ran out"
    if len(absent) == 2:
        return "neither of you came to the board in time"
    return (
        "you did not come to the board in time"
        if seat in absent
        else "your opponent did not come to the board in time"
    )


def _opponent(match: Match, seat: int) -> str:
    opponent: User = match.player(1 - seat)
    return name(opponent)


def _score(match: Match, seat: int) -> tuple[int, int]:
    return (match.score_0, match.score_1) if seat == 0 else (match.score_1, match.score_0)
