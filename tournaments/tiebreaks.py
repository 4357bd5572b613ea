"""The organizer's answer to a tie a truncated round robin waits on.

A truncated round robin (``tournaments.formats.truncated``) whose table is played out with
players still tied for a place that matters (first, or a paid place) does not finish: its
prizes stay in escrow. Its organizer either schedules the tie-break matches (a stepladder of
1-point matches among each group of tied players, played like any tournament match, whose
results order them), or lets the ties stand (the tied players share the places and split
their prizes, as any shared place is paid). Either way the tournament then finishes through
the scheduler, which pays the pool out to the cent.

Both operations lock the tournament row (``scheduler.locked_tournament``) and are safe to
send twice: the second finds no tie waiting and is refused in words.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, DomainError, Forbidden
from tournaments import events, scheduler
from tournaments.draw_rows import stored_draw, write_changes
from tournaments.errors import format_refused
from tournaments.formats.base import FormatError
from tournaments.formats.round_robin import RoundRobin
from tournaments.models import Tournament, TournamentState
from tournaments.reads import ties_waiting
from tournaments.services import may_organize
from tournaments.settings.pure import tournament_format


@transaction.atomic
def tiebreaks_schedule(*, tournament_id: int, user: User) -> Tournament:
    """Lay out and start the tie-break matches of every tie that matters (organizer)."""
    tournament = _waiting(tournament_id, user)
    if tournament.ties_shared:
        raise DomainError(_("The ties of %(name)s were let stand.") % {"name": tournament.name})
    fmt = _truncated(tournament)
    draw, rows = stored_draw(tournament)
    try:
        after = fmt.with_tiebreaks(draw)
    except FormatError as refusal:
        raise DomainError(format_refused(refusal)) from None
    write_changes(tournament, draw, after, rows)
    scheduler.start_ready_matches(tournament, fmt, after, rows)
    events.publish_tournament(tournament.pk)
    return tournament


@transaction.atomic
def ties_share(*, tournament_id: int, user: User) -> Tournament:
    """Let the ties that matter stand: the tied players share their places, and the
    tournament finishes and pays out once nothing else is being played (organizer)."""
    tournament = _waiting(tournament_id, user)
    draw, rows = stored_draw(tournament)
    if not ties_waiting(tournament, draw):
        raise DomainError(_("No players are tied for a place that matters."))
    Tournament.objects.filter(pk=tournament.pk, ties_shared=False).update(ties_shared=True)
    tournament.ties_shared = True
    scheduler.advance(tournament, draw, rows, [])
    return tournament


def _waiting(tournament_id: int, user: User) -> Tournament:
    tournament = scheduler.locked_tournament(tournament_id)
    if not may_organize(tournament, user):
        raise Forbidden(
            _("Only the organizer can break the ties of %(name)s.") % {"name": tournament.name}
        )
    if tournament.state != TournamentState.RUNNING:
        raise Conflict(
            _("%(name)s is not being played: no tie waits to be broken.")
            % {"name": tournament.name}
        )
    return tournament


def _truncated(tournament: Tournament) -> RoundRobin:
    fmt = tournament_format(tournament, pool_cents=tournament.prize_pool_cents)
    if not isinstance(fmt, RoundRobin):
        raise DomainError(_("Only a round robin cut to fewer rounds breaks ties with a match."))
    return fmt
