"""Appeals become disputes: an appeal waiting on its case is filed as a dispute about it."""

import django.db.models.deletion
from django.db import migrations, models
from django.urls import reverse


# The labels as they were when appeals became disputes (historical models have no choices
# display methods).
KIND_LABELS = {
    "engine": "Engine assistance",
    "dumping": "Chip dumping or rating manipulation",
    "accounts": "Multiple accounts",
    "conduct": "Chat and conduct",
    "stalling": "Disconnection and stalling",
}
SANCTION_LABELS = {
    "warn": "Warning",
    "mute": "Muted",
    "suspend": "Suspended",
    "close": "Account closed",
    "reverse": "Dumped money reversed",
    "void_ratings": "Rating changes voided",
    "link": "Accounts linked",
    "lift": "Restrictions lifted",
}


def file_waiting_appeals(apps, schema_editor):
    Case = apps.get_model("fairplay", "Case")
    Sanction = apps.get_model("fairplay", "Sanction")
    Dispute = apps.get_model("disputes", "Dispute")
    AuditEntry = apps.get_model("disputes", "AuditEntry")
    for case in Case.objects.filter(state="appealed", appeal_dispute__isnull=True):
        sanctions = [
            {
                "kind": sanction.kind,
                "label": SANCTION_LABELS.get(sanction.kind, sanction.kind),
                "user": sanction.user.username,
                "until": sanction.until.isoformat() if sanction.until else None,
            }
            for sanction in Sanction.objects.filter(case=case).select_related("user")
        ]
        dispute = Dispute.objects.create(
            fairplay_case_id=case.pk,
            filed_by_id=case.subject_id,
            category="appeal",
            description=case.appeal or "Appeal of the decision.",
            appealed={
                "kind": case.kind,
                "kind_label": KIND_LABELS.get(case.kind, case.kind),
                "summary": case.summary,
                "reason": case.decision_reason,
                "decided_by": case.decided_by.username if case.decided_by else None,
                "decided_at": case.decided_at.isoformat() if case.decided_at else None,
                "sanctions": sanctions,
                "staff_url": reverse("fairplay-case", kwargs={"case_id": case.pk}),
                "player_url": reverse("fairplay-my-case", kwargs={"case_id": case.pk}),
            },
        )
        AuditEntry.objects.create(
            dispute=dispute,
            actor_id=case.subject_id,
            action="filed",
            what=f"Filed (appeal of fair-play case #{case.pk})",
            after={"state": "open", "category": "appeal"},
        )
        case.appeal_dispute = dispute
        case.save(update_fields=["appeal_dispute"])


class Migration(migrations.Migration):
    dependencies = [
        ("disputes", "0002_appeals"),
        ("fairplay", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="case",
            name="appeal_dispute",
            field=models.OneToOneField(
                blank=True,
                help_text="The dispute the appeal was filed as; staff decide it in the disputes queue.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="disputes.dispute",
            ),
        ),
        migrations.RunPython(file_waiting_appeals, migrations.RunPython.noop),
    ]
