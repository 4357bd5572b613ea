"""Admin for staff: disputes to look up, the audit log to read (never to change)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from disputes.models import AuditEntry, Dispute


class AuditEntryInline(admin.TabularInline[AuditEntry, Dispute]):
    model = AuditEntry
    extra = 0
    can_delete = False
    fields = ("created_at", "actor", "action", "what", "reason")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin[Dispute]):
    """Decisions are taken on the dispute page, where their effects are applied; here
    staff only look disputes up."""

    list_display = ("id", "match", "filed_by", "category", "state", "decision", "created_at")
    list_filter = ("state", "category", "decision")
    search_fields = ("filed_by__username", "description", "match__id")
    readonly_fields = [field.name for field in Dispute._meta.fields]
    inlines = [AuditEntryInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin[AuditEntry]):
    list_display = ("created_at", "dispute", "actor", "action", "what")
    list_filter = ("action",)
    search_fields = ("actor__username", "what", "reason")
    readonly_fields = [field.name for field in AuditEntry._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
