"""Practice against the computer: GNU Backgammon plays seat 1 through the same services.

Each strength is a user of its own (``gnubg-<strength>``), so the engine's actions are
logged, clocked and published like anyone's. After a person acts, a task on the
analysis queue lets the engine take every action that falls to it: cube decisions,
rolls, plays and answers to resignations.

The same turn plays a demo player the computer plays (``matches.creation.computer_strength``)
against a person: the demo player sits in seat 1 and the match carries their strength. In a
tournament the computer plays every demo player's seat (``lifecycle.computer_seats``), both
seats of a match between two of them: it never wakes itself, so such a match moves at most
``MAX_ENGINE_ACTIONS`` a turn of this task and is taken up again by ``engines_woken``.

Where no engine is installed practice is refused with the reason. An engine call that
fails leaves the move to be asked again by ``engines_woken`` (every 30 s, after
``ENGINE_PATIENCE``); once the computer has failed to act for ``ENGINE_GIVE_UP`` (or at
once, when the engine is not installed) the match is voided, every stake it holds given back
(a money session's game in play, ``lifecycle.session_void``), and the players told why. A
tournament's match is not voided: its clock and show-up time decide it as any other's.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta

from django.contrib.auth.models import Group
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, override

from accounts.models import Profile, User
from analysis.engine import EngineError, EngineUnavailable, EvalSettings, Strength
from backgammon.turns import GameState, Phase, game_points
from core.errors import DomainError, NotInstalled
from core.tasks import enqueue
from matches import dice as fair_dice
from matches import events
from matches.actions import PlayerAction, allowed
from matches.creation import checked_length
from matches.engine import engine, engine_status
from matches.lifecycle import (
    ENGINE_SEAT,
    ENGINE_TURN_TASK,
    computer_seats,
    match_void,
    seat_strength,
    session_void,
    start_match,
)
from matches.models import ClockKind, Game, Match, MatchKind, MatchStatus
from matches.play import action_submit
from matches.state import current_game, game_rules, game_state, lock_match, match_gnubg_id

logger = logging.getLogger(__name__)
ENGINE_GROUP = "engine"
STRENGTH_NAMES = {
    Strength.BEGINNER: gettext_lazy("Beginner"),
    Strength.CASUAL: gettext_lazy("Casual player"),
    Strength.INTERMEDIATE: gettext_lazy("Intermediate"),
    Strength.ADVANCED: gettext_lazy("Advanced"),
    Strength.WORLD_CLASS: gettext_lazy("Expert"),
}
MAX_ENGINE_ACTIONS = 12  # a turn is at most: answer, double or roll, play; bounded for safety
# The computer answers within seconds; one that has said nothing for this long lost its
# request (a worker killed, the engine failed, the broker away) and is asked again.
ENGINE_PATIENCE = timedelta(seconds=20)
# A computer that has failed to act for this long will not: the match is voided.
ENGINE_GIVE_UP = timedelta(minutes=2)
ERROR_KEPT = 500  # characters of the engine's error kept in the voided match's record


def engine_user(strength: Strength) -> User:
    """The user the engine plays as at ``strength``, made on first use."""
    username = f"gnubg-{strength.value.replace('_', '-')}"
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user
    with transaction.atomic():
        user = User.objects.create(username=username, is_active=True)
        user.set_unusable_password()
        user.save(update_fields=["password"])
        with override("en"):  # a name, the same to everyone
            display_name = f"GNU Backgammon ({STRENGTH_NAMES[strength]})"
        Profile.objects.create(user=user, display_name=display_name)
        group, _created = Group.objects.get_or_create(name=ENGINE_GROUP)
        user.groups.add(group)
    return user


@transaction.atomic
def practice_create(*, user: User, length: int, strength: str) -> Match:
    """An unrated match without clock or stake against the engine at ``strength``."""
    found = engine_status()
    if not found.available:
        raise NotInstalled(
            _("Practice against the computer is unavailable here: %(reason)s.")
            % {"reason": found.reason}
        )
    try:
        level = Strength(strength)
    except ValueError:
        names = ", ".join(s.value for s in Strength)
        raise DomainError(_("Choose a strength: %(names)s") % {"names": names}) from None
    checked_length(length)
    match = Match.objects.create(
        kind=MatchKind.MATCH,
        length=length,
        player_0=user,
        player_1=engine_user(level),
        rated=False,
        private=True,
        clock=ClockKind.NONE,
        engine_strength=level.value,
        dice_seed=fair_dice.new_seed(),
    )
    start_match(match)
    return match


def engine_turn(*, match_id: int, now: datetime | None = None) -> int:
    """Take every action that falls to the engine now; returns how many it took. An engine
    that fails leaves its turn to be asked again, or voids the match (``now``: the time
    its silence is measured to)."""
    taken = 0
    for _turn in range(MAX_ENGINE_ACTIONS):
        match = Match.objects.select_related("player_0__profile", "player_1__profile").get(
            pk=match_id
        )
        if match.status != MatchStatus.PLAYING:
            return taken
        game = current_game(match)
        state = game_state(game)
        seat = state.to_act
        if seat is None or seat not in computer_seats(match):
            return taken
        strength = Strength(seat_strength(match, seat))
        may = allowed(state, seat, game_rules(match, game))
        try:
            action, position_id = _choose(match, game, state, may, strength, seat)
        except EngineError as error:
            _engine_failed(match_id, error, now or timezone.now())
            return taken
        try:
            action_submit(
                match_id=match_id, user=match.player(seat), action=action, play=position_id
            )
        except DomainError:
            # The position moved on under us (a person acted meanwhile): look again.
            continue
        taken += 1
    return taken


def _engine_failed(match_id: int, error: EngineError, now: datetime) -> None:
    """The computer could not act: asked again later, or the match voided when it has been
    silent for ``ENGINE_GIVE_UP`` or has no engine at all."""
    with transaction.atomic():
        match = lock_match(match_id)
        silent_since = match.actions.order_by("-seq").values_list("created_at", flat=True)[0]
        lasting = now - silent_since >= ENGINE_GIVE_UP
        if match.status != MatchStatus.PLAYING:
            return
        if match.tournament_id is not None:
            # A tournament's match goes on as any other: the demo player's clock runs out,
            # or they forfeit at the show-up time, and the bracket moves on.
            logger.warning("the computer of tournament match %s failed: %s", match_id, error)
            return
        if not isinstance(error, EngineUnavailable) and not lasting:
            logger.warning(
                "the computer of match %s failed; asked again later: %s", match_id, error
            )
            return
        logger.error("the computer of match %s failed for good; voided: %s", match_id, error)
        # The player reads why in a line; the operator's detail is in the log and the record.
        why = (
            "GNU Backgammon is not installed on this site"
            if isinstance(error, EngineUnavailable)
            else "GNU Backgammon failed to make its move"
        )
        key_prefix = f"match:{match_id}:engine-failed"
        cause: dict[str, object] = {"engine_failed": why, "error": str(error)[:ERROR_KEPT]}
        if match.is_money:  # a money session against a demo player: the game in play
            session_void(match, actor=match.player_1, key_prefix=key_prefix, cause=cause)
        else:
            match_void(match, staff=match.player_1, key_prefix=key_prefix, reason=why, cause=cause)
        events.publish_practice_voided(match, why)


def engines_woken(*, now: datetime | None = None) -> list[int]:
    """Ask the computer again in every practice match where it is to act and has said
    nothing for ``ENGINE_PATIENCE``; returns those matches. Its turn is safe to run twice:
    a request that was only slow finds nothing left to do."""
    moment = now or timezone.now()
    demo_to_act = Q(tournament_id__isnull=False) & (
        Q(games__turn=0, player_0__profile__bot_strength__gt="")
        | Q(games__turn=1, player_1__profile__bot_strength__gt="")
    )
    waiting = list(
        Match.objects.filter(
            Q(engine_strength__gt="", games__turn=ENGINE_SEAT) | demo_to_act,
            status=MatchStatus.PLAYING,
            games__finished_at__isnull=True,
            actions__seq=F("last_seq"),
            actions__created_at__lt=moment - ENGINE_PATIENCE,
        )
        .values_list("pk", flat=True)
        .distinct()
    )
    for match_id in waiting:
        enqueue(ENGINE_TURN_TASK, match_id)
    return waiting


def _choose(
    match: Match,
    game: Game,
    state: GameState,
    may: frozenset[PlayerAction],
    strength: Strength,
    seat: int,
) -> tuple[PlayerAction, str | None]:
    """The engine's action for ``seat`` and, for a play, the resulting Position ID; only
    actions the rules allow it now (``may``), so it never asks for one that would be
    refused."""
    seed = match.last_seq
    position = match_gnubg_id(match, game, state)
    if state.phase is Phase.DOUBLED:
        assert state.cube.offered_by is not None
        before = _offered_in(state, state.cube.offered_by)
        decision = engine().cube_decision(match_gnubg_id(match, game, before), strength, seed=seed)
        return (PlayerAction.TAKE if decision.take else PlayerAction.DROP), None
    if state.phase is Phase.RESIGNATION:
        accept = _resignation_is_enough(match, game, state, seat)
        return (PlayerAction.ACCEPT_RESIGN if accept else PlayerAction.REJECT_RESIGN), None
    if state.phase is Phase.ROLL:
        if PlayerAction.DOUBLE in may and _cube_alive(match, state, seat):
            decision = engine().cube_decision(position, strength, seed=seed)
            if decision.double:
                return PlayerAction.DOUBLE, None
        return PlayerAction.ROLL, None
    assert state.dice is not None
    choice = engine().best_move(position, state.dice, strength, seed=seed)
    return PlayerAction.PLAY, choice.position_id


def _cube_alive(match: Match, state: GameState, seat: int) -> bool:
    """Whether doubling could change anything for ``seat``: in a match, not once the cube
    already wins it all (in a 1-point match, ever). A double there costs nothing to
    offer or to take, so an engine asked may well say yes, turn after turn: between two
    demo players the cube would climb past what GNU Backgammon can read."""
    if match.is_money:
        return True
    needed = match.length - (match.score_1 if seat == 1 else match.score_0)
    return state.cube.value < needed


def _offered_in(state: GameState, offerer: int) -> GameState:
    """The position an offer (a double, a resignation) was made in, ``offerer`` to roll.

    GNU Backgammon evaluates positions, not offers waiting for an answer.
    """
    return replace(
        state,
        phase=Phase.ROLL,
        on_roll=offerer,
        board=state.board_for(offerer),
        dice=None,
        cube=replace(state.cube, offer=None, offered_by=None, offered_value=None),
        resigned_by=None,
        resign_level=None,
        resume_phase=None,
    )


def _resignation_is_enough(match: Match, game: Game, state: GameState, seat: int) -> bool:
    """Accept for ``seat`` when the points offered win it the match, or are at least what
    it expects to win by playing on."""
    assert state.resigned_by is not None
    offered = game_points(state, state.resign_level or 0, game_rules(match, game))
    score = match.score_1 if seat == 1 else match.score_0
    if not match.is_money and score + offered >= match.length:
        return True  # the match is won: playing on could only lose it
    offered_in = _offered_in(state, state.resigned_by)
    evaluation = engine().evaluate(match_gnubg_id(match, game, offered_in), EvalSettings(plies=0))
    me = evaluation.player(seat)
    expected = me.win + me.win_gammon + me.win_backgammon
    return (state.resign_level or 0) >= expected
