"""The demo's play lobby has players waiting, and loading the demo again posts nothing."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client

from lobby.models import Seek

pytestmark = pytest.mark.django_db


def test_the_demo_lobby_has_open_seeks_and_a_second_load_adds_none(client: Client) -> None:
    call_command("load_demo", stdout=io.StringIO())
    seeks = list(Seek.objects.values_list("creator__username", "kind", "stake_cents"))

    call_command("load_demo", stdout=io.StringIO())

    assert sorted(seeks) == [("nikos", "match", 0), ("olga", "money", 50), ("pablo", "match", 500)]
    assert Seek.objects.count() == 3
    page = client.get("/play/").content.decode()
    assert "Money session at 0.50 FUN a point" in page
    assert "for players rated 1300–1600" in page
