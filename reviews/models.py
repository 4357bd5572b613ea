"""A match's analysis by GNU Backgammon: a match played here, or a match file a player brought.

Terms:

* *analysis*: one run of GNU Backgammon's ``analyse match`` over one match at one depth
  (``plies``), queued, then running (``done`` of ``total`` actions analysed), then done with
  its ``result`` (the shape of ``GET /api/analyses/<id>/``, built by
  :mod:`reviews.results`), or failed with the reason.
* *played*: a match of this site, analysed when it finished; *uploaded*: a match file a
  player sent, kept in their library (``owner``) as .mat, with the format it came in
  (``file_format``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class AnalysisSource(models.TextChoices):
    PLAYED = "played", _("Played here")
    UPLOADED = "uploaded", _("Uploaded")


class Analysis(models.Model):
    match = models.OneToOneField(
        "matches.Match",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="analysis",
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="analyses",
        help_text="Who uploaded the file (uploads only).",
    )
    source = models.CharField(max_length=8, choices=AnalysisSource.choices)
    filename = models.CharField(max_length=200, blank=True)
    file_format = models.CharField(
        max_length=8,
        blank=True,
        help_text="The uploaded file's format (reviews.match_formats): mat, sgf, sgg, tmg.",
    )
    mat = models.TextField(help_text="The match as GNU Backgammon reads it.")
    players = models.JSONField(default=list, help_text="The two names, as in the match.")
    match_length = models.PositiveSmallIntegerField(default=0, help_text="0: money play.")
    plies = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=8, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED
    )
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    queued_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    alive_at = models.DateTimeField(
        null=True, blank=True, help_text="The worker running it last said it still was."
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["status", "queued_at"]),
            models.Index(fields=["owner", "created_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(source="played", match__isnull=False)
                | models.Q(source="uploaded", owner__isnull=False),
                name="analysis_is_of_a_played_match_or_an_upload",
            ),
        ]

    def __str__(self) -> str:
        return f"Analysis {self.pk} ({self.status})"
