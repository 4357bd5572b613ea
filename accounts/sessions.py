"""Log-in sessions that know their player, so they can be ended everywhere at once.

Django's database sessions keep who is logged in only inside the encoded session data, so
there is no way to find a player's sessions. This engine (``SESSION_ENGINE =
"accounts.sessions"``) stores the same sessions with the player's id beside them, indexed.
Then a password change, "log out everywhere", a suspension or a closed account ends every
session of the player (``sessions_end``) in one statement, and tells every open socket of
theirs to check its own session at once (``core.sockets.sessions_changed``): one whose
session is gone closes with 4401 within a moment. A socket also checks its session before
every message it takes (``session_is_live``, named by ``CRAWFORD_SOCKET_SESSION_CHECK``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import connection, models, transaction
from django.utils import timezone

from core.sockets import sessions_changed


class Session(AbstractBaseSession):
    """A log-in session with its player (``None`` until someone logs in with it)."""

    user_id = models.BigIntegerField(null=True, db_index=True)

    class Meta:
        db_table = "accounts_session"
        verbose_name = "session"

    @classmethod
    def get_session_store_class(cls) -> type[SessionStore]:
        return SessionStore


class SessionStore(DatabaseSessionStore):
    """Django's database session store, writing the player's id into its own column."""

    @classmethod
    def get_model_class(cls) -> type[Session]:
        return Session

    def create_model_instance(self, data: dict[str, Any]) -> Session:
        session = super().create_model_instance(data)
        assert isinstance(session, Session)
        try:
            session.user_id = int(data[SESSION_KEY])
        except (KeyError, TypeError, ValueError):
            session.user_id = None
        return session


def sessions_end(*, user_id: int, keep: str | None = None) -> int:
    """End every session of the player but ``keep`` (the one that asked, when it stays
    logged in) and close their sockets; how many ended."""
    with transaction.atomic():
        ended, _ = Session.objects.filter(user_id=user_id).exclude(session_key=keep or "").delete()
        sessions_changed(user_id)
    return ended


def session_is_live(*, session_key: str, user_id: int) -> bool:
    """Is ``session_key`` still a session of ``user_id`` (not ended, not expired), and the
    player's account active? One indexed statement: sockets ask before every message."""
    table = connection.ops.quote_name(Session._meta.db_table)
    users = connection.ops.quote_name(_user_table())
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {table} s JOIN {users} u ON u.id = s.user_id"  # noqa: S608 - names
            " WHERE s.session_key = %s AND s.user_id = %s AND s.expire_date > %s"
            " AND u.is_active",
            [session_key, user_id, timezone.now()],
        )
        return cursor.fetchone() is not None


def _user_table() -> str:
    from django.contrib.auth import get_user_model

    return str(get_user_model()._meta.db_table)
