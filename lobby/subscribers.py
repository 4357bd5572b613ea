"""What happened elsewhere, told to the people it concerns: domain events become notices.

Each handler is subscribed to one event type in ``LobbyConfig.ready`` and runs once the
event's transaction has committed. It reads what the text needs, in players' words (display
names, money as money), and calls ``lobby.notifications.notify`` under a key naming the
event, so a second delivery tells nobody twice. Events about a whole tournament field are
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
* ``TournamentStarted``, ``PlayerEliminated``, ``SwingWaiting`` (a swing's player left
  over), ``TournamentFinished`` (prizes and tickets), ``TournamentCancelled``
  (``lobby.cancellations``).
* ``DisputeDecided``: the player who filed the dispute and both players of the match.
* ``AnalysisChanged``: no notice, a live frame to each follower's tabs (the analysis page
  shows its progress), and a notice once it is done.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.money import money_text
from core.tasks import enqueue, enqueue_on_commit
from disputes.events import DisputeDecided
from disputes.models import Decision, Dispute
from fairplay.events import SanctionApplied
from lobby import events, selectors
from lobby.models import NoticeKind
from lobby.notifications import Notice, notices_read, notices_read_by_key, notify, notify_many
from lobby.seeks import seeks_withdraw
from lobby.terms import offer_text, with_article
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
from tournaments.events import (
    PlayerEliminated,
    SwingWaiting,
    TournamentCancelled,
    TournamentFinished,
    TournamentStarted,
)
from tournaments.models import Entry, Tournament

TELL_STARTED_TASK = "lobby.tell_tournament_started"
TELL_FINISHED_TASK = "lobby.tell_tournament_finished"
TELL_CANCELLED_TASK = "lobby.tell_tournament_cancelled"
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


def offer(match: Match) -> str:
    return offer_text(
        kind=match.kind, length=match.length, stake_cents=match.stake_cents, currency=match.currency
    )


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
        text=f"{name(match.player_0)} challenges you to {with_article(offer(match))}.",
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
            text=(
                f"{opponent} {'took your seek' if taken else 'accepted your challenge'}: "
                f"your {offer(match)} is ready."
            ),
            url=board(match.pk),
            data=_ready_data(match),
        )
    elif event.answer == "declined":
        notify(
            user_id=event.challenger_id,
            kind=NoticeKind.CHALLENGE_DECLINED,
            key=key,
            text=f"{opponent} declined your challenge to {with_article(offer(match))}.",
            url=reverse("lobby"),
            data={"match_id": match.pk},
        )
    elif event.answer == "withdrawn":
        notify(
            user_id=event.opponent_id,
            kind=NoticeKind.CHALLENGE_WITHDRAWN,
            key=key,
            text=f"{challenger} withdrew the challenge to {with_article(offer(match))}.",
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
    terms = selectors.match_terms(match_ids=[ready.match_id for ready in in_tournaments])
    names = selectors.display_names(
        user_ids={user for ready in in_tournaments for user in ready.player_ids}
    )
    tournaments = selectors.tournaments_named(
        tournament_ids={ready.tournament_id for ready in in_tournaments if ready.tournament_id}
    )
    notices = []
    for ready in in_tournaments:
        tournament = tournaments.get(ready.tournament_id or 0)
        if tournament is None or ready.match_id not in terms:
            continue
        offered, url = offer_text(**terms[ready.match_id]), board(ready.match_id)
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
                    text=f"Your {offered} against {opponent} in {tournament.name} is ready.",
                    url=url,
                    data=data,
                )
            )
    notify_many(notices)


@after_the_fact
def on_player_awaited(event: PlayerAwaited) -> None:
    if event.board_open or selectors.board_open(match_id=event.match_id, user_id=event.user_id):
        return
    match = selectors.match_with_players(match_id=event.match_id)
    if match is None or match.status != MatchStatus.PLAYING:
        return
    seat = 0 if match.player_0_id == event.user_id else 1
    other = name(match.player(1 - seat))
    if match.is_money:
        text = f"Your turn against {other} in your money session."
    else:
        score = (match.score_0, match.score_1) if seat == 0 else (match.score_1, match.score_0)
        text = (
            f"Your turn against {other}: {score[0]}–{score[1]} in your {match.length}-point match."
        )
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
                text=_voided_text(match, seat, event.why) if demo else _practice_voided(event),
                url=board(event.match_id),
                data={"match_id": event.match_id},
            )
            for seat in ((0, 1) if demo else (0,))
        ]
    )


def _practice_voided(event: PracticeVoided) -> str:
    return _("Your practice match was voided: %(why)s. Nothing is recorded.") % {"why": event.why}


def _voided_text(match: Match, seat: int, why: str) -> str:
    """A match against a demo player, voided because the computer failed their seat."""
    if match.is_money:
        back = _("The game in play is void and its stakes are back in your wallet.")
    elif match.stake_cents:
        back = _("Your stake is back in your wallet.")
    else:
        back = _("Nothing is recorded.")
    return _("Your %(offer)s against %(other)s was voided: %(why)s. %(back)s") % {
        "offer": offer(match),
        "other": name(match.player(1 - seat)),
        "why": why,
        "back": back,
    }


def turn_notices_read(*, match_id: int) -> int:
    """A finished match waits for nobody: its players' "your turn" notice is read; returns
    how many were marked."""
    players = selectors.match_player_ids(match_id=match_id)
    if players is None:
        return 0
    return notices_read_by_key(key=f"turn:{match_id}", user_ids=players)


# ---------------------------------------------------------------- tournaments


@after_the_fact
def on_tournament_started(event: TournamentStarted) -> None:
    enqueue_on_commit(TELL_STARTED_TASK, event.tournament_id)


@after_the_fact
def on_tournament_finished(event: TournamentFinished) -> None:
    enqueue_on_commit(TELL_FINISHED_TASK, event.tournament_id)


@after_the_fact
def on_tournament_cancelled(event: TournamentCancelled) -> None:
    enqueue_on_commit(TELL_CANCELLED_TASK, event.tournament_id)


@after_the_fact
def on_player_eliminated(event: PlayerEliminated) -> None:
    tournament = selectors.tournament_named(tournament_id=event.tournament_id)
    if tournament is None:
        return
    notify(
        user_id=event.user_id,
        kind=NoticeKind.ELIMINATED,
        key=f"tournament:{tournament.pk}:out",
        text=f"You are out of {tournament.name}. Thanks for playing.",
        url=reverse("tournament-bracket", kwargs={"tournament_id": tournament.pk}),
        data={"tournament_id": tournament.pk},
    )


def on_swing_waiting(event: SwingWaiting) -> None:
    """One notice per swing, brought back each time the player waits again."""
    tournament = selectors.tournament_named(tournament_id=event.tournament_id)
    if tournament is None:
        return
    notify(
        user_id=event.user_id,
        kind=NoticeKind.WAITING,
        key=f"tournament:{tournament.pk}:waiting",
        text=f"Nobody is free to play you in {tournament.name} yet: your next game starts "
        "as soon as another game ends.",
        url=reverse("tournament-bracket", kwargs={"tournament_id": tournament.pk}),
        data={"tournament_id": tournament.pk},
        again=True,
    )


def tell_tournament_started(*, tournament_id: int) -> int:
    """Tell every entrant the tournament started; returns how many were told this time."""
    tournament = selectors.tournament_named(tournament_id=tournament_id)
    if tournament is None:
        return 0
    bracket = reverse("tournament-bracket", kwargs={"tournament_id": tournament_id})
    return notify_many(
        [
            Notice(
                user_id=user_id,
                kind=NoticeKind.TOURNAMENT_STARTED,
                key=f"tournament:{tournament_id}:started",
                text=f"{tournament.name} has started. Good luck!",
                url=bracket,
                data={"tournament_id": tournament_id},
            )
            for user_id in selectors.entrant_ids(tournament_id=tournament_id)
        ]
    )


def tell_tournament_finished(*, tournament_id: int) -> int:
    """Tell the champion and everyone paid a prize or a ticket; returns how many were told."""
    tournament = selectors.tournament_named(tournament_id=tournament_id)
    if tournament is None:
        return 0
    return notify_many(
        [
            Notice(
                user_id=entry.user_id,
                kind=NoticeKind.PRIZE,
                key=f"tournament:{tournament_id}:prize",
                text=text,
                url=reverse("wallet")
                if entry.prize_cents
                else reverse("tournament", kwargs={"tournament_id": tournament_id}),
                data={
                    "tournament_id": tournament_id,
                    "place": entry.place,
                    "prize_cents": entry.prize_cents,
                    "currency": tournament.currency,
                    "ticket": entry.won_ticket,
                },
            )
            for entry in selectors.entrants(tournament_id=tournament_id)
            if (text := finish_text(tournament, entry)) is not None
        ]
    )


def finish_text(tournament: Tournament, entry: Entry) -> str | None:
    """What the entrant won, or None when there is nothing to tell beyond the elimination."""
    won = entry.place == 1 and (entry.shared_to or 1) == 1
    if not (won or entry.prize_cents or entry.won_ticket):
        return None
    if won:
        where = f"You won {tournament.name}"
    else:
        where = f"You finished {placing(entry)} in {tournament.name}"
    gains = []
    if entry.prize_cents:
        gains.append(f"{money_text(entry.prize_cents)} {tournament.currency} is in your wallet")
    if entry.won_ticket and tournament.target is not None:
        gains.append(f"you have a seat in {tournament.target.name}")
    return f"{where}: {' and '.join(gains)}." if gains else f"{where}!"


def placing(entry: Entry) -> str:
    """The entrant's place, as in "2nd", or "3rd–4th" for a shared one."""
    place = entry.place or 0
    shared = entry.shared_to or place
    return ordinal(place) if shared == place else f"{ordinal(place)}–{ordinal(shared)}"


def ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


# ---------------------------------------------------------------- disputes


@after_the_fact
def on_dispute_decided(event: DisputeDecided) -> None:
    dispute = selectors.dispute_with_match(dispute_id=event.dispute_id)
    if dispute is None:
        return
    # A notice's text is kept as written, in English whatever language the staff use.
    with translation.override("en"):
        decision = str(Decision(event.decision).label)
    for user_id in sorted({event.filed_by_id, *event.player_ids}):
        notify(
            user_id=user_id,
            kind=NoticeKind.DISPUTE_DECIDED,
            key=f"dispute:{dispute.pk}:decided",
            text=f"{dispute_about(dispute, user_id)} is decided: {decision}.",
            url=reverse("dispute", kwargs={"dispute_id": dispute.pk}),
            data={
                "dispute_id": dispute.pk,
                "match_id": event.match_id,
                "fairplay_case_id": event.fairplay_case_id,
                "decision": event.decision,
            },
        )


def dispute_about(dispute: Dispute, user_id: int) -> str:
    """Whose dispute about what, as the player reads it: "Your dispute about your match
    against Bruno", "Alice's dispute about your match", "Your appeal of fair-play case #4"."""
    match = dispute.match
    if match is None:
        return f"Your appeal of fair-play case #{dispute.fairplay_case_id}"
    whose = (
        "Your dispute" if user_id == dispute.filed_by_id else f"{name(dispute.filed_by)}'s dispute"
    )
    if user_id not in (match.player_0_id, match.player_1_id):
        return f"{whose} about {name(match.player_0)} v {name(match.player_1)}"
    opponent = match.player(1 if user_id == match.player_0_id else 0)
    if opponent.pk == dispute.filed_by_id:
        return f"{whose} about your match"
    return f"{whose} about your match against {name(opponent)}"


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
            text=selectors.analysis_ready_text(event.analysis_id, user_id),
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
        text=event.text,
        url=reverse("fairplay-my-case", kwargs={"case_id": event.case_id}),
        data={"case_id": event.case_id, "sanction": event.kind},
    )
