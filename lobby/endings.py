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

from functools import partial

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.models import User
from lobby import selectors
from lobby.models import NoticeKind
from lobby.notifications import Notice, notify_many
from lobby.subscribers import after_the_fact, board, name, terms
from lobby.wording import your_offer
from matches.events import MatchFinished, MatchStopped
from matches.forfeits import forfeited_barred
from matches.models import FinishReason, Match

# Why a match with a result ended, from the winner's side and the loser's: %(name)s is the
# opponent's name.
_WHY = {
    FinishReason.RESIGNED: (gettext_lazy("%(name)s resigned"), gettext_lazy("you resigned")),
    FinishReason.TIMEOUT: (
        gettext_lazy("%(name)s's time ran out"),
        gettext_lazy("your time ran out"),
    ),
    # A forfeit is a tournament's no-show or a reconnection grace run out: either way,
    # someone was not at the board in time.
    FinishReason.FORFEIT: (
        gettext_lazy("%(name)s forfeited, not at the board in time"),
        gettext_lazy("you forfeited, not at the board in time"),
    ),
    # Either player may have been the one away: the engine's verdict is told alike.
    FinishReason.ADJUDICATED: (
        gettext_lazy("adjudicated by the engine"),
        gettext_lazy("adjudicated by the engine"),
    ),
    FinishReason.MATCH_CUBE_DROPPED: (
        gettext_lazy("%(name)s dropped the match cube"),
        gettext_lazy("you dropped the match cube"),
    ),
}


# A tournament match forfeited because its player's account was suspended or closed
# (``matches.forfeits``): nobody was late to the board.
_BARRED = (
    gettext_lazy("%(name)s forfeited: their account is suspended or closed"),
    gettext_lazy("you forfeited: your account is suspended or closed"),
)


# How a match stopped without a result, told of a match and of a money session: languages
# agree the verb with the noun (Italian "il match", "la sessione"), so each has its context.
_STOPPED = {
    "aborted": (
        pgettext_lazy("match", "%(offer)s against %(name)s was aborted: %(why)s."),
        pgettext_lazy("money session", "%(offer)s against %(name)s was aborted: %(why)s."),
    ),
    "voided": (
        pgettext_lazy("match", "%(offer)s against %(name)s was voided by staff."),
        pgettext_lazy("money session", "%(offer)s against %(name)s was voided by staff."),
    ),
    "cancelled": (
        pgettext_lazy(
            "match",
            "%(offer)s against %(name)s was cancelled: the tournament's draw was corrected"
            " before it began.",
        ),
        pgettext_lazy(
            "money session",
            "%(offer)s against %(name)s was cancelled: the tournament's draw was corrected"
            " before it began.",
        ),
    ),
    "stopped": (
        pgettext_lazy("match", "%(offer)s against %(name)s was stopped."),
        pgettext_lazy("money session", "%(offer)s against %(name)s was stopped."),
    ),
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
                text=partial(finished_text, match, seat),
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
                text=partial(stopped_text, match, seat, event),
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
    """How the match ended, as the player of ``seat`` reads it, in the active language."""
    other = _opponent(match, seat)
    reason = match.finish_reason or FinishReason.PLAYED
    mine, theirs = _score(match, seat)
    offer = your_offer(**terms(match))
    blanks: dict[str, object] = {"offer": offer, "name": other, "mine": mine, "theirs": theirs}
    won = match.winner_seat == seat
    if match.is_money:
        blanks["offer"] = capfirst(offer)
        if reason == FinishReason.SESSION_ENDED:
            return (
                _(
                    "%(offer)s against %(name)s is over, %(mine)s–%(theirs)s in points: one of you"
                    " could not cover the next game. Your wallet shows each game's settlement."
                )
                % blanks
            )
        if reason == FinishReason.ADJUDICATED:
            return (
                _(
                    "%(offer)s against %(name)s was adjudicated by the engine and is over,"
                    " %(mine)s–%(theirs)s in points. Your wallet shows what the engine's split"
                    " paid."
                )
                % blanks
            )
        result = _("%(offer)s against %(name)s is over, %(mine)s–%(theirs)s in points") % blanks
        if match.winner_seat is None or reason not in _WHY:
            return _("%(result)s.") % {"result": result}
    elif won:
        result = _("You won %(offer)s against %(name)s %(mine)s–%(theirs)s") % blanks
    else:
        result = _("You lost %(offer)s against %(name)s %(mine)s–%(theirs)s") % blanks
    if reason not in _WHY:
        return _("%(result)s.") % {"result": result}
    told = _BARRED if forfeited_barred(match) else _WHY[FinishReason(reason)]
    why = told[0 if won else 1] % {"name": other}
    return _("%(result)s: %(why)s.") % {"result": result, "why": why}


def stopped_text(match: Match, seat: int, event: MatchStopped) -> str:
    """Why the match stopped without a result, as the player of ``seat`` reads it."""
    blanks = {"offer": capfirst(your_offer(**terms(match))), "name": _opponent(match, seat)}
    if event.how == "aborted":
        blanks["why"] = _absence(seat, event.absent)
    said = _STOPPED.get(event.how, _STOPPED["stopped"])[1 if match.is_money else 0]
    text = said % blanks
    if not match.stake_cents:
        return text
    back = _("Your stake is back in your wallet.")  # a sentence of its own
    return f"{text} {back}"


def _absence(seat: int, absent: tuple[int, ...]) -> str:
    if not absent:
        return _("no move was made before the show-up time ran out")
    if len(absent) == 2:
        return _("neither of you came to the board in time")
    if seat in absent:
        return _("you did not come to the board in time")
    return _("your opponent did not come to the board in time")


def _opponent(match: Match, seat: int) -> str:
    opponent: User = match.player(1 - seat)
    return name(opponent)


def _score(match: Match, seat: int) -> tuple[int, int]:
    return (match.score_0, match.score_1) if seat == 0 else (match.score_1, match.score_0)
