"""Settings come from the environment and bad values stop start-up with a clear message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.env import (
    DATABASE_SCHEMES,
    REDIS_SCHEMES,
    SettingError,
    env_bool,
    env_int,
    env_list,
    env_str,
    env_url,
)

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("YES", True),
        (" on ", True),
        ("0", False),
        ("false", False),
        ("No", False),
        ("off", False),
    ],
)
def test_env_bool_reads_the_usual_words(raw: str, expected: bool) -> None:
    assert env_bool("DEBUG", default=not expected, environ={"DEBUG": raw}) is expected


def test_env_bool_uses_the_default_when_unset() -> None:
    assert env_bool("DEBUG", default=True, environ={}) is True


def test_env_bool_rejects_other_words() -> None:
    with pytest.raises(SettingError, match="DEBUG must be one of"):
        env_bool("DEBUG", default=False, environ={"DEBUG": "maybe"})


def test_env_int_rejects_text_and_too_small_numbers() -> None:
    assert env_int("N", 3, environ={"N": "12"}) == 12
    with pytest.raises(SettingError, match="N must be a whole number, not 'ten'"):
        env_int("N", 3, environ={"N": "ten"})
    with pytest.raises(SettingError, match="N must be at least 1, not 0"):
        env_int("N", 3, minimum=1, environ={"N": "0"})


def test_env_list_splits_on_commas_and_drops_blanks() -> None:
    assert env_list("HOSTS", ["x"], environ={"HOSTS": "a.example, b.example,,"}) == [
        "a.example",
        "b.example",
    ]
    assert env_list("HOSTS", ["x"], environ={}) == ["x"]
    with pytest.raises(SettingError, match="HOSTS must name at least one item"):
        env_list("HOSTS", ["x"], environ={"HOSTS": " , "})


def test_env_str_requires_a_value_without_default() -> None:
    assert env_str("NAME", environ={"NAME": " crawford "}) == "crawford"
    with pytest.raises(SettingError, match="NAME must be set"):
        env_str("NAME", environ={"NAME": "  "})


@pytest.mark.parametrize(
    "url",
    [
        "postgres://postgres@127.0.0.1:5432/crawford",
        "postgresql://u:p@db/crawford",
        "sqlite:////tmp/x.sqlite3",
    ],
)
def test_database_urls_accepted(url: str) -> None:
    assert env_url("DATABASE_URL", schemes=DATABASE_SCHEMES, environ={"DATABASE_URL": url}) == url


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://root@localhost/crawford", "must be a URL starting with one of"),
        ("postgres:///crawford", "must name a host"),
        ("postgres://db:port/crawford", "port that is not a number"),
        ("just-a-word", "must be a URL starting with one of"),
    ],
)
def test_bad_database_urls_are_named(url: str, message: str) -> None:
    with pytest.raises(SettingError, match=message):
        env_url("DATABASE_URL", schemes=DATABASE_SCHEMES, environ={"DATABASE_URL": url})


def test_redis_url_unset_means_not_configured() -> None:
    assert env_url("REDIS_URL", schemes=REDIS_SCHEMES, environ={}) is None
    with pytest.raises(SettingError, match="REDIS_URL must be a URL"):
        env_url("REDIS_URL", schemes=REDIS_SCHEMES, environ={"REDIS_URL": "http://127.0.0.1:6379"})


def _load_settings(**overrides: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL"}
    }
    env.update(overrides)
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import config.settings as s; print(s.DATABASES['default']['ENGINE'],"
            " s.CELERY_TASK_ALWAYS_EAGER, s.CHANNEL_LAYERS['default']['BACKEND'])",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_settings_refuse_to_start_without_secret_key_when_debug_is_off() -> None:
    result = _load_settings(DEBUG="false")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_embedded_defaults_are_sqlite_eager_celery_and_in_memory_layer() -> None:
    result = _load_settings(DEBUG="true")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "True",
        "channels.layers.InMemoryChannelLayer",
    ]


def test_redis_url_switches_celery_and_channels_to_redis() -> None:
    result = _load_settings(
        SECRET_KEY="k",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/crawford",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "False",
        "channels_redis.core.RedisChannelLayer",
    ]


def test_bad_debug_value_stops_start_up_with_its_name() -> None:
    result = _load_settings(DEBUG="sometimes", SECRET_KEY="k")
    assert result.returncode != 0
    assert "DEBUG must be one of" in result.stderr
