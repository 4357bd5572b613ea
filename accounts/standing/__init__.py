"""A player's standing: what sanctions, cool-downs, self-exclusion and the law let them do.

Every service that starts play, posts a seek, registers for a tournament, sends chat or
pays money out asks here first (``checks``), and is refused with a message that says why
and until when. The rows are written by fair play's sanctions and detectors and by staff
(``restrictions.standing_restrict``), by the player (``restrictions.self_exclude``,
``blocks.block_set``) and at log-in (``sightings.sighting_record``); ``now`` answers, for the
player's own page, every check at once.
"""

from __future__ import annotations

from accounts.standing.blocks import UNHEARD_CHANGED, block_remove, block_set, unheard_by
from accounts.standing.checks import (
    barred_from_play,
    barred_region,
    require_may_chat,
    require_may_play,
    require_may_register,
    require_may_seek,
    require_may_withdraw,
    require_not_a_demo_player,
    require_not_blocked,
    require_standing_may_register,
    standing_of,
)
from accounts.standing.now import standing_now
from accounts.standing.restrictions import SELF_EXCLUSION_DAYS, self_exclude, standing_restrict
from accounts.standing.sightings import (
    country_of_address,
    digest_of,
    geoip_reader,
    sighting_record,
    sightings_prune,
)

__all__ = [
    "SELF_EXCLUSION_DAYS",
    "UNHEARD_CHANGED",
    "barred_from_play",
    "barred_region",
    "block_remove",
    "block_set",
    "country_of_address",
    "digest_of",
    "geoip_reader",
    "require_may_chat",
    "require_may_play",
    "require_may_register",
    "require_may_seek",
    "require_may_withdraw",
    "require_not_a_demo_player",
    "require_not_blocked",
    "require_standing_may_register",
    "self_exclude",
    "sighting_record",
    "sightings_prune",
    "standing_now",
    "standing_of",
    "standing_restrict",
    "unheard_by",
]
