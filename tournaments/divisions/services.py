"""Writes for divisions and side events: an organizer adds one beside a main event.

The new tournament is a draft like any other (``tournaments.services``): its organizer
opens it, players enter it and it is started, played and paid on its own. It is made
while the main event is locked (``scheduler.locked_tournament``), so two divisions of one
name are never added at once and a cancelled or finished event takes none.
"""

from __future__ import annotations

import dataclasses
import secrets
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core import locks
from core.errors import Conflict, DomainError, Forbidden
from core.locks import Lock
from tournaments import scheduler
from tournaments.divisions.presets import JACKPOT_TABLES, division_name, preset
from tournaments.errors import TournamentInvalid
from tournaments.models import SideKind, Tournament, TournamentState
from tournaments.settings.general import SETTING_FIELDS, check_settings, settings_of


@transaction.atomic
def side_event_create(
    *,
    main_id: int,
    user: User,
    kind: str,
    changes: dict[str, Any],
    places: int | None = None,
) -> Tournament:
    """A draft division, jackpot or blitz beside the main event ``main_id``, from the main
    event's settings, the kind's preset (``presets``) and the organizer's ``changes``
    (``TournamentSettings`` names); ``places``: a jackpot's paid places, 1 or 2."""
    main = scheduler.locked_tournament(main_id)
    if user.pk != main.organizer_id and not user.is_superuser:
        raise Forbidden(
            _("Only the organizer of %(name)s can add events beside it.") % {"name": main.name}
        )
    if kind not in SideKind.values:
        raise DomainError(_("Add a division, a jackpot or a blitz."))
    if main.parent_id is not None:
        raise DomainError(
            _("%(name)s is itself played beside another event; add to the main event.")
            % {"name": main.name}
        )
    if main.state in (TournamentState.FINISHED, TournamentState.CANCELLED):
        raise Conflict(
            _("%(name)s is %(state)s: nothing more can be added beside it.")
            % {"name": main.name, "state": main.get_state_display().lower()}
        )
    if places is not None and places not in JACKPOT_TABLES:
        raise DomainError(_("A jackpot pays its winner alone, or the top two."))
    unknown = set(changes) - set(SETTING_FIELDS)
    if unknown:
        raise DomainError(_("Unknown settings: %(names)s.") % {"names": ", ".join(sorted(unknown))})
    values = {**preset(kind, main, places=places or 1), **changes}
    if kind == SideKind.DIVISION:
        _check_division(main, str(values.get("division") or "").strip())
        values.setdefault("name", division_name(main, values["division"].strip()))
    settings = dataclasses.replace(settings_of(main), **values)
    checked = check_settings(settings, organizer=main.organizer, tournament=None)
    side = Tournament.objects.create(
        organizer=main.organizer,
        draw_seed=secrets.randbits(62),
        parent=main,
        side=kind,
        **checked,
    )
    locks.made(Lock.TOURNAMENT, side.pk)
    return side


def _check_division(main: Tournament, division: str) -> None:
    if not division:
        raise TournamentInvalid({"division": [_("Name the division, e.g. Novice.")]})
    names = [main.division, *main.side_events.values_list("division", flat=True)]
    if division.casefold() in {name.casefold() for name in names if name}:
        raise TournamentInvalid(
            {
                "division": [
                    _("%(event)s has a %(division)s division already.")
                    % {"event": main.name, "division": division}
                ]
            }
        )
