"""Players file disputes about their matches; one open dispute per player and match."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from disputes.models import AuditEntry, Dispute
from tests.factories import UserFactory
from tests.integration.disputes.helpers import anonymous, file, finished_match, staff
from tests.integration.matches.helpers import NOT_LOGGED_IN, api_for, refusal

pytestmark = pytest.mark.django_db


def test_a_player_files_a_dispute_about_their_match_and_it_waits_in_the_queue() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match = finished_match(alice, bruno)

    response = file(bruno, match, category="dice", description="Six doubles in a row.")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["match"] == match.pk
    assert body["filed_by"] == "bruno"
    assert body["category"] == "dice"
    assert body["state"] == "open"
    assert body["decision"] == ""
    dispute = Dispute.objects.get(pk=body["id"])
    assert dispute.description == "Six doubles in a row."
    assert AuditEntry.objects.filter(dispute=dispute, action="filed", actor=bruno).exists()


def test_a_second_open_dispute_about_the_same_match_is_refused() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match = finished_match(alice, bruno)
    assert file(bruno, match).status_code == 201

    again = file(bruno, match, category="clock")

    assert again.status_code == 409
    assert again.json()["detail"] == "You already have an open dispute about this match."
    assert file(alice, match).status_code == 201  # the other player has their own


def test_the_database_refuses_two_open_disputes_by_one_player_about_one_match() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match = finished_match(alice, bruno)
    Dispute.objects.create(match=match, filed_by=bruno, category="other", description="a")

    with pytest.raises(IntegrityError), transaction.atomic():
        Dispute.objects.create(match=match, filed_by=bruno, category="other", description="b")


def test_a_dispute_staff_have_decided_leaves_room_for_a_new_one() -> None:
    # given Bruno's open dispute about his match, which holds his place
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match = finished_match(alice, bruno)
    first = file(bruno, match).json()["id"]
    assert file(bruno, match).status_code == 409

    # when staff decide it from the console's API
    decided = api_for(staff()).post(
        f"/api/disputes/{first}/decide/",
        {"decision": "dismiss", "reason": "The dice were fair."},
        format="json",
    )
    assert decided.status_code == 200, decided.json()

    # then Bruno may file a new one, which waits in the queue
    again = file(bruno, match)
    assert again.status_code == 201, again.json()
    assert again.json()["id"] != first
    assert again.json()["state"] == "open"


def test_someone_who_did_not_play_cannot_dispute_the_match() -> None:
    alice, bruno, chloe = (UserFactory(username=name) for name in ("alice", "bruno", "chloe"))
    match = finished_match(alice, bruno)

    response = file(chloe, match)

    assert response.status_code == 403
    assert "Only the players" in response.json()["detail"]


def test_a_private_match_of_others_cannot_be_told_apart_from_a_missing_one() -> None:
    # given Alice and Bruno's private match, and an id no match has
    alice, bruno, chloe = (UserFactory(username=name) for name in ("alice", "bruno", "chloe"))
    private = finished_match(alice, bruno, private=True)
    missing_id = private.pk + 1000

    # when Chloe, who did not play it, files a dispute about each
    about_private = file(chloe, private)
    about_nothing = api_for(chloe).post(
        "/api/disputes/",
        {"match": missing_id, "category": "result", "description": "That was wrong."},
        format="json",
    )

    # then both answers are the same 404, word for word
    assert about_private.status_code == about_nothing.status_code == 404
    assert about_private.json() == about_nothing.json() == {"detail": "There is no such match."}
    assert not Dispute.objects.exists()


def test_a_dispute_needs_a_category_and_a_description() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match = finished_match(alice, bruno)

    blank = file(bruno, match, description="   ")
    unknown = file(bruno, match, category="luck")

    assert blank.status_code == 400
    assert blank.json()["errors"]["description"] == [
        "Describe what went wrong: staff read it first."
    ]
    assert unknown.status_code == 400
    assert unknown.json()["detail"].startswith("category:")


def test_anonymous_visitors_can_neither_file_nor_list() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match = finished_match(alice, bruno)
    client = anonymous()

    posted = client.post("/api/disputes/", {"match": match.pk}, format="json")
    listed = client.get("/api/disputes/")

    assert refusal(posted) == NOT_LOGGED_IN
    assert refusal(listed) == NOT_LOGGED_IN
    assert not Dispute.objects.exists()


def test_players_list_their_own_disputes_and_not_others() -> None:
    alice, bruno, chloe, dmitri = (
        UserFactory(username=name) for name in ("alice", "bruno", "chloe", "dmitri")
    )
    theirs = finished_match(alice, bruno)
    other = finished_match(chloe, dmitri)
    file(bruno, theirs)
    file(dmitri, other)

    listed = {
        name: [row["match"] for row in api_for(user).get("/api/disputes/").json()]
        for name, user in {"alice": alice, "bruno": bruno, "chloe": chloe}.items()
    }

    assert listed["bruno"] == [theirs.pk]
    assert listed["alice"] == [theirs.pk]  # a party to the dispute about her match
    assert listed["chloe"] == [other.pk]
