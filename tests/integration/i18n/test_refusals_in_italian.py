"""A refusal a player causes reads in the language of the request: a dispute filed without
a word, and a standing that keeps a player from real money."""

from __future__ import annotations

import pytest
from django.utils import timezone, translation

from accounts.standing import require_may_play, standing_restrict
from core.errors import Forbidden
from tests.factories import UserFactory
from tests.integration.disputes.helpers import finished_match
from tests.integration.matches.helpers import api_for

pytestmark = pytest.mark.django_db


def test_a_dispute_without_a_description_is_refused_in_the_players_language(
    tasks_run_in_process: None,
) -> None:
    alice, bruno = UserFactory.create(username="alice"), UserFactory.create(username="bruno")
    match = finished_match(alice, bruno)
    body = {"match": match.pk, "category": "result", "description": "  "}

    italian = api_for(bruno).post("/api/disputes/", body, format="json", HTTP_ACCEPT_LANGUAGE="it")
    english = api_for(bruno).post("/api/disputes/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")

    assert italian.status_code == english.status_code == 400
    assert italian.json()["detail"] == (
        "description: Descrivi che cosa non è andato: lo staff lo legge per primo."
    )
    assert english.json()["detail"] == "description: Describe what went wrong: staff read it first."


def test_a_suspension_is_explained_in_italian_with_its_date_written_in_italian() -> None:
    alice = UserFactory.create(username="alice", display_name="Alice Rossi")
    until = timezone.make_aware(timezone.datetime(2031, 1, 15, 9, 30))
    standing_restrict(user=alice, suspended_until=until, reason="Indagine")

    with translation.override("it"), pytest.raises(Forbidden) as refusal:
        require_may_play(alice)

    assert str(refusal.value) == (
        "L'account di Alice Rossi è sospeso fino al 15 Gen 2031 09:30 (Indagine)."
    )
