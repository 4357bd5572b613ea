"""Django settings for Crawford, read from the environment through ``core.env``.

Unset variables give the embedded defaults of ``make run``: a SQLite file, Celery
tasks run eagerly in the web process and an in-memory channel layer. Setting
``DATABASE_URL`` and ``REDIS_URL`` gives the production shape: PostgreSQL, Celery
workers on Redis and channels-redis.
"""

from config.settings.api import *  # noqa: F403
from config.settings.base import *  # noqa: F403
from config.settings.mail import *  # noqa: F403
from config.settings.play import *  # noqa: F403
from config.settings.security import *  # noqa: F403
from config.settings.tasks import *  # noqa: F403
