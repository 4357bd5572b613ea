"""Top-level URLs: pages, the REST API with its schema, admin and health."""

from __future__ import annotations

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from django.utils import timezone
from django.views.decorators.cache import cache_control
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.languages import language_choose
from config import converters  # noqa: F401 - registers <id:...> before the apps' URLs
from config.asyncapi import asyncapi
from config.health import healthz, healthz_live, metrics

# Swagger UI's page is served with its script as a file (the split view), so scripts stay
# this site's own; it does style elements inline and draws icons from data: URLs.
api_docs = csp_update({"style-src": [UNSAFE_INLINE], "img-src": ["data:"]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema")
)

# The browser scripts' translations (``static/js/lib/i18n.js`` reads them), for the
# request's language; they change only with a release. Pages ask for them at an address
# naming their language (templates/base.html), so a browser's cached copy is never another
# language's.
STARTED = timezone.now()
javascript_catalog = cache_control(max_age=3600)(
    last_modified(lambda request: STARTED)(JavaScriptCatalog.as_view())
)

urlpatterns = [
    # The language switcher posts here (Django's set_language: a cookie, then back; a
    # logged-in player's account remembers it too).
    path("i18n/setlang/", language_choose, name="set_language"),
    path("jsi18n/", javascript_catalog, name="javascript-catalog"),
    path("", include("lobby.urls")),
    path("", include("accounts.urls")),
    path("api/", include("accounts.api_urls")),
    path("api/", include("matches.api_urls")),
    path("api/", include("reviews.api_urls")),
    path("", include("reviews.urls")),
    path("", include("matches.urls")),
    path("api/", include("tournaments.api_urls")),
    path("", include("tournaments.urls")),
    path("api/", include("disputes.api_urls")),
    path("", include("disputes.urls")),
    path("api/", include("fairplay.api_urls")),
    path("", include("fairplay.urls")),
    path("api/", include("lobby.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("api/asyncapi.json", asyncapi, name="api-asyncapi"),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("healthz/live", healthz_live, name="healthz-live"),
    path("metrics", metrics, name="metrics"),
]

handler404 = "core.api.not_found"
# A database or Redis outage is a 503 with Retry-After; anything else, a 500 (a bug).
handler500 = "core.outages.server_error"
