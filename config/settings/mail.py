"""E-mail: how messages leave, who sends them, and the site's address in their links.

With ``EMAIL_HOST`` set, mail goes out over SMTP (production: ``docker-compose.yml`` passes
the relay's settings through); unset, as under ``make run``, each message is printed on
the server's console instead, links and all. ``EMAIL_BACKEND`` names another backend
outright. Mail is sent by Celery tasks, never inside a request.
"""

from __future__ import annotations

from core.env import SettingError, env_bool, env_int, env_optional, env_str, env_url

EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_optional("EMAIL_HOST_PASSWORD") or ""
# STARTTLS on the submission port (587), or TLS from the first byte (465): one or neither.
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise SettingError("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be on: choose one")
# Seconds an SMTP relay may take to answer before the sending task fails (and is logged).
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Crawford <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# The address players reach the site at: links in e-mail are written from it, as a task
# that sends one has no request to read the host from.
CRAWFORD_SITE_URL = (
    env_url("CRAWFORD_SITE_URL", schemes=frozenset({"http", "https"})) or "http://127.0.0.1:8000"
).rstrip("/")
# A password reset link works for this long, and once (Django's token generator).
PASSWORD_RESET_TIMEOUT = 3600 * env_int("CRAWFORD_PASSWORD_RESET_HOURS", 24, minimum=1)
# An address verification link works for this many days.
CRAWFORD_EMAIL_VERIFY_DAYS = env_int("CRAWFORD_EMAIL_VERIFY_DAYS", 7, minimum=1)
