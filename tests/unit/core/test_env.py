"""Settings come from the environment and bad values stop start-up with a clear message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.env import (
    DATABASE_SCHEMES,
    REDIS_SCHEMES,
    SettingError,
    env_bool,
    env_header,
    env_int,
    env_list,
    env_rate,
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


@pytest.mark.parametrize("rate", ["10/minute", "1/second", "500/hour", "5/day"])
def test_env_rate_reads_requests_per_period(rate: str) -> None:
    assert env_rate("RATE", "1/day", environ={"RATE": rate}) == rate
    assert env_rate("RATE", "1/day", environ={}) == "1/day"


@pytest.mark.parametrize("rate", ["ten/minute", "10", "10/fortnight", "0/minute", "-1/hour"])
def test_env_rate_refuses_what_is_not_a_rate(rate: str) -> None:
    with pytest.raises(SettingError, match="RATE must be a number of requests per second"):
        env_rate("RATE", "1/day", environ={"RATE": rate})


def test_env_header_names_the_header_as_django_keeps_it() -> None:
    assert env_header("H", environ={"H": "X-Forwarded-Proto=https"}) == (
        "HTTP_X_FORWARDED_PROTO",
        "https",
    )
    assert env_header("H", environ={}) is None
    for bad in ("X-Forwarded-Proto", "=https", "X Forwarded=https"):
        with pytest.raises(SettingError, match="H must be a header and the value"):
            env_header("H", environ={"H": bad})


SETTINGS_SHOWN = (
    "import config.settings as s; print(s.DATABASES['default']['ENGINE'],"
    " s.CELERY_TASK_ALWAYS_EAGER, s.CHANNEL_LAYERS['default']['BACKEND'])"
)


def _load_settings(
    show: str = SETTINGS_SHOWN, **overrides: str
) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL"}
        and not k.startswith(("SECURE_", "CRAWFORD_", "PYTEST_XDIST_"))
    }
    env.update(overrides)
    return subprocess.run(
        [sys.executable, "-c", show],
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
        "channels_redis.pubsub.RedisPubSubChannelLayer",
    ]


def test_bad_debug_value_stops_start_up_with_its_name() -> None:
    result = _load_settings(DEBUG="sometimes", SECRET_KEY="k")
    assert result.returncode != 0
    assert "DEBUG must be one of" in result.stderr


def test_the_cache_is_redis_when_redis_is_configured_and_local_memory_otherwise() -> None:
    show = "import config.settings as s; print(s.CACHES['default']['BACKEND'])"

    embedded = _load_settings(show, DEBUG="true")
    production = _load_settings(show, SECRET_KEY="k", REDIS_URL="redis://127.0.0.1:6379/0")

    assert embedded.stdout.strip() == "django.core.cache.backends.locmem.LocMemCache"
    assert production.stdout.strip() == "django.core.cache.backends.redis.RedisCache"


def test_https_settings_come_from_the_environment() -> None:
    show = (
        "import config.settings as s; print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS,"
        " s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD, s.SECURE_PROXY_SSL_HEADER)"
    )

    default = _load_settings(show, DEBUG="true")
    behind_a_proxy = _load_settings(
        show,
        DEBUG="true",
        SECURE_SSL_REDIRECT="true",
        SECURE_HSTS_SECONDS="31536000",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="true",
        SECURE_HSTS_PRELOAD="yes",
        SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto=https",
    )

    assert default.stdout.split() == ["False", "0", "False", "False", "None"]
    assert behind_a_proxy.stdout.strip() == (
        "True 31536000 True True ('HTTP_X_FORWARDED_PROTO', 'https')"
    )


def test_rate_limits_and_token_lifetime_come_from_the_environment() -> None:
    show = (
        "import config.settings as s; r = s.CRAWFORD_THROTTLE_RATES;"
        " print(r['login'], r['signup'], r['chat'], s.API_TOKEN_TTL.total_seconds(),"
        " s.AXES_FAILURE_LIMIT, s.AXES_COOLOFF_TIME.total_seconds())"
    )

    default = _load_settings(show, DEBUG="true")
    changed = _load_settings(
        show,
        DEBUG="true",
        CRAWFORD_THROTTLE_LOGIN="3/minute",
        CRAWFORD_THROTTLE_SIGNUP="1/day",
        CRAWFORD_THROTTLE_CHAT="5/second",
        CRAWFORD_API_TOKEN_HOURS="2",
        CRAWFORD_LOGIN_FAILURE_LIMIT="4",
        CRAWFORD_LOGIN_LOCKOUT_MINUTES="30",
    )
    refused = _load_settings(show, DEBUG="true", CRAWFORD_THROTTLE_CHAT="lots")

    assert default.stdout.split() == [
        "20/minute",
        "20/hour",
        "20/minute",
        "604800.0",
        "10",
        "900.0",
    ]
    assert changed.stdout.split() == ["3/minute", "1/day", "5/second", "7200.0", "4", "1800.0"]
    assert "CRAWFORD_THROTTLE_CHAT must be a number of requests" in refused.stderr
