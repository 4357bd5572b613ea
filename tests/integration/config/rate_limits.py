"""Low rate limits for one test, counted apart from every other test's."""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.test.utils import override_settings


@contextmanager
def low_rates(**rates: str) -> Iterator[None]:
    """The given scopes at the given rates (``login="2/minute"``), with the cache under a
    key prefix of its own: counts left in Redis by other tests or runs never reach it."""
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    with override_settings(
        CRAWFORD_THROTTLE_RATES={**settings.CRAWFORD_THROTTLE_RATES, **rates}, CACHES=caches
    ):
        yield
