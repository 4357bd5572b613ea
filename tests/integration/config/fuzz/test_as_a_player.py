"""The API as a fuzzer sees it: schemathesis sends generated requests to every operation,
as a player and as staff, and to every tournament operation as an organizer. The answers
must be what the schema says: no server error, no status the operation does not document,
every body in its documented shape, requests the schema forbids refused, and requests it
allows never refused as malformed (400), unless the rules refuse them (``RULE_REFUSALS``).
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis

from tests.integration.config.fuzz.fuzzing import FUZZING, SETTINGS_OPERATIONS, Caller, call

pytestmark = pytest.mark.slow

schema = schemathesis.pytest.from_fixture("api_schema")


@schema.exclude(method="POST", path_regex=SETTINGS_OPERATIONS).parametrize()
@FUZZING
def test_every_operation_answers_a_player_as_its_schema_says(case: Any, player: Caller) -> None:
    call(case, player)
