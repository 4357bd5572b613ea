"""Bracket corrections: a staff decision changed a match's result, so the draw changes too.

Terms (with those of ``tournaments.formats.base``):

- **Overturn**: the match's pairing goes to the other player. **Void**: its result is
  cleared and the pairing is played again (the **replay**).
- **Feed**: where a pairing's winner and loser go on, as its format laid the draw out. A
  knockout sends the winner on; a double elimination also drops a first loser into the
  losers' flight, a triple elimination a second loser into its second losers' flight; a
  consolation or a last chance takes early losers; the grand final's reset is played only
  when the losers' flight champion wins the first final, a triple elimination's finals only
  while neither player in them has lost three times.
- **Later stage**: pairings a format makes only once a set of results is in: a Swiss's next
  round or top cut, a round robin's knockout stage.
- **Started**: a player came to the board of the match (or it ended); an unstarted match
  can be cancelled (``matches.lifecycle.match_cancel``).

How a correction finds what to move: the draw is laid out again from the rows (every side
that waited on a feed waits again) and the format replays every result played, with this one
changed or cleared (``formats.base.replay``). Each pairing the replay makes differently from
the rows is corrected: the new winner takes the old winner's place in the winner's successor
and the old winner the old loser's place in the loser's successor, a bye passes on whoever
now meets it, a reset appears or is called off, a later stage is paired again. A pairing is
corrected only while its match has not started: the unstarted match is cancelled and the
corrected pairing gets a new one. A pairing whose match has started or been played is not
taken away from its players: the decision is refused (``Conflict``) and nothing changes. A
corrected draw that is over (a reset called off after every other match) finishes the
tournament and pays its prizes, as the last result would have.

Swiss. A round is paired from the standings when the last match of the round before ends,
so a result reaches later pairings only through the standings. A director corrects it so:

- while the round paired from it (the next round, or the top cut after the last round) has
  not started, those pairings are withdrawn and paired again from the corrected standings;
  after a void, once the replay ends (a withdrawn pairing paired the same again keeps its
  match);
- once one of that round's matches has started, the decision is refused: its players are
  playing pairings the old standings made, which can no longer be made again;
- a result of an older round (the round after it was played to the end) is corrected in the
  standings only: the pairings already made stand, and the later rounds' pairing, the
  tiebreaks and the placings count the corrected result. Such a match cannot be voided: its
  replay would come after rounds its players have played since.

Round robin. Every group pairing is laid out at the start, so an overturn changes only the
standings. A void's replay comes before its players' later matches, as the table orders them:
their unstarted ones are cancelled until it ends, and a later match of theirs already started
or played refuses the decision. The knockout stage after the groups is drawn from their
standings: a group result is corrected while none of its matches has started (the stage is
drawn again), and a knockout-stage match is corrected as in a knockout.

Every function runs inside the caller's transaction, which holds the match's lock; it takes
the tournament's, then the pairing rows', then the next matches', in the lock order of
``core.locks``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from core import locks
from core.errors import Conflict, InternalError
from core.locks import Lock
from matches.lifecycle import match_cancel
from matches.models import Match, MatchStatus
from matches.state import lock_match
from tournaments import draw_rows, scheduler
from tournaments.formats.base import BYE, Draw, Flight, Format, PairingKey, replay
from tournaments.formats.base import Pairing as DrawPairing
from tournaments.formats.last_chance import LastChanceEntry, feeder_keys
from tournaments.formats.round_robin import RoundRobin
from tournaments.formats.side_flights import WithSideFlights
from tournaments.formats.swiss import Swiss
from tournaments.models import Pairing, Tournament, TournamentFormat, TournamentState
from tournaments.reads.rounds import pairing_words, plays_tiebreaks, round_name
from tournaments.settings.pure import tournament_format


@dataclass
class Correction:
    """What a correction changed, for the decision's summary and audit."""

    pairing: str
    new_matches: list[int] = field(default_factory=list)
    replay_match: int | None = None
    moved_pairings: list[str] = field(default_factory=list)
    cancelled_matches: list[int] = field(default_factory=list)

    @property
    def next_pairing(self) -> str | None:
        """The first pairing moved (a result feeding both a winner and a loser moves two)."""
        return next(iter(self.moved_pairings), None)

    @property
    def cancelled_match(self) -> int | None:
        return next(iter(self.cancelled_matches), None)

    def as_dict(self) -> dict[str, object]:
        return {
            "pairing": self.pairing,
            "next_pairing": self.next_pairing,
            "cancelled_match": self.cancelled_match,
            "new_matches": self.new_matches,
            "replay_match": self.replay_match,
            "moved_pairings": self.moved_pairings,
            "cancelled_matches": self.cancelled_matches,
        }


def overturn(*, match: Match, new_winner_id: int, cause: dict[str, object]) -> Correction:
    """Give ``match``'s pairing to ``new_winner_id`` and correct what its result fed."""
    tournament, row = _locked_pairing(match)
    correction = Correction(_slot_name(row))
    if row.winner_id is None or row.winner_id == new_winner_id:
        # Nothing recorded yet (the scheduler will read the corrected winner), or no change.
        return correction
    if new_winner_id not in (row.top_id, row.bottom_id):
        raise InternalError(f"user {new_winner_id} is not playing in {row}")
    _correct(tournament, row, new_winner_id, cause, correction)
    return correction


def void(*, match: Match, cause: dict[str, object]) -> Correction:
    """Clear ``match``'s pairing (and what its result fed) and start its replay."""
    tournament, row = _locked_pairing(match)
    correction = Correction(_slot_name(row))
    _correct(tournament, row, None, cause, correction)
    correction.replay_match = Pairing.objects.values_list("match_id", flat=True).get(pk=row.pk)
    return correction


def _locked_pairing(match: Match) -> tuple[Tournament, Pairing]:
    assert match.tournament_id is not None
    tournament = scheduler.locked_tournament(match.tournament_id)
    if tournament.state == TournamentState.FINISHED:
        raise Conflict("The tournament has finished and its prizes are paid; adjust money instead.")
    if tournament.state != TournamentState.RUNNING:
        raise Conflict(f"The tournament is {tournament.get_state_display().lower()}.")
    if tournament.format == TournamentFormat.SWING:
        raise Conflict(
            "A swing game's chips were settled when it ended and the next games were paired "
            "on them: its result cannot be changed."
        )
    row = locks.select(
        Lock.PAIRING, Pairing.objects.filter(tournament=tournament, match_id=match.pk)
    ).first()
    if row is None:
        raise Conflict("This match has no place in the tournament's bracket.")
    return tournament, row


# A pairing row's columns once its match is taken away: to be given a new one.
UNPLAYED: dict[str, object] = {"match_id": None, "deadline": None, "late": False}


@dataclass
class _Plan:
    """The rows a correction rewrites (to the replayed pairing) or deletes (None), and the
    rows whose match it cancels."""

    rewrite: dict[PairingKey, DrawPairing | None] = field(default_factory=dict)
    cancel: list[Pairing] = field(default_factory=list)
    added: list[DrawPairing] = field(default_factory=list)


def _correct(
    tournament: Tournament,
    row: Pairing,
    winner: int | None,
    cause: dict[str, object],
    correction: Correction,
) -> None:
    """Replay the draw with ``row``'s result changed to ``winner`` (None: cleared, to be
    played again), check the change is allowed, then write it and move the tournament on."""
    fmt = tournament_format(tournament, pool_cents=tournament.prize_pool_cents)
    draw, rows = draw_rows.stored_draw(tournament)
    key = PairingKey(Flight(row.flight), row.round, row.position)
    withdrawn = _withdrawn(fmt, draw, rows, key, voiding=winner is None)
    kept = [pairing for pairing in draw.pairings if pairing.key not in withdrawn]
    played = [p for p in kept if p.winner is not None and not p.is_bye and p.key != key]
    if winner is not None:
        played.append(dataclasses.replace(draw.pairing(key), winner=winner))
    corrected = replay(fmt, draw_rows.laid_out(rows[p.key] for p in kept), played)
    plan = _plan(fmt, draw, corrected, rows, key)
    _refuse_started(plan.cancel)
    _write(draw, rows, plan, cause, correction)
    if winner is None:
        Pairing.objects.filter(pk=row.pk).update(winner_id=None, decided_at=None, **UNPLAYED)
    else:
        Pairing.objects.filter(pk=row.pk).update(winner_id=winner, decided_at=timezone.now())
    draw_rows.store_pairings(tournament, corrected, plan.added)
    correction.new_matches = _go_on(tournament)


def _write(
    draw: Draw,
    rows: dict[PairingKey, Pairing],
    plan: _Plan,
    cause: dict[str, object],
    correction: Correction,
) -> None:
    """Cancel the plan's stale matches and rewrite or delete its rows: the rows locked first,
    then the matches by id, in the lock order."""
    changed = [rows[key].pk for key in plan.rewrite] + [row.pk for row in plan.cancel]
    locked = locks.select(Lock.PAIRING, Pairing.objects.filter(pk__in=changed), *sorted(changed))
    list(locked.values_list("pk", flat=True))
    # Every match locked before any is cancelled: a cancellation may refund stakes, and
    # wallets come after matches in the lock order.
    stale = sorted(row.match_id for row in plan.cancel if row.match_id is not None)
    for match in [lock_match(match_id, kind=Lock.NEXT_MATCH) for match_id in stale]:
        match_cancel(match, cause=cause)
        correction.cancelled_matches.append(match.pk)
    Pairing.objects.filter(pk__in=[row.pk for row in plan.cancel]).update(**UNPLAYED)
    for key, after in plan.rewrite.items():
        correction.moved_pairings.append(_slot_name(rows[key]))
        if after is None:
            Pairing.objects.filter(pk=rows[key].pk).delete()
        else:
            fields = _row_fields(draw.pairing(key), after)
            Pairing.objects.filter(pk=rows[key].pk).update(**fields, **UNPLAYED)


def _withdrawn(
    fmt: Format, draw: Draw, rows: dict[PairingKey, Pairing], key: PairingKey, *, voiding: bool
) -> set[PairingKey]:
    """The later stage paired from ``key``'s result, which the correction pairs again; refuses
    a correction the Swiss and round-robin rules of the module docstring do not allow."""
    if isinstance(fmt, WithSideFlights):
        return _last_chance_drawn_again(fmt, draw, rows, key)
    if key.flight is not Flight.MAIN or not isinstance(fmt, Swiss | RoundRobin):
        return set()
    knockout = tuple(pairing for round_ in draw.rounds(Flight.FINAL) for pairing in round_)
    stages: list[tuple[str, tuple[DrawPairing, ...]]] = [("The knockout stage", knockout)]
    if isinstance(fmt, Swiss):
        later = draw.rounds(Flight.MAIN)[key.round + 1 :]
        total = len(draw.rounds(Flight.MAIN))
        names = (
            round_name(TournamentFormat.SWISS, Flight.MAIN, key.round + 1 + i, total)
            for i in range(len(later))
        )
        stages = [*zip(names, later, strict=True), ("The top cut", knockout)]
    stages = [(name, stage) for name, stage in stages if stage]
    if not stages:
        return set()
    if len(stages) > 1:
        if voiding:
            raise Conflict(
                f"{stages[1][0]} has been paired since this match; it cannot be replayed now. "
                "Overturn it (the standings are corrected), or adjust money instead."
            )
        return set()
    name, stage = stages[0]
    if _has_started(stage, rows):
        raise Conflict(
            f"{name} was paired from this result and has started: its matches are not taken "
            "away from their players, so this result cannot be changed now."
        )
    return {pairing.key for pairing in stage}


def _last_chance_drawn_again(
    fmt: WithSideFlights, draw: Draw, rows: dict[PairingKey, Pairing], key: PairingKey
) -> set[PairingKey]:
    """A fresh last chance drawn from ``key``'s result, to be drawn again; refused once one of
    its matches has started."""
    reenters_at = fmt.options.last_chance_reenters_at
    if reenters_at is None or fmt.options.last_chance_entry is not LastChanceEntry.FRESH:
        return set()
    stage = tuple(pairing for round_ in draw.rounds(Flight.LAST_CHANCE) for pairing in round_)
    if not stage or key not in feeder_keys(draw, reenters_at):
        return set()
    if _has_started(stage, rows):
        raise Conflict(
            _(
                "The last chance was drawn from this result and has started: its matches are "
                "not taken away from their players, so this result cannot be changed now."
            )
        )
    return {pairing.key for pairing in stage}


def _has_started(stage: tuple[DrawPairing, ...], rows: dict[PairingKey, Pairing]) -> bool:
    if any(pairing.winner is not None and not pairing.is_bye for pairing in stage):
        return True
    return _started([rows[pairing.key] for pairing in stage]).exists()


def _started(rows: list[Pairing]) -> QuerySet[Match]:
    """The matches of ``rows`` that have started (or ended)."""
    match_ids = [row.match_id for row in rows if row.match_id is not None]
    return Match.objects.filter(pk__in=match_ids).filter(
        Q(seen_0=True) | Q(seen_1=True) | ~Q(status=MatchStatus.PLAYING)
    )


def _plan(
    fmt: Format, draw: Draw, corrected: Draw, rows: dict[PairingKey, Pairing], key: PairingKey
) -> _Plan:
    """What writing ``corrected`` over ``draw`` takes; refuses to move a played pairing."""
    plan = _Plan()
    replayed = {pairing.key: pairing for pairing in corrected.pairings}
    ready = {pairing.key for pairing in fmt.ready_pairings(corrected)}
    for before in draw.pairings:
        if before.key == key:
            continue
        row, after = rows[before.key], replayed.get(before.key)
        if after != before:
            if before.winner is not None and not before.is_bye:
                raise Conflict(
                    f"The next match ({_slot_name(row)}) has been played already; "
                    "the bracket cannot be corrected by this decision."
                )
            plan.rewrite[before.key] = after
        waiting_to_play = row.match_id is not None and before.winner is None
        if waiting_to_play and (after != before or before.key not in ready):
            plan.cancel.append(row)
    plan.added = [pairing for pairing in corrected.pairings if pairing.key not in rows]
    return plan


def _refuse_started(stale: list[Pairing]) -> None:
    """A match being played is not taken away from its players."""
    started = _started(stale).order_by("pk").values_list("pk", flat=True).first()
    if started is not None:
        row = next(row for row in stale if row.match_id == started)
        raise Conflict(
            f"The match of {_slot_name(row)} (#{started}) has started; it is not taken away "
            "from its players, so the bracket cannot be corrected by this decision."
        )


def _row_fields(before: DrawPairing, after: DrawPairing) -> dict[str, object]:
    """The columns that make a row hold ``after``."""
    fields: dict[str, object] = {}
    for side in ("top", "bottom"):
        held = getattr(after, side)
        fields[f"{side}_id"] = held if isinstance(held, int) else None
        fields[f"{side}_bye"] = held is BYE
    if after.winner != before.winner:
        fields["winner_id"] = after.winner
        fields["decided_at"] = timezone.now() if after.winner is not None else None
    return fields


def _go_on(tournament: Tournament) -> list[int]:
    """Let the format go on from the corrected rows: start the matches of pairings that became
    ready, or finish the tournament if nothing is left to play. The new matches' ids."""
    draw, rows = draw_rows.stored_draw(tournament)
    before = {row.pk for row in rows.values() if row.match_id is not None}
    scheduler.advance(tournament, draw, rows, [])
    return sorted(
        row.match_id for row in rows.values() if row.match_id is not None and row.pk not in before
    )


def _slot_name(row: Pairing) -> str:
    """The pairing as the bracket names it: "Winners' final", "Semi-finals, match 2"."""
    return pairing_words(row, row.tournament.format, tiebreaks=plays_tiebreaks(row.tournament))
