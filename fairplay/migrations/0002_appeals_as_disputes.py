"""Appeals become disputes: an appeal waiting on its case is filed as a dispute about it."""

import django.db.models.deletion
from django.db import migrations, models
from django.urls import reverse


def file_waiting_appeals(apps, schema_editor):
    Case = apps.get_model("fairplay", "Case")
    Dispute = apps.get_model("disputes", "Dispute")
    AuditEntry = apps.get_model("disputes", "AuditEntry")
    for case in Case.objects.filter(state="appealed", appeal_dispute__isnull=True):
        dispute = Dispute.objects.create(
            fairplay_case_id=case.pk,
            filed_by_id=case.subject_id,
            category="appeal",
            description=case.appeal or "Appeal of the decision.",
            appealed={
                "kind": case.kind,
                "kind_label": case.kind,
                "summary": case.summary,
                "reason": case.decision_reason,
                "decided_at": case.decided_at.isoformat() if case.decided_at else None,
                "sanctions": [],
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
