"""Every tournament operation fuzzed as an organizer, with the largest bodies the API takes
(a tournament's settings): every answer as the schema says (``fuzzing.CHECKS``)."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis

from tests.integration.config.fuzz.fuzzing import FUZZING, Caller, call

pytestmark = pytest.mark.slow

schema = schemathesis.pytest.from_fixture("api_schema")


@schema.include(path_regex="^/api/tournaments/").parametrize()
@FUZZING
def test_every_tournament_operation_answers_an_organizer_as_its_schema_says(
    case: Any, organizer: Caller
) -> None:
    call(case, organizer)
