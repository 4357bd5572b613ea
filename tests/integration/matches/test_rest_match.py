"""Whole matches played through the REST API, with the rules, scoring and records."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from rest_framework.test import APIClient

from accounts import ledger
from accounts.models import Profile
from matches.models import Action, ActionKind, Match
from matches.verification import verify_match_dice
from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, api_for, start_match

pytestmark = pytest.mark.django_db


def test_a_rated_three_point_match_is_played_to_the_end_and_rates_both_players() -> None:
    # given
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    bot = Bot({"alice": alice, "bruno": bruno}, doubles=True)

    # when
    final = bot.play_out(match_id)

    # then
    assert final["status"] == "finished"
    assert max(final["score"]) >= 3
    winner = final["winner"]
    assert winner in {"alice", "bruno"}
    assert final["dice_check"]["seed"] is not None
    ratings = {p.user.username: p.rating for p in Profile.objects.select_related("user")}
    loser = "bruno" if winner == "alice" else "alice"
    assert ratings[winner] > 1500.0 > ratings[loser]
    assert Profile.objects.get(user__username=winner).experience == 3
    assert verify_match_dice(Match.objects.get(pk=match_id)).ok


def test_the_crawford_game_comes_once_a_player_is_one_away_and_forbids_doubling() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    bot = Bot({"alice": alice, "bruno": bruno}, doubles=False)
    crawford_seen = False
    while True:
        state = bot.state(match_id)
        if state["status"] != "playing":
            break
        if state["crawford"] and not crawford_seen:
            crawford_seen = True
            assert 2 in state["score"]
            game = state["game"]
            if game["phase"] == "roll":
                response = api_for({"alice": alice, "bruno": bruno}[game["turn"]]).post(
                    f"/api/matches/{match_id}/actions/",
                    {"type": "double", "seq": 99_999},
                    format="json",
                )
                assert response.status_code == 400
                assert response.json()["detail"] == "No doubling in the Crawford game"
        bot.step(match_id)
    games = list(
        Match.objects.get(pk=match_id).games.order_by("number").values_list("crawford", flat=True)
    )
    assert games.count(True) <= 1
    if crawford_seen:
        assert games.count(True) == 1


def test_an_illegal_play_gets_400_with_the_rule_and_changes_nothing() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=1)
    state = api_for(alice).get(f"/api/matches/{match_id}/").json()
    mover = state["game"]["turn"]
    client = api_for(alice if mover == "alice" else bruno)
    before = Action.objects.filter(match_id=match_id).count()

    response = client.post(
        f"/api/matches/{match_id}/actions/",
        {"type": "play", "play": "24/23", "seq": 1},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["detail"]
    assert Action.objects.filter(match_id=match_id).count() == before


def test_acting_out_of_turn_is_409_and_a_stranger_gets_403() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=1)
    state = api_for(alice).get(f"/api/matches/{match_id}/").json()
    waiting = bruno if state["game"]["turn"] == "alice" else alice

    out_of_turn = api_for(waiting).post(
        f"/api/matches/{match_id}/actions/", {"type": "roll", "seq": 1}, format="json"
    )
    stranger = api_for(UserFactory()).post(
        f"/api/matches/{match_id}/actions/", {"type": "roll", "seq": 1}, format="json"
    )

    assert out_of_turn.status_code == 409
    assert out_of_turn.json()["detail"] == "It is not your turn"
    assert stranger.status_code == 403


def test_a_repeated_sequence_number_is_answered_but_not_applied_twice() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=1)
    bot = Bot({"alice": alice, "bruno": bruno})
    bot.step(match_id)  # the opening play
    state = bot.state(match_id)
    client = bot.clients[state["game"]["turn"]]
    body = {"type": "roll", "seq": 500}

    first = client.post(f"/api/matches/{match_id}/actions/", body, format="json")
    again = client.post(f"/api/matches/{match_id}/actions/", body, format="json")

    assert first.status_code == again.status_code == 200
    assert Action.objects.filter(match_id=match_id, kind=ActionKind.ROLL).count() == 1
    assert again.json()["game"]["dice"] == first.json()["game"]["dice"]


def test_a_malformed_action_gets_400_naming_the_field() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=1)

    response = api_for(alice).post(
        f"/api/matches/{match_id}/actions/", {"type": "teleport"}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["detail"].startswith("type:")


def test_a_drop_ends_the_game_at_the_value_before_the_double() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=5)
    bot = Bot({"alice": alice, "bruno": bruno}, doubles=True, drops=True)
    while not Action.objects.filter(match_id=match_id, kind=ActionKind.DROP).exists():
        bot.step(match_id)

    state = bot.state(match_id)

    assert sorted(state["score"]) == [0, 1]
    assert state["game"]["number"] == 2


def test_resignation_offered_rejected_then_accepted() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    bot = Bot({"alice": alice, "bruno": bruno})
    bot.step(match_id)
    resigner = bot.state(match_id)["game"]["turn"]
    other = "bruno" if resigner == "alice" else "alice"

    offered = bot.act(match_id, resigner, {"type": "resign", "resign": "gammon"})
    assert offered["game"]["resignation"]["by"] == resigner
    assert offered["game"]["resignation"]["level"] == "gammon"
    rejected = bot.act(match_id, other, {"type": "reject_resign"})
    assert rejected["game"]["resignation"] is None
    assert rejected["game"]["turn"] == resigner
    bot.act(match_id, resigner, {"type": "resign", "resign": "single"})
    accepted = bot.act(match_id, other, {"type": "accept_resign"})

    assert accepted["score"][0 if other == "alice" else 1] == 1
    assert accepted["game"]["number"] == 2


def test_anyone_may_watch_a_public_match_but_sees_no_legal_plays() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=1)

    spectator = APIClient().get(f"/api/matches/{match_id}/")

    assert spectator.status_code == 200
    assert spectator.json()["seat"] is None
    assert spectator.json()["game"]["legal_positions"] == []


def test_a_private_match_is_hidden_from_others() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=1, private=True)

    assert APIClient().get(f"/api/matches/{match_id}/").status_code == 404
    assert api_for(bruno).get(f"/api/matches/{match_id}/").status_code == 200


def test_a_staked_match_pays_the_pot_less_commission_to_the_winner() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    start = {u: ledger.balance(user=u, currency="FUN") for u in (alice, bruno)}
    match_id = start_match(alice, bruno, length=1, stake_cents=1000, currency="FUN")
    for user in (alice, bruno):
        assert ledger.balance(user=user, currency="FUN") == start[user] - 1000

    final = Bot({"alice": alice, "bruno": bruno}).play_out(match_id)

    winner, loser = (alice, bruno) if final["winner"] == "alice" else (bruno, alice)
    assert ledger.balance(user=winner, currency="FUN") == start[winner] + 1000 - 2 * 65
    assert ledger.balance(user=loser, currency="FUN") == start[loser] - 1000
    assert ledger.currency_total("FUN") == 0


def test_a_money_session_settles_every_game_with_commission() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    start = {u: ledger.balance(user=u, currency="FUN") for u in (alice, bruno)}
    match_id = start_match(alice, bruno, money=True, stake_cents=100, currency="FUN", max_cube=4)
    bot = Bot({"alice": alice, "bruno": bruno})
    while Match.objects.get(pk=match_id).games.count() < 3:
        bot.step(match_id)

    match = Match.objects.get(pk=match_id)
    finished = match.games.exclude(winner_seat=None)
    won = {0: 0, 1: 0}
    commission = 0
    for game in finished:
        won[game.winner_seat] += game.points * 100
        commission += 2 * (3 if game.points * 100 < 50 else -(-game.points * 100 * 65 // 1000))
    escrowed = 3 * 4 * 100  # the running game's exposure, per player
    assert ledger.balance(user=alice, currency="FUN") == start[alice] - escrowed + won[0] - won[
        1
    ] - (commission_share(finished, 0))
    assert ledger.currency_total("FUN") == 0


def commission_share(games: object, seat: int) -> int:
    from accounts.money import winner_commission_cents

    return sum(winner_commission_cents(g.points * 100) for g in games if g.winner_seat == seat)


def test_verify_dice_command_catches_a_tampered_log() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=1)
    Bot({"alice": alice, "bruno": bruno}).play_out(match_id)
    call_command("verify_dice", str(match_id))

    roll = Action.objects.filter(match_id=match_id, kind=ActionKind.ROLL).first()
    assert roll is not None
    forged = "66" if roll.dice != "66" else "11"
    with connection.cursor() as cursor:  # someone with the database's keys forges a roll
        cursor.execute("SET session_replication_role = replica")  # triggers off
        Action.objects.filter(pk=roll.pk).update(dice=forged)
        cursor.execute("SET session_replication_role = origin")

    report = verify_match_dice(Match.objects.get(pk=match_id))
    assert not report.ok
    assert f"the log says {forged}" in report.mismatches[0]
    with pytest.raises(Exception, match="do not match the seed"):
        call_command("verify_dice", str(match_id))


def test_the_database_refuses_to_change_or_delete_the_action_log() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=1)
    action = Action.objects.filter(match_id=match_id).first()
    assert action is not None

    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Action.objects.filter(pk=action.pk).update(dice="66")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Action.objects.filter(pk=action.pk).delete()
