"""The REST API and getting in: rate limits, log-in lockouts, API tokens, the schema."""

from __future__ import annotations

from datetime import timedelta

from core.env import env_int, env_rate

# Rate limits per scope (core.throttles): every API call per address (anon) or per
# player (user), and stricter ones for guessing passwords, making accounts, sending e-mail,
# chat and challenges. A number of requests per second, minute, hour or day.
CRAWFORD_THROTTLE_RATES = {
    "anon": env_rate("CRAWFORD_THROTTLE_ANON", "120/minute"),
    "user": env_rate("CRAWFORD_THROTTLE_USER", "1200/minute"),
    "login": env_rate("CRAWFORD_THROTTLE_LOGIN", "20/minute"),
    "signup": env_rate("CRAWFORD_THROTTLE_SIGNUP", "20/hour"),
    # password reset and verification e-mails asked for, per address
    "mail": env_rate("CRAWFORD_THROTTLE_MAIL", "10/hour"),
    "chat": env_rate("CRAWFORD_THROTTLE_CHAT", "20/minute"),
    "challenge": env_rate("CRAWFORD_THROTTLE_CHALLENGE", "10/minute"),
    "search": env_rate("CRAWFORD_THROTTLE_SEARCH", "120/minute"),
}
# How many proxies in front of Crawford append the address they saw to X-Forwarded-For;
# 0 trusts only the connection's own address.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0)

# Failed log-ins (the form, the admin and POST /api/auth/token/) lock out the account and
# the address they came from for a while: django-axes, counting in the database.
AXES_FAILURE_LIMIT = env_int("CRAWFORD_LOGIN_FAILURE_LIMIT", 10, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("CRAWFORD_LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_CLIENT_IP_CALLABLE = "core.throttles.client_address"
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
        "core.throttles.AnonThrottle",
        "core.throttles.UserThrottle",
        "core.throttles.ScopedThrottle",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.BoundedJsonParser",
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
    "PARSER_WHITELIST": ["core.parsers.BoundedJsonParser"],
    "ENUM_NAME_OVERRIDES": {
        "BlockKindEnum": "accounts.models.BlockKind",
        "CurrencyEnum": "accounts.models.Currency",
        "LevelEnum": "matches.actions.LEVEL_NAMES",
        "PowerOfTwoEnum": "tournaments.serializers.POWERS_OF_TWO",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.api.document_errors",
    ],
}
