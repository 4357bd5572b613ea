"""What a wallet's lines were for, as the player reads them: the match or the tournament
whose escrow a line moved money through, named and linked (``accounts.ledger.reads`` asks
``LobbyConfig.ready``'s namers for them). Reads only.
"""

from __future__ import annotations

from collections.abc import Collection

from django.urls import reverse
from django.utils.translation import gettext, ngettext

from accounts.ledger.reads import EscrowName
from accounts.models import User
from matches.models import Match
from tournaments.models import Tournament


def match_escrow_names(*, owner: User, ids: Collection[int]) -> dict[int, EscrowName]:
    """Matches as ``owner`` played them: "5-point match against Bruno Costa"."""
    matches = Match.objects.filter(pk__in=ids).select_related(
        "player_0__profile", "player_1__profile"
    )
    return {
        match.pk: EscrowName(
            _escrow_words(match, _opponent_of(match, owner).profile.display_name),
            reverse("match", args=[match.pk]),
        )
        for match in matches
    }


def _escrow_words(match: Match, opponent: str) -> str:
    if match.is_money:
        return gettext("Money session against %(name)s") % {"name": opponent}
    return ngettext(
        "%(length)s-point match against %(name)s",
        "%(length)s-point match against %(name)s",
        match.length,
    ) % {"length": match.length, "name": opponent}


def _opponent_of(match: Match, player: User) -> User:
    return match.player_0 if match.player_1_id == player.pk else match.player_1


def tournament_escrow_names(*, owner: User, ids: Collection[int]) -> dict[int, EscrowName]:
    """Tournaments by their names: "Friday Knockout"."""
    tournaments = Tournament.objects.filter(pk__in=ids).values_list("pk", "name")
    return {pk: EscrowName(name, reverse("tournament", args=[pk])) for pk, name in tournaments}
