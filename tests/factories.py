"""factory_boy factories that create users the way Crawford does: through services."""

from __future__ import annotations

from typing import Any

import factory

from accounts.models import User
from accounts.roles import Role
from accounts.services import user_create

PASSWORD = "a-long-test-password"


class UserFactory(factory.Factory):
    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"player{n}")
    password = PASSWORD
    role = Role.PLAYER
    rating = 1500.0

    @classmethod
    def _create(cls, model_class: type[User], *args: Any, **kwargs: Any) -> User:
        return user_create(**kwargs)

    @classmethod
    def _build(cls, model_class: type[User], *args: Any, **kwargs: Any) -> User:
        raise NotImplementedError("users are always created through accounts.services")
