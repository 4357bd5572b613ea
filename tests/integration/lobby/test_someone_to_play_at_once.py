"""Someone to play at once: demo players the computer plays, and "Play now" that never
leaves a newcomer waiting nor puts them into a money session they did not ask for."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import Profile, User
from core.errors import DomainError, NotInstalled
from lobby import seeks
from lobby.models import NoticeKind, Notification, Seek
from lobby.seeks import SeekTerms
from matches.creation import match_challenge
from matches.models import Action, Match, MatchKind, MatchStatus
from matches.practice import engine_turn
from tests.integration.lobby.helpers import player
from tests.integration.matches.helpers import api_for, quick_play

pytestmark = pytest.mark.django_db(transaction=True)


def demo_player(username: str, *, rating: float = 1500.0, strength: str = "beginner") -> User:
    return player(username, rating=rating, bot_strength=strength)


def test_a_demo_player_accepts_a_challenge_at_once_and_the_computer_plays_their_seat() -> None:
    # given Nikos, a demo player the computer plays
    newcomer, nikos = player("newcomer"), demo_player("nikos")

    # when the newcomer challenges him to a 3-point match
    match = match_challenge(challenger=newcomer, opponent=nikos, length=3)

    # then the match has started, the computer in Nikos's seat, waiting only for the newcomer
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    assert (match.player_0, match.player_1) == (newcomer, nikos)
    assert match.engine_strength == "beginner"
    assert match.seen_1
    assert not match.seen_0
    assert match.show_up_by is not None
    # and the newcomer hears he accepted
    [told] = Notification.objects.filter(user=newcomer, kind=NoticeKind.CHALLENGE_ACCEPTED)
    assert told.text == "Nikos accepted your challenge: your 3-point match is ready."


def test_the_computer_plays_the_demo_players_turns_until_the_match_is_over() -> None:
    # given a 1-point match against Nikos
    newcomer, nikos = player("newcomer"), demo_player("nikos")
    match = match_challenge(challenger=newcomer, opponent=nikos, length=1)
    client = api_for(newcomer)

    # when the newcomer plays whenever it is his turn, and the computer answers
    for seq in range(1, 400):
        engine_turn(match_id=match.pk)
        state = client.get(f"/api/matches/{match.pk}/").json()
        if state["status"] != "playing":
            break
        game = state["game"]
        assert game["turn"] == "newcomer", "the computer left Nikos's turn untaken"
        if game["phase"] == "doubled":
            body = {"type": "take"}
        elif game["phase"] == "roll":
            body = {"type": "roll"}
        else:
            body = {"type": "play", "play": quick_play(game["legal_plays"])}
        response = client.post(
            f"/api/matches/{match.pk}/actions/", {**body, "seq": seq}, format="json"
        )
        assert response.status_code == 200, response.json()

    # then the match is over, and Nikos's moves are in the log as his
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert Action.objects.filter(match=match, actor=nikos, kind="play").exists()


def test_two_demo_players_challenging_each_other_are_left_to_themselves() -> None:
    nikos, olga = demo_player("nikos"), demo_player("olga")

    match = match_challenge(challenger=nikos, opponent=olga, length=1)

    assert match.status == MatchStatus.INVITED
    assert match.engine_strength == ""


def test_play_now_with_nobody_waiting_plays_the_closest_demo_player_in_a_fun_match() -> None:
    # given two demo players and nobody seeking
    newcomer = player("newcomer", rating=1500.0)
    demo_player("alice", rating=1872.0, strength="advanced")
    kate = demo_player("kate", rating=1510.0, strength="casual")

    # when the newcomer presses "Play now"
    found = seeks.play_now(user=newcomer)

    # then he plays Kate, the closest in rating, a match to 5 points without a stake
    assert isinstance(found, Match)
    assert (found.player_0, found.player_1) == (newcomer, kate)
    assert (found.kind, found.length, found.stake_cents) == (MatchKind.MATCH, 5, 0)
    assert found.status == MatchStatus.PLAYING
    assert found.engine_strength == "casual"


def test_play_now_never_takes_a_money_session() -> None:
    # given the only seek is a money session at 0.50 FUN a point
    newcomer = player("newcomer")
    seeks.seek_post(
        user=player("olga"), terms=SeekTerms(kind=MatchKind.MONEY, length=0, stake_cents=50)
    )

    # when the newcomer presses "Play now"
    found = seeks.play_now(user=newcomer)

    # then nothing is started with money per point: he waits with a seek of his own
    assert isinstance(found, Seek)
    assert found.creator == newcomer
    assert found.kind == MatchKind.MATCH
    assert not Match.objects.filter(kind=MatchKind.MONEY).exists()


def test_play_now_passes_over_a_seek_its_creator_left_long_ago_for_a_demo_player() -> None:
    # given a person's seek posted an hour ago, and a demo player
    newcomer = player("newcomer")
    old = seeks.seek_post(user=player("gone"), terms=SeekTerms())
    Seek.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=1))
    nikos = demo_player("nikos")

    found = seeks.play_now(user=newcomer)

    assert isinstance(found, Match)
    assert found.player_1 == nikos
    old.refresh_from_db()
    assert old.taken_by is None


def test_play_now_takes_an_old_seek_whose_creator_is_on_the_site_now() -> None:
    # given an hour-old seek by Chloé, who is reading the site this minute
    newcomer, chloe = player("newcomer"), player("chloe")
    demo_player("nikos")
    old = seeks.seek_post(user=chloe, terms=SeekTerms())
    Seek.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=1))
    Profile.objects.filter(user=chloe).update(seen_at=timezone.now())

    found = seeks.play_now(user=newcomer)

    assert isinstance(found, Match)
    assert (found.player_0, found.player_1) == (chloe, newcomer)


def test_play_now_takes_a_fresh_seek_of_a_person_before_any_demo_player() -> None:
    newcomer, chloe = player("newcomer"), player("chloe")
    demo_player("nikos")
    seeks.seek_post(user=chloe, terms=SeekTerms(length=3))

    found = seeks.play_now(user=newcomer)

    assert isinstance(found, Match)
    assert (found.player_0, found.player_1, found.engine_strength) == (chloe, newcomer, "")


def test_a_demo_players_seek_is_taken_with_the_computer_in_seat_1() -> None:
    # given Nikos's seek for a 5-point match
    newcomer, nikos = player("newcomer"), demo_player("nikos")
    seek = seeks.seek_post(user=nikos, terms=SeekTerms())

    # when the newcomer takes it
    match = seeks.seek_accept(seek_id=seek.pk, user=newcomer)

    # then the newcomer sits in seat 0 and the computer plays Nikos in seat 1
    assert match.status == MatchStatus.PLAYING
    assert (match.player_0, match.player_1, match.engine_strength) == (newcomer, nikos, "beginner")
    seek.refresh_from_db()
    assert (seek.taken_by, seek.match) == (newcomer, match)
    # and nobody is told "took your seek" of a seek they did not post
    assert not Notification.objects.filter(kind=NoticeKind.SEEK_TAKEN).exists()


def test_the_lobby_and_the_profile_say_the_computer_plays_a_demo_player() -> None:
    from django.test import Client

    nikos = demo_player("nikos", strength="intermediate")
    seeks.seek_post(user=nikos, terms=SeekTerms())
    visitor = Client()

    lobby = visitor.get("/play/seeks/").content.decode()
    profile = visitor.get("/players/nikos/").content.decode()

    assert "Computer-played demo player, intermediate" in lobby
    assert "Computer-played demo player, intermediate" in profile


def test_the_challenge_form_to_a_demo_player_opens_the_board() -> None:
    from django.test import Client

    newcomer = player("newcomer")
    demo_player("nikos")
    client = Client()
    client.force_login(newcomer)

    answer = client.post(
        "/play/challenge/",
        {
            "opponent": "nikos",
            "kind": "match",
            "length": "3",
            "stake": "0",
            "currency": "FUN",
            "clock": "standard",
            "clock_kind": "delay",
            "move_seconds": "12",
            "reserve_seconds": "60",
            "timeout_loses": "match",
            "max_cube": "16",
            "rated": "on",
        },
    )

    match = Match.objects.get(player_0=newcomer)
    assert answer.status_code == 302
    assert answer["Location"] == f"/matches/{match.pk}/"
    assert match.status == MatchStatus.PLAYING


def test_a_demo_player_who_cannot_cover_a_play_money_challenge_refuses_it_in_words() -> None:
    from accounts import ledger
    from tests.integration.disputes.helpers import staff

    newcomer, nikos = player("newcomer"), demo_player("nikos")
    theirs = ledger.balance(user=nikos, currency="FUN")
    ledger.deposit(
        user=newcomer,
        currency="FUN",
        amount_cents=theirs + 10_000,
        reason="test",
        staff=staff(),
        key="d",
    )

    with pytest.raises(DomainError, match=r"Nikos's FUN balance is "):
        match_challenge(
            challenger=newcomer, opponent=nikos, length=3, stake_cents=theirs + 100, currency="FUN"
        )

    assert not Match.objects.exists()


def test_without_an_engine_play_now_waits_and_a_demo_player_says_why_they_cannot_play(
    settings: Any,
) -> None:
    # given a site without GNU Backgammon, and a demo player
    settings.CRAWFORD_ENGINE = "none"
    newcomer, nikos = player("newcomer"), demo_player("nikos")

    # when the newcomer presses "Play now", then challenges Nikos himself
    found = seeks.play_now(user=newcomer)
    with pytest.raises(NotInstalled, match="Nikos is played by the computer, which is unavailable"):
        match_challenge(challenger=newcomer, opponent=nikos, length=3)

    # then he waits with a seek of his own, and no match against Nikos was made
    assert isinstance(found, Seek)
    assert not Match.objects.exists()
