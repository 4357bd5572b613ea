"""Path converters: an object id in a URL is a whole number the database can hold.

Django's ``int`` converter takes any run of digits; one past PostgreSQL's bigint reached the
database and failed there. ``id`` takes at most 18 digits, so anything longer is a 404.
"""

from __future__ import annotations

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


# Registered when this module is first imported, before any app's URLs are read (config.urls
# and config.routing import it first): the apps name object ids ``<id:...>``.
register_converter(IdConverter, "id")
