"""How a match comes to be: a challenge and its answer, pass and play, a tournament's match.

A *challenge* invites an opponent to a match to N points or a money session, under house
rules (``backgammon.match.MatchOptions``) and a time control (``matches.clock``); the
challenger must be able to cover the stake (``matches.money``). The opponent accepts (the
stakes go into escrow and the match starts, ``matches.lifecycle.start_match``) or
declines; the challenger may withdraw it first. Both players' standing
(``accounts.standing``: suspension, closure, self-exclusion and barred regions for real
money) is checked when the challenge is made and again when it is accepted. Pass-and-play
and tournament matches start at once; a tournament's money is the tournament's, so no stake
moves for its matches, and its players' standing was checked when they registered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.ledger import InsufficientFunds
from accounts.models import Currency, User
from accounts.standing import require_may_play, require_not_blocked
from backgammon.errors import BackgammonError
from backgammon.match import MatchOptions, MatchState
from core import locks
from core.errors import Conflict, DomainError, Forbidden, NotInstalled
from core.locks import Lock
from matches import clock, events, money
from matches import dice as fair_dice
from matches.engine import engine_status
from matches.forfeits import barred_forfeits_at_start
from matches.lifecycle import start_match, start_matches
from matches.models import (
    DEFAULT_CLOCK,
    AbandonPolicy,
    ClockKind,
    ClockSettings,
    Match,
    MatchKind,
    MatchStatus,
)
from matches.refusals import rules_refused
from matches.state import lock_match

MAX_MATCH_LENGTH = 25
MAX_AUTOMATIC_DOUBLES = 3


@transaction.atomic
def match_challenge(
    *,
    challenger: User,
    opponent: User,
    length: int | None = None,
    money_play: bool = False,
    stake_cents: int = 0,
    currency: str = Currency.FUN,
    jacoby: bool = True,
    beavers: bool = False,
    raccoons: bool = False,
    automatic_doubles: int = 0,
    max_cube: int | None = None,
    rated: bool = True,
    private: bool = False,
    clock_settings: ClockSettings = DEFAULT_CLOCK,
    staff_ordered: bool = False,
) -> Match:
    """Invite ``opponent`` to a match to ``length`` points or to a money session.

    A demo player the computer plays (``computer_strength``) accepts at once, and the
    computer plays their seat as it plays practice matches (``matches.practice``); the
    match it returns has started.

    ``staff_ordered``: a replay a staff decision ordered, which neither player chose, so
    their standing and blocks are not asked (``match_replay``).
    """
    if opponent.pk == challenger.pk:
        raise DomainError(_("You cannot challenge yourself; try pass and play instead"))
    if not opponent.is_active:
        raise DomainError(_("%(name)s cannot be challenged") % {"name": opponent.username})
    if currency not in Currency.values:
        raise DomainError(
            _("Currency must be one of %(currencies)s") % {"currencies": ", ".join(Currency.values)}
        )
    if stake_cents < 0:
        raise DomainError(_("The stake cannot be negative"))
    if not staff_ordered:
        require_may_play(challenger, currency=currency)
        require_opponent_may_play(opponent, currency=currency)
        require_not_blocked(challenger, opponent)
    match = Match(
        player_0=challenger,
        player_1=opponent,
        currency=currency,
        stake_cents=stake_cents,
        rated=rated,
        private=private,
        dice_seed=fair_dice.new_seed(),
    )
    if money_play:
        _money_rules(match, jacoby, beavers, raccoons, automatic_doubles, max_cube)
    else:
        match.kind, match.length = MatchKind.MATCH, checked_length(length)
    money.require_cover(match, seats=(0,), asker=challenger)
    clock.set_clock(match, clock_settings)
    computer = computer_strength(opponent) if not computer_strength(challenger) else ""
    if computer:  # the demo player answers now: a refusal names them, not "you"
        found = engine_status()
        if not found.available:
            raise NotInstalled(
                _("%(name)s is played by the computer, which is unavailable here: %(reason)s.")
                % {"name": opponent.profile.display_name, "reason": found.reason}
            )
        money.require_cover(match, seats=(1,), asker=challenger)
    match.engine_strength = computer
    match.save()
    locks.made(Lock.MATCH, match.pk)
    events.publish_challenge(match)
    if computer:  # a demo player the computer plays never keeps a challenger waiting
        return match_accept(match_id=match.pk, user=opponent, staff_ordered=staff_ordered)
    return match


def computer_strength(user: User) -> str:
    """The strength the computer plays ``user`` at: a demo player's, else empty."""
    return user.profile.bot_strength


def challenge_from_input(*, challenger: User, opponent: User, values: Mapping[str, Any]) -> Match:
    """A challenge as the play page's form and the API's body give it, each validated into
    these names: ``money`` (true for a money session), ``length`` (a match's points),
    ``stake_cents``, ``currency``, ``jacoby``, ``beavers``, ``raccoons``,
    ``automatic_doubles``, ``max_cube``, ``rated``, ``private`` and ``clock_settings`` (a
    ``ClockSettings``). A name left out takes ``match_challenge``'s default, so the page and
    the API make the same match of the same terms."""
    money_play = bool(values.get("money", False))
    return match_challenge(
        challenger=challenger,
        opponent=opponent,
        length=None if money_play else values.get("length"),
        money_play=money_play,
        stake_cents=values.get("stake_cents", 0),
        currency=values.get("currency", Currency.FUN),
        jacoby=values.get("jacoby", True),
        beavers=values.get("beavers", False),
        raccoons=values.get("raccoons", False),
        automatic_doubles=values.get("automatic_doubles", 0),
        max_cube=values.get("max_cube"),
        rated=values.get("rated", True),
        private=values.get("private", False),
        clock_settings=values.get("clock_settings") or DEFAULT_CLOCK,
    )


def _money_rules(
    match: Match,
    jacoby: bool,
    beavers: bool,
    raccoons: bool,
    automatic_doubles: int,
    max_cube: int | None,
) -> None:
    if match.stake_cents <= 0:
        raise DomainError(_("A money session needs a stake per point of at least 0.01"))
    max_cube = money.DEFAULT_MAX_CUBE if max_cube is None else max_cube
    if not 0 <= automatic_doubles <= MAX_AUTOMATIC_DOUBLES:
        raise DomainError(
            _("Allow 0 to %(most)s automatic doubles per game") % {"most": MAX_AUTOMATIC_DOUBLES}
        )
    options = MatchOptions(
        jacoby=jacoby,
        beavers=beavers,
        raccoons=raccoons,
        automatic_doubles=automatic_doubles,
        max_cube=max_cube,
    )
    try:
        MatchState(length=0, options=options)  # the house rules' own checks
    except BackgammonError as refusal:
        raise DomainError(rules_refused(refusal)) from refusal
    match.kind, match.length, match.max_cube, match.rated = MatchKind.MONEY, 0, max_cube, False
    match.jacoby, match.beavers, match.raccoons = jacoby, beavers, raccoons
    match.automatic_doubles = automatic_doubles


def require_opponent_may_play(opponent: User, *, currency: str) -> None:
    """Refuse play against someone whose standing bars it (``accounts.standing``).

    Why they may not is theirs to read on their own page, not the asker's: a suspension's
    reason or a self-exclusion stays private.
    """
    try:
        require_may_play(opponent, currency=currency)
    except Forbidden:
        words = (
            _("%(name)s cannot play for real money at the moment.")
            if currency == Currency.REAL
            else _("%(name)s cannot play matches at the moment.")
        )
        raise Forbidden(words % {"name": opponent.profile.display_name}) from None


def checked_length(length: int | None) -> int:
    """``length`` if a match may be played to it; refused with the range otherwise."""
    if length is None or not 1 <= length <= MAX_MATCH_LENGTH:
        raise DomainError(
            _("A match is played to 1 to %(most)s points") % {"most": MAX_MATCH_LENGTH}
        )
    return length


@transaction.atomic
def pass_and_play_create(*, user: User, length: int) -> Match:
    """An unrated match without stake for two people sharing one screen."""
    match = Match.objects.create(
        kind=MatchKind.MATCH,
        length=checked_length(length),
        player_0=user,
        player_1=user,
        pass_and_play=True,
        rated=False,
        private=True,
        clock=ClockKind.NONE,
        dice_seed=fair_dice.new_seed(),
    )
    start_match(match)
    return match


@dataclass(frozen=True)
class Pair:
    """Two seated players of a tournament (their ids) and the length of their match; a
    swing tournament's game says its terms instead (``swing``)."""

    player_0_id: int
    player_1_id: int
    length: int
    swing: SwingTerms | None = None


@dataclass(frozen=True)
class SwingTerms:
    """A swing tournament's game: one money-style game for chips (``match_length`` 0), or
    in match swing a match to ``match_length`` without a Crawford game, with a match cube.
    The chips themselves are the tournament's (``tournaments.swing``)."""

    chips_per_point: int
    chip_stake: int
    all_in: bool
    max_cube: int
    match_length: int = 0
    max_match_cube: int = 0
    jacoby: bool = False
    beavers: bool = False

    def apply(self, match: Match) -> None:
        match.chips_per_point, match.chip_stake = self.chips_per_point, self.chip_stake
        match.all_in, match.rated = self.all_in, False
        if self.match_length:
            match.kind, match.length = MatchKind.MATCH, checked_length(self.match_length)
            match.crawford_rule, match.match_cube = False, 1
            match.max_match_cube = self.max_match_cube
            return
        match.kind, match.length, match.game_limit = MatchKind.MONEY, 0, 1
        match.max_cube, match.jacoby, match.beavers = self.max_cube, self.jacoby, self.beavers


@transaction.atomic
def matches_create_for_tournament(
    *,
    tournament_id: int | None,
    pairs: Sequence[Pair],
    clock_settings: ClockSettings = DEFAULT_CLOCK,
    show_up_seconds: int | None = None,
    rated: bool = True,
    abandon_policy: str = AbandonPolicy.ENGINE,
) -> list[Match]:
    """A tournament's matches between seated players, started at once and together (a
    whole round in a few statements, ``matches.lifecycle.start_matches``).

    The money is the tournament's, so no stake moves here. With ``show_up_seconds`` a
    player who has neither connected nor acted by then forfeits the match. A player barred
    from play (suspended or closed) forfeits it at once (``matches.forfeits``).
    """
    show_up_by = (
        timezone.now() + timedelta(seconds=show_up_seconds) if show_up_seconds is not None else None
    )
    matches = []
    for pair in pairs:
        match = Match(
            kind=MatchKind.MATCH,
            length=checked_length(pair.length) if pair.swing is None else 0,
            player_0_id=pair.player_0_id,
            player_1_id=pair.player_1_id,
            rated=rated,
            tournament_id=tournament_id,
            abandon_policy=abandon_policy,
            dice_seed=fair_dice.new_seed(),
            show_up_by=show_up_by,
        )
        if pair.swing is not None:
            pair.swing.apply(match)
        clock.set_clock(match, clock_settings)
        matches.append(match)
    start_matches(matches)
    barred_forfeits_at_start(matches)
    return matches


# ---------------------------------------------------------------- answering a challenge


@transaction.atomic
def match_accept(*, match_id: int, user: User, staff_ordered: bool = False) -> Match:
    """Accept an invitation: stakes go into escrow and the opening roll is thrown.

    Accepted again meanwhile (a double tap, another tab), it is a 409 saying so. A stake
    that was covered when checked may not be when it moves: the challenger's other
    challenge, accepted at the same moment, took it. The ledger then refuses under its
    lock, and the cover is checked again, so the accepter reads whose balance fell short
    (theirs, or the challenger's by name), never the challenger's as their own.
    """
    match = lock_match(match_id)
    if match.player_1_id != user.pk:
        raise Forbidden(_("Only the player challenged can accept this invitation"))
    if match.status != MatchStatus.INVITED:
        raise Conflict(_answered_already(match))
    if not staff_ordered:
        require_may_play(user, currency=match.currency)
        require_opponent_may_play(match.player_0, currency=match.currency)
        require_not_blocked(user, match.player_0, doing="play against")
    money.require_cover(match, seats=(1, 0), asker=user)
    try:
        money.escrow_stakes(match)
        start_match(match)
    except InsufficientFunds:
        money.require_cover(match, seats=(1, 0), asker=user)  # the balances now committed
        raise
    events.publish_answer(match, "accepted")
    return match


def _answered_already(match: Match) -> str:
    if match.status == MatchStatus.DECLINED:
        return _("This challenge was declined.")
    if match.status == MatchStatus.CANCELLED:
        return _("This challenge was withdrawn by the challenger.")
    return _("This challenge was already accepted: the match has started.")


@transaction.atomic
def match_decline(*, match_id: int, user: User) -> Match:
    """The opponent declines, or the challenger withdraws, an invitation."""
    match = lock_match(match_id)
    seat = match.seat_of(user)
    if seat is None:
        raise Forbidden(_("This invitation is not yours"))
    if match.status != MatchStatus.INVITED:
        raise Conflict(
            _("This invitation is %(state)s already")
            % {"state": _(match.get_status_display()).lower()}
        )
    match.status = MatchStatus.DECLINED if seat == 1 else MatchStatus.CANCELLED
    match.save(update_fields=["status"])
    events.publish_match(match, since=match.last_seq)
    events.publish_answer(match, "declined" if seat == 1 else "withdrawn")
    return match


def match_replay(match: Match) -> Match:
    """A new match between the same players on the same terms, started at once."""
    replay = match_challenge(
        challenger=match.player_0,
        opponent=match.player_1,
        length=match.length,
        stake_cents=match.stake_cents,
        currency=match.currency,
        rated=match.rated,
        private=match.private,
        clock_settings=clock.clock_of(match),
        staff_ordered=True,
    )
    if replay.status != MatchStatus.INVITED:  # the computer's seat accepted already
        return replay
    return match_accept(match_id=replay.pk, user=match.player_1, staff_ordered=True)
