"""The production settings of docker-compose.yml pass Django's deployment checks."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
VARIABLE = re.compile(r"\$\{(?P<name>\w+)(?:(?P<how>:-|:\?)(?P<rest>[^}]*))?\}")


def compose_environment(given: dict[str, str]) -> dict[str, str]:
    """The web service's environment as docker-compose would give it, with only ``given``
    set in the shell: every ``${NAME:-default}`` takes its default."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    environment = compose["services"]["web"]["environment"]

    def resolve(match: re.Match[str]) -> str:
        name, how, rest = match["name"], match["how"], match["rest"]
        if name in given:
            return given[name]
        if how == ":-":
            return str(rest)
        raise AssertionError(f"docker-compose.yml needs {name} set: {rest}")

    return {name: VARIABLE.sub(resolve, str(value)) for name, value in environment.items()}


def deploy_check(environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), **environment},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_production_settings_of_docker_compose_pass_the_deployment_checks() -> None:
    environment = compose_environment({"SECRET_KEY": secrets.token_urlsafe(50)})

    result = deploy_check(environment)

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout
    assert environment["DEBUG"] == "false"


def test_the_checks_catch_a_set_up_without_https() -> None:
    environment = compose_environment(
        {
            "SECRET_KEY": secrets.token_urlsafe(50),
            "SECURE_SSL_REDIRECT": "false",
            "SECURE_HSTS_SECONDS": "0",
        }
    )

    result = deploy_check(environment)

    assert result.returncode != 0
    assert "security.W008" in result.stderr
    assert "security.W004" in result.stderr
