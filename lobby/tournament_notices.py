"""Tournaments told to their players: the start, a player out, a swing's wait, the places
and prizes at the finish. Each handler is subscribed in ``LobbyConfig.ready`` and runs once
its event's transaction has committed (``lobby.subscribers.after_the_fact``); a whole
field's notices are written by a task (``lobby.tasks``), the request that started the
tournament or paid its prizes writing none itself. The cancellation's notices are
``lobby.cancellations``'.
"""

from __future__ import annotations

from functools import partial

from django.urls import reverse
from django.utils.translation import gettext as _

from core.tasks import enqueue_on_commit
from lobby import selectors
from lobby.models import NoticeKind
from lobby.notifications import Notice, notify, notify_many
from lobby.subscribers import after_the_fact
from lobby.wording import amount, placing
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
        text=lambda: (
            _("You are out of %(tournament)s. Thanks for playing.")
            % {"tournament": tournament.name}
        ),
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
        text=lambda: (
            _(
                "Nobody is free to play you in %(tournament)s yet: your next game starts as soon"
                " as another game ends."
            )
            % {"tournament": tournament.name}
        ),
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
                text=partial(_started_text, tournament.name),
                url=bracket,
                data={"tournament_id": tournament_id},
            )
            for user_id in selectors.entrant_ids(tournament_id=tournament_id)
        ]
    )


def _started_text(tournament: str) -> str:
    return _("%(tournament)s has started. Good luck!") % {"tournament": tournament}


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
                text=partial(finish_text, tournament, entry),
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
            if told_of_finish(entry)
        ]
    )


def told_of_finish(entry: Entry) -> bool:
    """Is there something to tell the entrant beyond the elimination: the win, a prize, a
    ticket?"""
    won = entry.place == 1 and (entry.shared_to or 1) == 1
    return won or bool(entry.prize_cents) or entry.won_ticket


def finish_text(tournament: Tournament, entry: Entry) -> str:
    """What the entrant won: "You won Spring Cup: 50.00 FUN is in your wallet."."""
    won = entry.place == 1 and (entry.shared_to or 1) == 1
    prize = bool(entry.prize_cents)
    seat = entry.won_ticket and tournament.target is not None
    blanks = {
        "tournament": tournament.name,
        "place": placing(entry.place or 0, entry.shared_to),
        "amount": amount(entry.prize_cents, tournament.currency),
        "target": tournament.target.name if tournament.target is not None else "",
    }
    if won:
        if prize and seat:
            text = _(
                "You won %(tournament)s: %(amount)s is in your wallet and you have a seat in"
                " %(target)s."
            )
        elif prize:
            text = _("You won %(tournament)s: %(amount)s is in your wallet.")
        elif seat:
            text = _("You won %(tournament)s: you have a seat in %(target)s.")
        else:
            text = _("You won %(tournament)s!")
    elif prize and seat:
        text = _(
            "You finished %(place)s in %(tournament)s: %(amount)s is in your wallet and you"
            " have a seat in %(target)s."
        )
    elif prize:
        text = _("You finished %(place)s in %(tournament)s: %(amount)s is in your wallet.")
    elif seat:
        text = _("You finished %(place)s in %(tournament)s: you have a seat in %(target)s.")
    else:
        text = _("You finished %(place)s in %(tournament)s!")
    return text % blanks
