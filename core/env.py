"""Typed readers for the environment variables that configure Crawford.

Each reader returns a value of one type or raises ``SettingError`` with a message
naming the variable and what it expected, so a bad deployment fails at start-up
with a sentence a person can act on rather than deep inside a request.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import urlsplit

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})
DATABASE_SCHEMES = frozenset({"sqlite", "postgres", "postgresql", "pgsql"})
REDIS_SCHEMES = frozenset({"redis", "rediss"})
RATE_PERIODS = frozenset({"second", "minute", "hour", "day"})


class SettingError(ValueError):
    """An environment variable holds a value Crawford cannot use."""


def env_str(
    name: str, default: str | None = None, *, environ: Mapping[str, str] | None = None
) -> str:
    """The variable as text; without a default it must be set and not blank."""
    value = (os.environ if environ is None else environ).get(name)
    if value is None or value.strip() == "":
        if default is None:
            raise SettingError(f"{name} must be set")
        return default
    return value.strip()


def env_optional(name: str, *, environ: Mapping[str, str] | None = None) -> str | None:
    """The variable as text, or None when it is unset or blank."""
    value = (os.environ if environ is None else environ).get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    """A yes/no variable: 1/true/yes/on or 0/false/no/off, in any case."""
    value = (os.environ if environ is None else environ).get(name)
    if value is None:
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise SettingError(f"{name} must be one of 1/true/yes/on or 0/false/no/off, not {value!r}")


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """A whole number, optionally with a lower bound."""
    value = (os.environ if environ is None else environ).get(name)
    if value is None or value.strip() == "":
        return default
    try:
        number = int(value.strip())
    except ValueError:
        raise SettingError(f"{name} must be a whole number, not {value!r}") from None
    if minimum is not None and number < minimum:
        raise SettingError(f"{name} must be at least {minimum}, not {number}")
    return number


def env_list(
    name: str, default: list[str], *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    value = (os.environ if environ is None else environ).get(name)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise SettingError(f"{name} must name at least one item, separated by commas")
    return items


def env_url(
    name: str,
    *,
    schemes: frozenset[str],
    default: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> str | None:
    """A URL whose scheme is one of ``schemes``; None when unset and no default."""
    value = env_optional(name, environ=environ)
    if value is None:
        return default
    parts = urlsplit(value)
    if parts.scheme not in schemes:
        allowed = ", ".join(sorted(schemes))
        raise SettingError(f"{name} must be a URL starting with one of {allowed}, not {value!r}")
    if parts.scheme != "sqlite" and not parts.hostname:
        raise SettingError(f"{name} must name a host, as in {parts.scheme}://host:port/...")
    try:
        parts.port  # noqa: B018 - reading the port validates it
    except ValueError:
        raise SettingError(f"{name} has a port that is not a number: {value!r}") from None
    return value


def env_rate(name: str, default: str, *, environ: Mapping[str, str] | None = None) -> str:
    """A rate as Django REST framework reads it: a whole number of requests per
    second, minute, hour or day, written ``10/minute``."""
    value = env_str(name, default, environ=environ)
    count, _, period = value.partition("/")
    if not (count.isdigit() and int(count) > 0 and period in RATE_PERIODS):
        raise SettingError(
            f"{name} must be a number of requests per second, minute, hour or day,"
            f" as in 10/minute, not {value!r}"
        )
    return value


def env_header(name: str, *, environ: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """An HTTP header and the value that marks a request, written ``Header-Name=value``,
    as Django keeps it in ``request.META``: ``("HTTP_HEADER_NAME", "value")``. None when
    unset."""
    value = env_optional(name, environ=environ)
    if value is None:
        return None
    header, _, expected = value.partition("=")
    header, expected = header.strip(), expected.strip()
    if not header or not expected or not header.replace("-", "").isalnum():
        raise SettingError(
            f"{name} must be a header and the value that marks a request,"
            f" as in X-Forwarded-Proto=https, not {value!r}"
        )
    return f"HTTP_{header.upper().replace('-', '_')}", expected
