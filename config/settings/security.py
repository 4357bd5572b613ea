"""HTTPS behind a proxy, and the Content-Security-Policy of every page."""

from __future__ import annotations

from csp.constants import NONE, SELF

from core.env import env_bool, env_header, env_int

# HTTPS. Behind a proxy that ends TLS, SECURE_PROXY_SSL_HEADER names the header it sets
# on requests that came over HTTPS (X-Forwarded-Proto=https); the proxy must overwrite it.
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=False)
# The health check is asked over plain HTTP from inside the container.
SECURE_REDIRECT_EXEMPT = [r"^healthz(/live)?$", r"^metrics$"]
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
