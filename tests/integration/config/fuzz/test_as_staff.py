"""The API fuzzed as staff (who may decide disputes and fair-play cases and adjust wallets):
every answer as the schema says (``fuzzing.CHECKS``)."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis

from tests.integration.config.fuzz.fuzzing import FUZZING, SETTINGS_OPERATIONS, Caller, call

pytestmark = pytest.mark.slow

schema = schemathesis.pytest.from_fixture("api_schema")


@schema.exclude(method="POST", path_regex=SETTINGS_OPERATIONS).parametrize()
@FUZZING
def test_every_operation_answers_staff_as_its_schema_says(case: Any, staff: Caller) -> None:
    call(case, staff)
