"""Django settings for Crawford, read from the environment through ``config.env``.

Unset variables give the embedded defaults of ``make run``: a SQLite file, Celery
tasks run eagerly in the web process and an in-memory channel layer. Setting
``DATABASE_URL`` and ``REDIS_URL`` gives the production shape: PostgreSQL, Celery
workers on Redis and channels-redis.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
import django_stubs_ext
from csp.constants import NONE, SELF

from config.env import (
    DATABASE_SCHEMES,
    REDIS_SCHEMES,
    SettingError,
    env_bool,
    env_header,
    env_int,
    env_list,
    env_optional,
    env_rate,
    env_str,
    env_url,
)

# Lets the typed generics of django-stubs (Form[Model], QuerySet[Model]) run.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

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
# DB_CONN_MAX_AGE keeps connections open between requests (production sets 60: a new
# PostgreSQL connection costs more than most actions); 0 closes each one after use.
# No health check on reuse: it would cost a round trip per request; a connection broken
# meanwhile fails one request and is closed after it.
_database = dj_database_url.parse(
    DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 0, minimum=0)
)
# Live-server browser tests run the server in another process, which must find the
# test database by name rather than by Django's in-process renaming.
if _database["ENGINE"].endswith("postgresql"):
    _database["TEST"] = {
        "NAME": env_optional("CRAWFORD_TEST_DATABASE") or f"test_{_database['NAME']}"
    }
    # The few hot statements whose planning costs more than their run (the match lock's
    # joins, the ledger's posting) are kept prepared on each connection
    # (``config.rows.prepared_cursor``): false for a pooler that cannot keep them.
    if env_bool("DB_PREPARED_STATEMENTS", True):
        _database.setdefault("OPTIONS", {})["prepare_threshold"] = 0
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
# Database threads per server process for the sockets' actions (``config.live``). On
# bench/bench_live_matches.py (1,000 matches, 200 actions/s, two servers on two cores) two
# did every action with p99 0.2-0.3 s where eight fell behind (191/s, p99 8.5 s): more
# threads than cores only make transactions wait on each other and on the GIL.
LIVE_DB_THREADS = env_int("LIVE_DB_THREADS", 2, minimum=1)

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
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
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

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE = {
    "sweep-match-deadlines": {"task": "matches.sweep_deadlines", "schedule": 1.0},
    "sweep-tournaments": {"task": "tournaments.sweep", "schedule": 30.0},
    "requeue-adjudications": {"task": "matches.requeue_adjudications", "schedule": 30.0},
    "requeue-analyses": {"task": "review.requeue", "schedule": 60.0},
    "prune-sightings": {"task": "fairplay.prune_sightings", "schedule": 86400.0},
    "settle-appeals": {"task": "fairplay.settle_appeals", "schedule": 300.0},
}
# Post-match analysis (the reviews app): every finished match is analysed by GNU Backgammon
# at this depth (0 to 4 plies) on the ``review`` queue. 2 ply keeps up with about 190
# seven-point matches an hour per analysis worker (bench/bench_match_analysis.py).
ANALYSIS_PLIES = env_int("CRAWFORD_ANALYSIS_PLIES", 2, minimum=0)
if ANALYSIS_PLIES > 4:
    raise SettingError(f"CRAWFORD_ANALYSIS_PLIES must be 0 to 4, not {ANALYSIS_PLIES}")
ANALYSE_FINISHED_MATCHES = env_bool("CRAWFORD_ANALYSE_FINISHED_MATCHES", True)

# Fair play (the fairplay app; thresholds explained in the README's fair-play section).
# Real-money play is barred for players of these countries (ISO codes, "US,FR" say); the
# GeoIP file, when set, adds the country of the address a player logs in from.
CRAWFORD_BARRED_REGIONS = [code.upper() for code in env_list("CRAWFORD_BARRED_REGIONS", [])]
CRAWFORD_GEOIP_DATABASE = env_str("CRAWFORD_GEOIP_DATABASE", "")
# Salted digests of log-in addresses and device cookies are forgotten after this many days.
CRAWFORD_SIGHTING_DAYS = env_int("CRAWFORD_SIGHTING_DAYS", 180, minimum=1)
# Chat lines holding one of these words (case and accents ignored) are refused.
CRAWFORD_CHAT_BANNED_WORDS = env_list("CRAWFORD_CHAT_BANNED_WORDS", [])
FAIRPLAY = {
    # Engine assistance: the last ENGINE_WINDOW analysed matches of a player, once they
    # hold ENGINE_MIN_DECISIONS unforced decisions; a case when the PR lies ENGINE_Z
    # standard deviations below what the rating predicts, or agreement with the engine's
    # best play reaches ENGINE_AGREEMENT.
    "ENGINE_WINDOW": env_int("CRAWFORD_FAIRPLAY_ENGINE_WINDOW", 10, minimum=1),
    "ENGINE_MIN_DECISIONS": env_int("CRAWFORD_FAIRPLAY_ENGINE_MIN_DECISIONS", 150, minimum=1),
    "ENGINE_Z": float(env_str("CRAWFORD_FAIRPLAY_ENGINE_Z", "3.5")),
    "ENGINE_AGREEMENT": float(env_str("CRAWFORD_FAIRPLAY_ENGINE_AGREEMENT", "0.97")),
    # Dumping: over DUMPING_DAYS, this many early resignations (at a player's first or
    # second turn) to one opponent, or clear takes dropped to one opponent, open a case.
    "DUMPING_DAYS": env_int("CRAWFORD_FAIRPLAY_DUMPING_DAYS", 30, minimum=1),
    "EARLY_RESIGNATIONS": env_int("CRAWFORD_FAIRPLAY_EARLY_RESIGNATIONS", 5, minimum=1),
    "WRONG_DROPS": env_int("CRAWFORD_FAIRPLAY_WRONG_DROPS", 3, minimum=1),
    # A drop is "wrong" when GNU Backgammon makes it at least this costly (EMG or MWC).
    "WRONG_DROP_ERROR": float(env_str("CRAWFORD_FAIRPLAY_WRONG_DROP_ERROR", "0.15")),
    # ... and this many games resigned where the analysis rated the last position at least
    # WINNING_RESIGNATION_EQUITY (EMG) in the resigner's favour.
    "WINNING_RESIGNATIONS": env_int("CRAWFORD_FAIRPLAY_WINNING_RESIGNATIONS", 3, minimum=1),
    "WINNING_RESIGNATION_EQUITY": float(
        env_str("CRAWFORD_FAIRPLAY_WINNING_RESIGNATION_EQUITY", "0.3")
    ),
    # ... and a one-way series: at least ONE_WAY_MATCHES matches in the window, the loser
    # losing so many that players of their ratings would with a chance of ONE_WAY_CHANCE
    # at most (14 straight losses between equals: 0.00006). bench/bench_one_way_series.py:
    # 0.25 % of honest pairs playing 20 matches flagged, 81 % of dumpers caught.
    "ONE_WAY_MATCHES": env_int("CRAWFORD_FAIRPLAY_ONE_WAY_MATCHES", 8, minimum=1),
    "ONE_WAY_CHANCE": float(env_str("CRAWFORD_FAIRPLAY_ONE_WAY_CHANCE", "0.0001")),
    # Stalling: this many abandoned or timed-out matches in STALLING_DAYS open a case and
    # keep the player from seeks and registration for COOLDOWN_HOURS.
    "STALLING_DAYS": env_int("CRAWFORD_FAIRPLAY_STALLING_DAYS", 14, minimum=1),
    "STALLED_MATCHES": env_int("CRAWFORD_FAIRPLAY_STALLED_MATCHES", 4, minimum=1),
    "COOLDOWN_HOURS": env_int("CRAWFORD_FAIRPLAY_COOLDOWN_HOURS", 24, minimum=1),
}

# No task runs longer than this: a stuck one (an engine that never answers) is stopped, and
# the sweeps queue its work again. An adjudication at 4 ply takes seconds.
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_TIME_LIMIT = 300
# A task a worker took but did not acknowledge (it died) is delivered again after this long:
# longer than any task can run (above), so a task still running is never delivered twice;
# the sweeps re-queue lost adjudications and tournament steps after a minute or so, so
# nothing waits this long.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}

# The cache holds the rate limits' counts (config.throttles): on Redis every server
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

# Rate limits per scope (config.throttles): every API call per address (anon) or per
# player (user), and stricter ones for guessing passwords, making accounts, chat and
# challenges. A number of requests per second, minute, hour or day.
CRAWFORD_THROTTLE_RATES = {
    "anon": env_rate("CRAWFORD_THROTTLE_ANON", "120/minute"),
    "user": env_rate("CRAWFORD_THROTTLE_USER", "1200/minute"),
    "login": env_rate("CRAWFORD_THROTTLE_LOGIN", "20/minute"),
    "signup": env_rate("CRAWFORD_THROTTLE_SIGNUP", "20/hour"),
    "chat": env_rate("CRAWFORD_THROTTLE_CHAT", "20/minute"),
    "challenge": env_rate("CRAWFORD_THROTTLE_CHALLENGE", "10/minute"),
}
# How many proxies in front of Crawford append the address they saw to X-Forwarded-For;
# 0 trusts only the connection's own address.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0)

# Failed log-ins (the form, the admin and POST /api/auth/token/) lock out the account and
# the address they came from for a while: django-axes, counting in the database.
AXES_FAILURE_LIMIT = env_int("CRAWFORD_LOGIN_FAILURE_LIMIT", 10, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("CRAWFORD_LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_CLIENT_IP_CALLABLE = "config.throttles.client_address"
AXES_LOCKOUT_CALLABLE = "accounts.auth_views.locked_out"
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False

# API tokens (django-rest-knox): stored hashed, each with an expiry; sent as
# "Authorization: Token <token>".
API_TOKEN_TTL = timedelta(hours=env_int("CRAWFORD_API_TOKEN_HOURS", 24 * 7, minimum=1))
REST_KNOX = {
    "TOKEN_TTL": API_TOKEN_TTL,
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so an API call without credentials gets 401 and a challenge.
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttles.AnonThrottle",
        "config.throttles.UserThrottle",
        "config.throttles.ScopedThrottle",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.BoundedJsonParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Crawford API",
    "DESCRIPTION": (
        "Backgammon matches, tournaments and wallets for players, bots and clients. The "
        "WebSocket messages (live matches, tournaments, notices) are described by the "
        "AsyncAPI document at [/api/asyncapi.json](/api/asyncapi.json)."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "LICENSE": {"name": "AGPL-3.0-or-later"},
    # Request bodies get components of their own, so a text field that refuses "" says
    # `minLength: 1` where clients send it, without claiming it of every response.
    "COMPONENT_SPLIT_REQUEST": True,
    # Programs send JSON. The form parsers stay for hand-made requests, but a form cannot
    # say null or nest an object, so the schema does not promise them the same bodies.
    "PARSER_WHITELIST": ["config.parsers.BoundedJsonParser"],
    "ENUM_NAME_OVERRIDES": {
        "BlockKindEnum": "accounts.models.BlockKind",
        "CurrencyEnum": "accounts.models.Currency",
        "LevelEnum": "matches.actions.LEVEL_NAMES",
        "PowerOfTwoEnum": "tournaments.serializers.POWERS_OF_TWO",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.api.document_errors",
    ],
}

# Play money each new player starts with, in cents (100000 is 1,000.00 FUN).
CRAWFORD_FUN_GRANT_CENTS = env_int("CRAWFORD_FUN_GRANT_CENTS", 100_000, minimum=0)
# A staff adjustment of real money above this many cents moves only once a second staff
# member approves it (accounts.adjustment_approvals); 0: every real-money adjustment does.
CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS = env_int(
    "CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS", 100_000, minimum=0
)

# HTTPS. Behind a proxy that ends TLS, SECURE_PROXY_SSL_HEADER names the header it sets
# on requests that came over HTTPS (X-Forwarded-Proto=https); the proxy must overwrite it.
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=False)
# The health check is asked over plain HTTP from inside the container.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_PROXY_SSL_HEADER = env_header("SECURE_PROXY_SSL_HEADER")
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)

# Content-Security-Policy (django-csp): scripts, styles, images and fonts from this site
# only, no inline script or style, WebSockets to this host only ('self' covers ws: and wss:
# of this site's host in browsers since CSP level 3). Pages carry their data as
# <script type="application/json"> blocks, which browsers never run, so need no exception.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # A line for every task that succeeded buries the rest: the embedded run's sweeps
    # alone ran twice a second. Failures are still logged.
    "loggers": {"celery.app.trace": {"level": "WARNING"}},
}
