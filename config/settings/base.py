"""The core settings: apps, middleware, the database, Redis and what stands on it (the
cache, the channel layer), static files and logging."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
import django_stubs_ext

from core.env import (
    DATABASE_SCHEMES,
    REDIS_SCHEMES,
    SettingError,
    env_bool,
    env_int,
    env_list,
    env_optional,
    env_str,
    env_url,
)

# Lets the typed generics of django-stubs (Form[Model], QuerySet[Model]) run.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent.parent

DEBUG = env_bool("DEBUG", default=False)
SECRET_KEY = env_optional("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise SettingError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "crawford-insecure-development-key-for-debug-only"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "knox",
    "axes",
    "csp",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "django_countries",
    "channels",
    "core.apps.CoreConfig",
    "accounts",
    "matches",
    "reviews",
    "tournaments",
    "disputes",
    "fairplay",
    "lobby",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language from the switcher's cookie, else the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A device cookie for every browser; its digest is kept at each log-in (fair play).
    "accounts.device.DeviceCookieMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a request its backend marked into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.navigation",
            ],
        },
    },
]

# Database: SQLite for the embedded run, PostgreSQL (psycopg 3) in production and tests.
DATABASE_URL = env_url(
    "DATABASE_URL",
    schemes=DATABASE_SCHEMES,
    default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
)
assert DATABASE_URL is not None
# Connections to PostgreSQL. A web process (ASGI) borrows them from a pool of its own of at
# most DB_POOL_SIZE (Django's psycopg pool): a request or a socket's action takes one and
# gives it back when done, so the number a process holds is bounded whatever the load, and
# none is opened per action. Persistent per-thread connections (DB_CONN_MAX_AGE) must not be
# used under ASGI: every request runs on a thread of its own and leaves its connection
# behind (config/asgi.py refuses them). A Celery worker's process runs one task at a time on
# one thread, so it keeps one connection for DB_CONN_MAX_AGE seconds, checked before reuse
# (a restarted PostgreSQL costs no task and needs no restart; config/celery.py keeps Celery's
# Django fix-up from closing it after every task).
DB_POOL_SIZE = env_int("DB_POOL_SIZE", 0, minimum=0)
DB_POOL_TIMEOUT = env_int("DB_POOL_TIMEOUT", 10, minimum=1)
_database = dj_database_url.parse(
    DATABASE_URL,
    conn_max_age=env_int("DB_CONN_MAX_AGE", 0, minimum=0),
    conn_health_checks=True,
)
# Live-server browser tests run the server in another process, which must find the
# test database by name rather than by Django's in-process renaming.
if _database["ENGINE"].endswith("postgresql"):
    _database["TEST"] = {
        "NAME": env_optional("CRAWFORD_TEST_DATABASE") or f"test_{_database['NAME']}"
    }
    # The few hot statements whose planning costs more than their run (the match lock's
    # joins, the ledger's posting) are kept prepared on each connection
    # (``core.rows.prepared_cursor``): false for a pooler that cannot keep them.
    if env_bool("DB_PREPARED_STATEMENTS", True):
        _database.setdefault("OPTIONS", {})["prepare_threshold"] = 0
    if DB_POOL_SIZE:
        if _database["CONN_MAX_AGE"]:
            raise SettingError(
                "DB_CONN_MAX_AGE must be 0 with DB_POOL_SIZE set: the pool keeps the connections"
            )
        # A connection waits in the pool at most five minutes unused and lives an hour, so
        # a quiet process gives its connections back and none outlives a failover for long.
        # Waiting longer than DB_POOL_TIMEOUT for one answers 503 (core.outages).
        _database.setdefault("OPTIONS", {})["pool"] = {
            "min_size": min(2, DB_POOL_SIZE),
            "max_size": DB_POOL_SIZE,
            "timeout": DB_POOL_TIMEOUT,
            "max_idle": 300,
            "max_lifetime": 3600,
        }
elif _database["ENGINE"].endswith("sqlite3"):
    # The embedded run writes from the requests, the sockets' threads and the analysis
    # thread at once: each transaction takes the write lock when it begins (rather than
    # failing "database is locked" when it upgrades), waits up to 20 s for it, and readers
    # never wait for a writer (write-ahead log).
    _database["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DATABASES = {"default": _database}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Database threads per server process for the sockets' actions (``core.live``). On
# bench/bench_live_matches.py (1,000 matches, 200 actions/s, two servers on two cores) two
# did every action with p99 0.2-0.3 s where eight fell behind (191/s, p99 8.5 s): more
# threads than cores only make transactions wait on each other and on the GIL.
LIVE_DB_THREADS = env_int("LIVE_DB_THREADS", 2, minimum=1)
# How long a change's live frames may wait on Redis before they are given up as lost
# (``core.live``); the boards then catch up from the database.
LIVE_SEND_TIMEOUT_MS = env_int("LIVE_SEND_TIMEOUT_MS", 1000, minimum=50)

AUTH_USER_MODEL = "accounts.User"
# django-axes first: it refuses a log-in from a locked-out account or address before
# the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sessions that know their player (accounts.sessions), so a password change, "log out
# everywhere", a suspension or a closed account ends all of them and closes their sockets.
SESSION_ENGINE = "accounts.sessions"
CRAWFORD_SOCKET_SESSION_CHECK = "accounts.sessions.session_is_live"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# English and Italian, the language of the rooms the rules come from. Pages, the API's
# messages and the browser's scripts speak the language of the request; dates and money are
# written as that language writes them. The translations live in locale/ (`make messages`).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("it", "Italiano")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "crawford_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

# Redis: unset means the embedded run (eager Celery, in-memory channel layer).
REDIS_URL = env_url("REDIS_URL", schemes=REDIS_SCHEMES)
# `make test` runs the suite in several processes (pytest-xdist workers gw0, gw1, ...) and
# gives each a Redis database of its own (scripts/test_slot.py), so no process takes
# another's Celery tasks; the processes' test databases are named apart by pytest-django.
# A process the tests start without Redis (the embedded server) stays embedded.
if REDIS_URL and os.environ.get("PYTEST_XDIST_WORKER"):
    if not os.environ.get("CRAWFORD_TEST_REDIS_URLS"):
        raise SettingError(
            "Test processes sharing one Redis database would take each other's Celery tasks:"
            " run the suite with make test, which claims one per process"
            " (scripts/test_slot.py claim N)"
        )
    _worker = int(os.environ["PYTEST_XDIST_WORKER"].removeprefix("gw"))
    _test_redis_urls = os.environ["CRAWFORD_TEST_REDIS_URLS"].split(",")
    if _worker >= len(_test_redis_urls):
        raise SettingError(
            f"CRAWFORD_TEST_REDIS_URLS names {len(_test_redis_urls)} Redis databases but this"
            f" is test process gw{_worker}: claim one per process (scripts/test_slot.py claim N)"
        )
    REDIS_URL = _test_redis_urls[_worker]

# The cache holds the rate limits' counts (core.throttles): on Redis every server
# process shares them; the local-memory cache is for the one process of the embedded run.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "crawford",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

if REDIS_URL:
    # Redis pub/sub: each server process reads its messages in one task of its own, and a
    # group's members are the live subscriptions of the servers holding them, gone with a
    # dead server's connection. channels-redis's list-based layer instead lets whichever
    # socket happens to be waiting read for all the process's sockets, and loses the
    # message it was reading when that socket closes at the wrong moment: a player's
    # board would miss a move while watchers come and go.
    # Pub/sub channels are the same in every Redis database: the database's number goes
    # into their names, so two deployments (or two test runs) on one Redis never hear
    # each other's frames.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [REDIS_URL],
                "prefix": f"crawford{urlsplit(REDIS_URL).path.strip('/') or '0'}",
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


# Every lock taken through core.locks is checked against the lock order, per transaction: a
# lock taken out of order raises. The test suite turns it on; production leaves it off.
CRAWFORD_LOCK_ORDER_CHECKS = env_bool("CRAWFORD_LOCK_ORDER_CHECKS", False)

# /metrics answers a scraper sending "Authorization: Bearer <this>"; unset, there is none.
CRAWFORD_METRICS_TOKEN = env_optional("CRAWFORD_METRICS_TOKEN") or ""

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # A line for every task that succeeded buries the rest: the embedded run's sweeps
    # alone ran twice a second. Failures are still logged.
    "loggers": {"celery.app.trace": {"level": "WARNING"}},
}
