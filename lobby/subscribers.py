"""What happened elsewhere, told to the people it concerns: domain events become notices.

Each handler is subscribed to one event type in ``LobbyConfig.ready`` and runs once the
event's transaction has committed. It reads what the text needs, in players' words (display
names, money as money), and calls ``lobby.notifications.notify`` under a key naming the
event, so a second delivery tells nobody twice. Each sentence is a function (``gettext`` with
named blanks) that ``notify`` calls in its reader's language; functions over a loop's rows
bind them with ``functools.partial``. Events about a whole tournament field are
handed to a task (``lobby.tasks``, by name), so the request that filled the last seat of a
Sit & Go does not write every entrant's notice itself.

Where the notices come from:

* ``ChallengeIssued``: the opponent is challenged (not for a match made from a seek).
* ``ChallengeAnswered``: the challenger hears "accepted" (or "took your seek") and
  "declined", the opponent "withdrawn"; the opponent's challenge notice is read either way.
* ``MatchesReady``: both players of each tournament match hear that it is ready (the first
  round's all at once, or the next match drawn); a challenge's players were told by its
  answer. Either way, both players stop seeking.
* ``PlayerAwaited``: "your turn", when the player has no socket open to that match's board;
  ``MatchFinished`` makes it read (a task, ``lobby.read_turn_notices``), as the match waits
  for nobody any more.
* The tournaments' events: ``lobby.tournament_notices``.
* ``DisputeDecided``: the player who filed the dispute and both players of the match.
* ``AnalysisChanged``: no notice, a live frame to each follower's tabs (the analysis page
  shows its progress), and a notice once it is done.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext_noop, ngettext
from django.utils.translation import gettext as _

from accounts.models import User
from core.tasks import enqueue
from disputes.events import DisputeDecided
from disputes.models import Decision, Dispute
from fairplay.events import SanctionApplied
from fairplay.models import Sanction
from fairplay.selectors import sanction_told
from lobby import events, selectors
from lobby.models import NoticeKind
from lobby.notifications import Notice, notices_read, notices_read_by_key, notify, notify_many
from lobby.seeks import seeks_withdraw
from lobby.wording import an_offer, your_offer
from matches.events import (
    ChallengeAnswered,
    ChallengeIssued,
    MatchesReady,
    MatchFinished,
    PlayerAwaited,
    PracticeVoided,
)
from matches.models import Match, MatchStatus
from reviews.events import AnalysisChanged

READ_TURN_NOTICES_TASK = "lobby.read_turn_notices"

logger = logging.getLogger(__name__)
Event = TypeVar("Event")


def after_the_fact(handler: Callable[[Event], None]) -> Callable[[Event], None]:
    """A handler runs once the change it tells of is committed, inside the request, socket or
    task that made it: a notice that cannot be told is logged, never raised into a move or a
    payment that has already happened."""

    @functools.wraps(handler)
    def tell(event: Event) -> None:
        try:
            handler(event)
        except Exception:
            logger.exception("The players could not be told of %r", event)

    return tell


def name(user: User) -> str:
    return user.profile.display_name


def terms(match: Match) -> dict[str, Any]:
    """What the match is played for, as ``lobby.wording``'s offers take it."""
    return {
        "kind": match.kind,
        "length": match.length,
        "stake_cents": match.stake_cents,
        "currency": match.currency,
    }


def board(match_id: int) -> str:
    return reverse("match", kwargs={"match_id": match_id})


def _ready_data(match: Match) -> dict[str, Any]:
    show_up_by = match.show_up_by.isoformat() if match.show_up_by else None
    return {"match_id": match.pk, "show_up_by": show_up_by}


# ---------------------------------------------------------------- challenges


@after_the_fact
def on_challenge_issued(event: ChallengeIssued) -> None:
    match = selectors.match_with_players(match_id=event.match_id)
    if match is None or selectors.seek_of_match(match_id=match.pk) is not None:
        return
    notify(
        user_id=event.opponent_id,
        kind=NoticeKind.CHALLENGE,
        key=f"challenge:{match.pk}",
        text=lambda: (
            _("%(name)s challenges you to %(offer)s.")
            % {"name": name(match.player_0), "offer": an_offer(**terms(match))}
        ),
        url=board(match.pk),
        data={"match_id": match.pk},
    )


@after_the_fact
def on_challenge_answered(event: ChallengeAnswered) -> None:
    match = selectors.match_with_players(match_id=event.match_id)
    if match is None:
        return
    notices_read(user_id=event.opponent_id, keys=[f"challenge:{match.pk}"])
    key = f"challenge:{match.pk}:{event.answer}"
    challenger, opponent = name(match.player_0), name(match.player_1)
    if event.answer == "accepted":
        seek = selectors.seek_of_match(match_id=match.pk)
        taken = seek is not None and seek.creator_id == event.challenger_id
        notify(
            user_id=event.challenger_id,
            kind=NoticeKind.SEEK_TAKEN if taken else NoticeKind.CHALLENGE_ACCEPTED,
            key=key,
            text=lambda: (
                (
                    _("%(name)s took your seek: %(offer)s is ready.")
                    if taken
                    else _("%(name)s accepted your challenge: %(offer)s is ready.")
                )
                % {"name": opponent, "offer": your_offer(**terms(match))}
            ),
            url=board(match.pk),
            data=_ready_data(match),
        )
    elif event.answer == "declined":
        notify(
            user_id=event.challenger_id,
            kind=NoticeKind.CHALLENGE_DECLINED,
            key=key,
            text=lambda: (
                _("%(name)s declined your challenge to %(offer)s.")
                % {"name": opponent, "offer": an_offer(**terms(match))}
            ),
            url=reverse("lobby"),
            data={"match_id": match.pk},
        )
    elif event.answer == "withdrawn":
        notify(
            user_id=event.opponent_id,
            kind=NoticeKind.CHALLENGE_WITHDRAWN,
            key=key,
            text=lambda: (
                _("%(name)s withdrew the challenge to %(offer)s.")
                % {"name": challenger, "offer": an_offer(**terms(match))}
            ),
            url=reverse("lobby"),
            data={"match_id": match.pk},
        )


# ---------------------------------------------------------------- matches


@after_the_fact
def on_matches_ready(event: MatchesReady) -> None:
    """Both players of each tournament match hear it is ready (a whole round in one go);
    everyone whose match started stops seeking."""
    seeks_withdraw(user_ids=[user for ready in event.matches for user in ready.player_ids])
    in_tournaments = [ready for ready in event.matches if ready.tournament_id is not None]
    if not in_tournaments:
        return
    played = selectors.match_terms(match_ids=[ready.match_id for ready in in_tournaments])
    names = selectors.display_names(
        user_ids={user for ready in in_tournaments for user in ready.player_ids}
    )
    tournaments = selectors.tournaments_named(
        tournament_ids={ready.tournament_id for ready in in_tournaments if ready.tournament_id}
    )
    # A round's matches share their terms: each is written once a language, not once a notice.
    offer_words = functools.cache(_offer_words)
    notices = []
    for ready in in_tournaments:
        tournament = tournaments.get(ready.tournament_id or 0)
        if tournament is None or ready.match_id not in played:
            continue
        offered = tuple(played[ready.match_id][name] for name in _TERMS)
        url = board(ready.match_id)
        show_up_by = ready.show_up_by.isoformat() if ready.show_up_by else None
        data = {
            "match_id": ready.match_id,
            "show_up_by": show_up_by,
            "tournament_id": tournament.pk,
        }
        for seat in (0, 1):
            opponent = names[ready.player_ids[1 - seat]]
            notices.append(
                Notice(
                    user_id=ready.player_ids[seat],
                    kind=NoticeKind.MATCH_READY,
                    key=f"match:{ready.match_id}:ready",
                    text=partial(_ready_text, offer_words, offered, opponent, tournament.name),
                    url=url,
                    data=data,
                )
            )
    notify_many(notices)


_TERMS = ("kind", "length", "stake_cents", "currency")


def _offer_words(language: str, kind: str, length: int, stake_cents: int, currency: str) -> str:
    """``your_offer`` capitalised, in ``language``: the active one, named for the caller's
    cache."""
    return capfirst(
        your_offer(kind=kind, length=length, stake_cents=stake_cents, currency=currency)
    )


def _ready_text(
    offer_words: Callable[..., str], offered: tuple[Any, ...], opponent: str, tournament: str
) -> str:
    return _("%(offer)s against %(name)s in %(tournament)s is ready.") % {
        "offer": offer_words(get_language(), *offered),
        "name": opponent,
        "tournament": tournament,
    }


@after_the_fact
def on_player_awaited(event: PlayerAwaited) -> None:
    if event.board_open or selectors.board_open(match_id=event.match_id, user_id=event.user_id):
        return
    match = selectors.match_with_players(match_id=event.match_id)
    if match is None or match.status != MatchStatus.PLAYING:
        return
    seat = 0 if match.player_0_id == event.user_id else 1
    other = name(match.player(1 - seat))
    score = (match.score_0, match.score_1) if seat == 0 else (match.score_1, match.score_0)

    def text() -> str:
        if match.is_money:
            return _("Your turn against %(name)s in your money session.") % {"name": other}
        return ngettext(
            "Your turn against %(name)s: %(mine)s–%(theirs)s in your %(length)s-point match.",
            "Your turn against %(name)s: %(mine)s–%(theirs)s in your %(length)s-point match.",
            match.length,
        ) % {"name": other, "mine": score[0], "theirs": score[1], "length": match.length}

    notify(
        user_id=event.user_id,
        kind=NoticeKind.TURN,
        key=f"turn:{match.pk}",
        text=text,
        url=board(match.pk),
        data={"match_id": match.pk},
        again=True,
    )


@after_the_fact
def on_match_finished(event: MatchFinished) -> None:
    # Queued like the rest of what follows a finished match: the worker or sweep that ended
    # it (an adjudication waits behind the analysis worker's after-commit) moves on at once.
    enqueue(READ_TURN_NOTICES_TASK, event.match_id)


# Why the computer's match was voided (``matches.practice``), to be read in any language.
ENGINE_FAILURES = (
    gettext_noop("GNU Backgammon is not installed on this site"),
    gettext_noop("GNU Backgammon failed to make its move"),
)


@after_the_fact
def on_practice_voided(event: PracticeVoided) -> None:
    """The person is told; against a demo player both sides are, for whoever logs in as
    the demo player reads what became of their wallet too."""
    match = selectors.match_with_players(match_id=event.match_id)
    if match is None:
        return
    demo = bool(match.player_1.profile.bot_strength)
    notify_many(
        [
            Notice(
                user_id=match.player_id(seat),
                kind=NoticeKind.PRACTICE_VOIDED,
                key=f"practice-voided:{event.match_id}",
                text=(
                    partial(_voided_text, match, seat, event.why)
                    if demo
                    else partial(_practice_voided, event)
                ),
                url=board(event.match_id),
                data={"match_id": event.match_id},
            )
            for seat in ((0, 1) if demo else (0,))
        ]
    )


def _practice_voided(event: PracticeVoided) -> str:
    return _("Your practice match was voided: %(why)s. Nothing is recorded.") % {
        "why": _(event.why)
    }


def _voided_text(match: Match, seat: int, why: str) -> str:
    """A match against a demo player, voided because the computer failed their seat."""
    if match.is_money:
        back = _("The game in play is void and its stakes are back in your wallet.")
    elif match.stake_cents:
        back = _("Your stake is back in your wallet.")
    else:
        back = _("Nothing is recorded.")
    return _("%(offer)s against %(other)s was voided: %(why)s. %(back)s") % {
        "offer": capfirst(your_offer(**terms(match))),
        "other": name(match.player(1 - seat)),
        "why": _(why),
        "back": back,
    }


def turn_notices_read(*, match_id: int) -> int:
    """A finished match waits for nobody: its players' "your turn" notice is read; returns
    how many were marked."""
    players = selectors.match_player_ids(match_id=match_id)
    if players is None:
        return 0
    return notices_read_by_key(key=f"turn:{match_id}", user_ids=players)


# ---------------------------------------------------------------- disputes


@after_the_fact
def on_dispute_decided(event: DisputeDecided) -> None:
    dispute = selectors.dispute_with_match(dispute_id=event.dispute_id)
    if dispute is None:
        return
    decision = Decision(event.decision)
    for user_id in sorted({event.filed_by_id, *event.player_ids}):
        notify(
            user_id=user_id,
            kind=NoticeKind.DISPUTE_DECIDED,
            key=f"dispute:{dispute.pk}:decided",
            text=partial(decided_text, dispute, user_id, decision),
            url=reverse("dispute", kwargs={"dispute_id": dispute.pk}),
            data={
                "dispute_id": dispute.pk,
                "match_id": event.match_id,
                "fairplay_case_id": event.fairplay_case_id,
                "decision": event.decision,
            },
        )


def decided_text(dispute: Dispute, user_id: int, decision: Decision) -> str:
    """Whose dispute about what is decided how, as the player reads it: "Your dispute about
    your match against Bruno is decided: Dismissed.", "Alice's dispute about your match ...",
    "Your appeal of fair-play case #4 ..."."""
    match = dispute.match
    blanks: dict[str, Any] = {"decision": decision.label}
    if match is None:
        blanks["case"] = dispute.fairplay_case_id
        return _("Your appeal of fair-play case #%(case)s is decided: %(decision)s.") % blanks
    mine = user_id == dispute.filed_by_id
    blanks["name"] = name(dispute.filed_by)
    if user_id not in (match.player_0_id, match.player_1_id):
        blanks |= {"first": name(match.player_0), "second": name(match.player_1)}
        if mine:
            return _("Your dispute about %(first)s v %(second)s is decided: %(decision)s.") % blanks
        return (
            _("%(name)s's dispute about %(first)s v %(second)s is decided: %(decision)s.") % blanks
        )
    opponent = match.player(1 if user_id == match.player_0_id else 0)
    if opponent.pk == dispute.filed_by_id:
        return _("%(name)s's dispute about your match is decided: %(decision)s.") % blanks
    blanks["opponent"] = name(opponent)
    if mine:
        return (
            _("Your dispute about your match against %(opponent)s is decided: %(decision)s.")
            % blanks
        )
    return (
        _("%(name)s's dispute about your match against %(opponent)s is decided: %(decision)s.")
        % blanks
    )


def on_analysis_changed(event: AnalysisChanged) -> None:
    events.publish_analysis(
        event.user_ids,
        {
            "id": event.analysis_id,
            "match": event.match_id,
            "status": event.status,
            "done": event.done,
            "total": event.total,
        },
    )
    if event.status != "done":
        return
    if event.match_id is None:
        url = reverse("analysis", kwargs={"analysis_id": event.analysis_id})
    else:
        url = reverse("match-analysis", kwargs={"match_id": event.match_id})
    for user_id in event.user_ids:
        notify(
            user_id=user_id,
            kind=NoticeKind.ANALYSIS,
            key=f"analysis:{event.analysis_id}",
            text=partial(selectors.analysis_ready_text, event.analysis_id, user_id),
            url=url,
            data={"analysis_id": event.analysis_id, "match_id": event.match_id},
        )


def on_sanction_applied(event: SanctionApplied) -> None:
    """Staff decided a fair-play case against the player: what, why, and where to appeal.
    A suspended or closed player's open seeks are withdrawn: nobody can take them now."""
    if event.kind in ("suspend", "close"):
        seeks_withdraw(user_ids=[event.user_id])
    notify(
        user_id=event.user_id,
        kind=NoticeKind.SANCTION,
        key=f"sanction:{event.case_id}:{event.kind}",
        text=partial(sanction_text, event.sanction_id, event.text),
        url=reverse("fairplay-my-case", kwargs={"case_id": event.case_id}),
        data={"case_id": event.case_id, "sanction": event.kind},
    )


def sanction_text(sanction_id: int, english: str) -> str:
    """What the player reads of the sanction, in the active language (``english`` if the row
    is gone)."""
    sanction = Sanction.objects.filter(pk=sanction_id).first()
    return english if sanction is None else sanction_told(sanction)
