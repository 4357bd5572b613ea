"""What the API's fuzz tests share: the refusals the rules make, the checks every answer
passes, and who sends the requests (``Caller``). The tests, one file for each caller so that
the suite's processes run them side by side: ``test_as_a_player.py``, ``test_as_staff.py``,
``test_as_an_organizer.py``; the fixtures are in ``conftest.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import hypothesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from knox.models import AuthToken
from knox.settings import CONSTANTS
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.models import User
from accounts.roles import Role
from matches.models import Match, MatchStatus
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match
from tournaments import services
from tournaments.models import Tournament, TournamentFormat
from tournaments.settings.general import EDITABLE_STATES, TournamentSettings

# Per operation and caller; the three runs together are the suite's slowest minutes. Fewer
# examples save little: the time goes to the requests (authentication, permissions and
# throttles are a third of that) and to the schema's explicit examples, which run anyway.
EXAMPLES = 18

# Requests the schema allows that the rules refuse, by operation: a 400 whose ``detail``
# matches passes. A schema says what a request looks like; it cannot say that a password
# is right, that a named player exists, that a balance covers a stake, that a start time is
# still ahead, or that one field needs another (the operation's description says those in
# words). Anything else the server refuses as a 400 is a schema that promises too much.
BALANCE_SHORT = r"(Your|.+'s) (FUN|REAL) balance is .+; .+ needs "
NO_SUCH_PLAYER = r"There is no player called "
CLOCK_RULES = (
    r"clock: (A correspondence move takes from an hour to 14 days"
    r"|The move timer or delay must be 1 to 600 seconds)$"
)
TOURNAMENT_RULES = (
    r"(starts_at: Pick a start time in the future\."
    r"|check_in_minutes: A check-in needs a start time\."
    r"|fee_cents: A free tournament cannot charge a fee\."
    r"|target: "  # the satellite's target: it must exist, be the organizer's and take seats
    rf"|{CLOCK_RULES}"
    # the formats' settings that depend on one another or on the field
    r"|rounds: (Say how many rounds the Swiss has\.|\d+ players can play at most)"
    r"|top_cut: A top cut of \d+ needs at least"
    r"|advance_per_group: (Say how many of each group|1 to \d+ of each group)"
    r"|group_size: A knockout after the round robin needs groups"
    r"|last_chance_reenters_at: (Beside a double elimination|Coming back with)"
    r"|prize_table: (The shares add up to|A place of the .+ cannot pay more|\d+ paid places"
    r"|This tournament has no .+ to pay|Give the main flight's shares)"
    # a swing needs its chips and a CPP schedule that can be played
    r"|starting_chips: Say how many chips"
    r"|cpp_levels: (Give the CPP levels|The first CPP .+ is more than|The CPP levels rise)"
    r"|cpp_start: Give the CPP levels, or a starting CPP and a step: not both"
    r"|cpp_step: Say how much the CPP rises"
    r"|cpp_raise_minutes: Raise the CPP every"
    r"|flight_clocks: (main|losers|second_losers|consolation|last_chance|final): (clock \d+: )?"
    r"(A correspondence move takes from an hour to 14 days"
    r"|The move timer or delay must be 1 to 600 seconds)$"
    # a flight's clocks per round: one beside each of its match lengths
    r"|flight_clocks: The .+ lists \d+ match lengths?: give it one clock, or one clock for "
    r"each length"
    # entry limits that contradict each other
    r"|max_rating: The highest rating to enter \(\d+\) is below the lowest)"
)
# A division needs a name of its own in its event, and goes beside a main event only.
SIDE_EVENT_RULES = (
    rf"({TOURNAMENT_RULES}|division: (Name the division|.+ has a .+ division already)"
    r"|.+ is itself played beside another event; add to the main event\.$)"
)
# A division's entry limits keep out a player rated outside them or with too many matches.
ENTRY_LIMITS = (
    r".+ is for players (rated at (least|most) \d+; (your rating is|.+ is rated) "
    r"|with at most \d+ rated match(es)?; (you have|.+ has) played \d+\.$)"
)
OWN_WALLET = r"Staff cannot adjust their own wallet: another staff member must do it\.$"
NO_TIES = r"No players are tied for a place that matters\.$"
RULE_REFUSALS = {
    # a name taken or passing for another's, a password the password rules refuse (too
    # common, too like the username), an address the e-mail check refuses
    "POST /api/auth/signup/": (
        r"((username|password|email): |“.+” looks like another player's name: choose a )"
    ),
    "POST /api/auth/token/": r"Those are not a valid username and password\.$",
    # whose chat line it is, and whose name, no schema can say
    "POST /api/chat/{message_id}/report/": r"You cannot report your own message\.$",
    # a dispute's money decision must name someone, and something to move; a withdrawal
    # must be covered; an appeal is decided dismiss or uphold, a match's dispute otherwise
    "POST /api/disputes/{dispute_id}/decide/": (
        r"(Say whose wallet changes, in which currency and by how much\.$"
        r"|An adjustment of 0\.00 moves nothing; leave it out\.$"
        r"|An appeal is decided dismiss \(the sanctions stand\) or uphold \(they are lifted\)\.$"
        rf"|{NO_SUCH_PLAYER}|{BALANCE_SHORT}|{OWN_WALLET})"
    ),
    # staff name a player in the case (whether one is called that, and is in the case, no
    # schema can say); a sanction decision needs a sanction, a dismissal none; a mute or
    # suspension a date still ahead; moving money back, money that moved
    "POST /api/fairplay/cases/{case_id}/decide/": (
        r"(Choose at least one sanction, or dismiss the case\.$"
        r"|A dismissed case carries no sanction\.$"
        r"|A (muted|suspended) sanction needs a date in the future\.$"
        r"|.+ is not in this case\.$"
        r"|This case names no matches, so there is no money to move back\.$"
        r"|No money moved between these players in the case's matches\.$"
        rf"|{NO_SUCH_PLAYER})"
    ),
    "POST /api/matches/": (
        r'(Give a match "length" in points, or "money": true$'
        r"|A money session needs a stake per point of at least 0\.01$"
        r"|Raccoons answer beavers: allow beavers to allow raccoons$"
        rf"|{BALANCE_SHORT}|{CLOCK_RULES}|{NO_SUCH_PLAYER})"
    ),
    # either player's balance may no longer cover the stake when it is accepted
    "POST /api/matches/{match_id}/accept/": BALANCE_SHORT,
    # the site's word filter (CRAWFORD_CHAT_BANNED_WORDS)
    "POST /api/matches/{match_id}/chat/": r"That message was not sent: it holds a word ",
    "POST /api/notifications/read/": r'Send "ids", or "all": true, not both\.$',
    "POST /api/players/{username}/block/": r"You cannot mute or block yourself\.$",
    "POST /api/seeks/": (
        r'(Give a match "length" in points\.$|"min_rating" must not be above "max_rating"\.$'
        r"|A money session needs a stake per point of at least 0\.01$"
        rf"|You have .+; a .+ needs .+|{CLOCK_RULES})"
    ),
    # whose seek it is, the taker's rating against its range, the taker's balance
    "POST /api/seeks/{seek_id}/accept/": (
        r"(This is your own seek$|This seek is for players .+; your rating is \d+$"
        r"|This seek needs .+; you have .+$)"
    ),
    "POST /api/tournaments/": TOURNAMENT_RULES,
    "POST /api/tournaments/{tournament_id}/edit/": TOURNAMENT_RULES,
    # a buy-in the fuzzer's generated tournament asks for may be more than the wallet holds
    "POST /api/tournaments/{tournament_id}/register/": rf"({BALANCE_SHORT}|{ENTRY_LIMITS})",
    "POST /api/tournaments/{tournament_id}/replace/": rf"({NO_SUCH_PLAYER}|{ENTRY_LIMITS})",
    "POST /api/tournaments/{tournament_id}/beside/{kind}/": SIDE_EVENT_RULES,
    # whether players are tied for a place that matters, only the standings can say
    "POST /api/tournaments/{tournament_id}/share-ties/": NO_TIES,
    "POST /api/tournaments/{tournament_id}/tiebreak/": NO_TIES,
    "POST /api/tournaments/{tournament_id}/withdraw/": NO_SUCH_PLAYER,
    "POST /api/wallets/{username}/adjust/": rf"({BALANCE_SHORT}|{OWN_WALLET})",
    # an approved withdrawal the wallet no longer covers
    "POST /api/wallet-approvals/{approval_id}/approve/": BALANCE_SHORT,
}
# Operations whose every refusal in words (a ``detail``, no field ``errors``) is the rules'.
# The rules of backgammon refuse a roll, a move or a resignation the position does not
# allow, each with its own sentence; which are legal, no schema can say. Nor can a schema
# say which files are matches: an upload that is not one is refused with the reason (the
# line and why, or what GNU Backgammon said of it, or that the file is of no format read
# here, too large, or that too many wait already); the same for staff's screen of match
# files, which names the file.
REFUSED_IN_WORDS = {
    "POST /api/matches/{match_id}/actions/",
    "POST /api/analyses/",
    "POST /api/fairplay/screen/",
}


def _refused_by_the_rules(case: Any, response: Any) -> bool:
    if response.status_code != 400:
        return False
    answer = response.json()
    label = case.operation.label
    if label in REFUSED_IN_WORDS and "errors" not in answer:
        return True
    pattern = RULE_REFUSALS.get(label)
    return pattern is not None and re.match(pattern, answer.get("detail", "")) is not None


def schema_valid_requests_accepted(ctx: Any, response: Any, case: Any) -> bool | None:
    """``positive_data_acceptance``, but a refusal by the rules passes."""
    if _refused_by_the_rules(case, response):
        return None
    return positive_data_acceptance(ctx, response, case)


CHECKS = (
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
    schema_valid_requests_accepted,
)


@contextmanager
def connections_kept() -> Iterator[None]:
    """The WSGI handler closes database connections after each request; the test's
    transaction must outlive the requests, as Django's own test client arranges."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@dataclass
class Caller:
    """Who sends the requests: a user with an API token, and what of theirs a request the
    schema allows names, so that the operation does its work instead of answering 404:
    ``path`` (path parameters) and ``body`` (body fields), each a name and its value now."""

    user: User
    path: dict[str, Callable[[], object]]
    body: dict[str, object] = field(default_factory=dict)
    token: str = ""

    def authorization(self) -> dict[str, str]:
        """The caller's token, issued again when an operation (``logout-all``) revoked it:
        a revoked token would leave every later request a 401."""
        key = self.token[: CONSTANTS.TOKEN_KEY_LENGTH]
        if not AuthToken.objects.filter(user=self.user, token_key=key).exists():
            self.token = AuthToken.objects.create(user=self.user)[1]
        return {"Authorization": f"Token {self.token}"}

    def own(self, case: Any) -> None:
        """Point a request the schema allows at the caller's objects. A request meant to
        break the schema keeps what it was drawn with."""
        if case.meta is None or not case.meta.generation.mode.is_positive:
            return
        for name in case.path_parameters.keys() & self.path.keys():
            case.path_parameters[name] = str(self.path[name]())
        if isinstance(case.body, dict):
            case.body.update({name: self.body[name] for name in case.body.keys() & self.body})


def match_of(user: User, rival: User) -> Callable[[], int]:
    """The match ``user`` plays against ``rival``; a new one once a request resigned it."""

    def current() -> int:
        playing = Match.objects.filter(player_0=user, status=MatchStatus.PLAYING).first()
        return playing.pk if playing else start_match(user, rival, length=1)

    return current


def draft_of(organizer: User) -> Callable[[], int]:
    """A tournament ``organizer`` may still edit; a new draft once a request cancelled or
    started the last."""

    def current() -> int:
        editable = Tournament.objects.filter(organizer=organizer, state__in=EDITABLE_STATES)
        found = editable.order_by("-pk").first() or services.tournament_create(
            organizer=organizer,
            settings=TournamentSettings(name="Fuzz Open", format=TournamentFormat.KNOCKOUT),
        )
        return found.pk

    return current


def users_of(role: Role) -> tuple[User, User]:
    return (
        UserFactory.create(username=f"fuzz-{role.value}", role=role),
        UserFactory.create(username=f"fuzz-{role.value}-rival"),
    )


FUZZING = hypothesis.settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(hypothesis.HealthCheck),
    derandomize=True,
)


def call(case: Any, caller: Caller) -> None:
    caller.own(case)
    with connections_kept():
        case.call_and_validate(headers=caller.authorization(), checks=CHECKS)


# An organizer's settings (the largest bodies the API takes, and the slowest to generate)
# are fuzzed in the organizer's run (``test_as_an_organizer.py``); the player's and staff's
# runs leave out creating and editing a tournament, which only an organizer's settings reach
# past the refusal.
SETTINGS_OPERATIONS = r"^/api/tournaments/(\{tournament_id\}/edit/)?$"
