"""Practice against the computer: GNU Backgammon plays seat 1 through the same services.

Each strength is a user of its own (``gnubg-<strength>``), so the engine's actions are
logged, clocked and published like anyone's. After a person acts, a task on the
analysis queue lets the engine take every action that falls to it: cube decisions,
rolls, plays and answers to resignations.
"""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.db import transaction

from accounts.models import Profile, User
from analysis.engine import EvalSettings, Strength
from backgammon.turns import GameState, Phase
from config.errors import DomainError
from matches import dice as fair_dice
from matches import services
from matches.engine import engine
from matches.models import ClockKind, Match, MatchKind
from matches.positions import gnubg_id
from matches.services import MAX_MATCH_LENGTH, current_game, game_state

ENGINE_GROUP = "engine"
STRENGTH_NAMES = {
    Strength.BEGINNER: "Beginner",
    Strength.CASUAL: "Casual player",
    Strength.INTERMEDIATE: "Intermediate",
    Strength.ADVANCED: "Advanced",
    Strength.WORLD_CLASS: "Expert",
}
MAX_ENGINE_ACTIONS = 12  # a turn is at most: answer, double or roll, play; bounded for safety


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
        Profile.objects.create(
            user=user, display_name=f"GNU Backgammon ({STRENGTH_NAMES[strength]})"
        )
        group, _ = Group.objects.get_or_create(name=ENGINE_GROUP)
        user.groups.add(group)
    return user


@transaction.atomic
def practice_create(*, user: User, length: int, strength: str) -> Match:
    """An unrated match without clock or stake against the engine at ``strength``."""
    try:
        level = Strength(strength)
    except ValueError:
        names = ", ".join(s.value for s in Strength)
        raise DomainError(f"Choose a strength: {names}") from None
    if not 1 <= length <= MAX_MATCH_LENGTH:
        raise DomainError(f"A match is played to 1 to {MAX_MATCH_LENGTH} points")
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
    services.start_match(match)
    return match


def engine_turn(*, match_id: int) -> int:
    """Take every action that falls to the engine now; returns how many it took."""
    taken = 0
    for _ in range(MAX_ENGINE_ACTIONS):
        match = Match.objects.select_related("player_1").get(pk=match_id)
        if not match.engine_strength or match.status != "playing":
            return taken
        game = current_game(match)
        state = game_state(game)
        if state.to_act != 1:
            return taken
        strength = Strength(match.engine_strength)
        position = gnubg_id(state, match.length, (match.score_0, match.score_1), game.crawford)
        seed = match.last_seq
        kind, position_id = _choose(position, state, strength, seed)
        try:
            services.action_submit(
                match_id=match_id,
                user=match.player_1,
                kind=kind,
                position_id=position_id,
                engine=True,
            )
        except DomainError:
            # The position moved on under us (a person acted meanwhile): look again.
            continue
        taken += 1
    return taken


def _choose(
    position: str, state: GameState, strength: Strength, seed: int
) -> tuple[str, str | None]:
    """The engine's action and, for a play, the resulting Position ID."""
    if state.phase is Phase.DOUBLED:
        decision = engine().cube_decision(position, strength, seed=seed)
        return ("take" if decision.take else "drop"), None
    if state.phase is Phase.RESIGNATION:
        return (
            "accept_resign" if _resignation_is_enough(position, state) else "reject_resign"
        ), None
    if state.phase is Phase.ROLL:
        decision = engine().cube_decision(position, strength, seed=seed)
        if decision.double and state.cube.may_double(1):
            return "double", None
        return "roll", None
    assert state.dice is not None
    choice = engine().best_move(position, state.dice, strength, seed=seed)
    return "play", choice.position_id


def _resignation_is_enough(position: str, state: GameState) -> bool:
    """Accept when the points offered are at least what the engine expects to win."""
    evaluation = engine().evaluate(position, EvalSettings(plies=0))
    me = evaluation.player(1)
    expected = me.win + me.win_gammon + me.win_backgammon
    return (state.resign_level or 0) >= expected
