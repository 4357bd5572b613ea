"""Make tournaments and their players the way an organizer and players would."""

from __future__ import annotations

from typing import Any

from accounts import ledger
from accounts.models import User
from accounts.roles import Role
from matches.models import Match, MatchStatus
from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, api_for
from tournaments import services
from tournaments.models import Pairing, Tournament
from tournaments.settings.general import TournamentSettings


def organizer(username: str = "orla") -> User:
    # One display name each: two players may not share one (accounts.names).
    return UserFactory(
        username=username, display_name=f"{username.title()} Byrne", role=Role.ORGANIZER
    )


def players(count: int, *, prefix: str = "p") -> list[User]:
    """Players rated 1500 upwards, so seeding by rating is known: the last is seed 1."""
    return [
        UserFactory(
            username=f"{prefix}{n:02d}",
            display_name=f"{prefix.capitalize()} {n}",
            rating=1500.0 + n,
        )
        for n in range(count)
    ]


def open_tournament(owner: User, **settings: Any) -> Tournament:
    values: dict[str, Any] = {
        "name": "Spring Knockout",
        "format": "knockout",
        "buy_in_cents": 1000,
        "fee_cents": 65,
        "round_lengths": (1,),
        "clock": {"kind": "none"},
        **settings,
    }
    tournament = services.tournament_create(organizer=owner, settings=TournamentSettings(**values))
    return services.tournament_open(tournament_id=tournament.pk, user=owner)


def register_all(tournament: Tournament, entrants: list[User]) -> None:
    for player in entrants:
        services.entry_register(tournament_id=tournament.pk, user=player)


def live_matches(tournament: Tournament) -> list[Match]:
    return list(
        Match.objects.filter(tournament_id=tournament.pk, status=MatchStatus.PLAYING).order_by("pk")
    )


def play_round(tournament: Tournament, everyone: list[User]) -> int:
    """Play every live match of the tournament through the match API; returns how many."""
    matches = live_matches(tournament)
    by_id = {user.pk: user for user in everyone}
    for match in matches:
        seated = (by_id[match.player_0_id], by_id[match.player_1_id])
        Bot({user.username: user for user in seated}).play_out(match.pk)
    return len(matches)


def bracket_rows(tournament: Tournament) -> list[Pairing]:
    return list(Pairing.objects.filter(tournament=tournament).order_by("round", "position"))


def concede(match: Match, loser: User) -> None:
    """``loser`` resigns a single game through the match API and the opponent accepts."""
    winner_id = match.player_1_id if match.player_0_id == loser.pk else match.player_0_id
    for user, body in (
        (loser, {"type": "resign", "resign": "single"}),
        (User.objects.get(pk=winner_id), {"type": "accept_resign"}),
    ):
        client = api_for(user)
        state = client.get(f"/api/matches/{match.pk}/").json()
        seq = (state["your_last_seq"] or 0) + 1
        answer = client.post(
            f"/api/matches/{match.pk}/actions/", {**body, "seq": seq}, format="json"
        )
        assert answer.status_code == 200, answer.json()


def concede_round(tournament: Tournament) -> int:
    """The bottom player of every live match resigns; returns how many matches ended."""
    matches = live_matches(tournament)
    for match in matches:
        concede(match, User.objects.get(pk=match.player_1_id))
    return len(matches)


def assert_money_conserved(tournament: Tournament, field: list[User], before: int) -> None:
    """The pool paid out to the cent, only the fees (65 a seat) gone from the players, the
    books balanced and no match of the tournament still being played."""
    assert ledger.escrow_balance(escrow_ref=tournament.escrow_ref, currency="FUN") == 0
    after = sum(ledger.balance(user=user, currency="FUN") for user in field)
    assert after == before - len(field) * 65
    assert ledger.currency_total("FUN") == 0
    assert not Match.objects.filter(
        tournament_id=tournament.pk, status=MatchStatus.PLAYING
    ).exists()
