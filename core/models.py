"""The plumbing's own rows: tasks waiting for the broker, and when each sweep last ran.

A *deferred task* is one that could not be queued because the broker (Redis) was away when
its transaction committed: it is kept here and queued as soon as the broker takes tasks
again (``core.tasks``), so no task asked for is lost to a Redis outage.

A *beat* is the last time a periodic sweep ran (``core.beats``): ``/healthz`` reports a
sweep that has stopped, and the deadline sweep learns from the gap since its last run that
the platform was away, and gives that time back to every running clock
(``matches.pauses``).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class DeferredTask(models.Model):
    name = models.CharField(max_length=100)
    args = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.name}{tuple(self.args)!r}"


class Beat(models.Model):
    name = models.CharField(max_length=100, primary_key=True)
    ran_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.ran_at:%H:%M:%S}"
