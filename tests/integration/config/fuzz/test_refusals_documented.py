"""Every refusal by the rules that the fuzz tests accept as a 400 is one the operation's
schema documents, with examples, and no operation documents one the tests do not list."""

from __future__ import annotations

import re
from typing import Any

from tests.integration.config.fuzz.fuzzing import REFUSED_IN_WORDS, RULE_REFUSALS


def test_every_refusal_by_the_rules_is_documented_in_the_operations_400(
    api_schema: Any,
) -> None:
    """The schema's 400 of each operation listed here gives examples of what its rules
    refuse (``core.api.refused_by_the_rules``), each one a refusal this list accepts; and
    no operation documents such refusals without being listed."""
    documented = {}
    for path, operations in api_schema.raw_schema["paths"].items():
        for method, operation in operations.items():
            examples = operation.get("x-rule-refusals")
            if examples:
                answer = operation["responses"]["400"]
                shown = answer["content"]["application/json"]["examples"].values()
                assert [example["value"]["detail"] for example in shown] == examples
                assert all(f"“{example}”" in answer["description"] for example in examples)
                documented[f"{method.upper()} {path}"] = examples

    assert set(documented) == set(RULE_REFUSALS) | REFUSED_IN_WORDS
    for label, pattern in RULE_REFUSALS.items():
        unmatched = [example for example in documented[label] if not re.match(pattern, example)]
        assert unmatched == [], label
