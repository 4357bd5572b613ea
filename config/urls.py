"""Top-level URLs: pages, the REST API with its schema, admin and health."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.health import healthz

urlpatterns = [
    path("", include("accounts.urls")),
    path("api/", include("accounts.api_urls")),
    path("api/", include("matches.api_urls")),
    path("", include("matches.urls")),
    path("api/", include("tournaments.api_urls")),
    path("", include("tournaments.urls")),
    path("api/", include("disputes.api_urls")),
    path("", include("disputes.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
]
