from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminPasswordChangeForm
from django.http import HttpRequest

from accounts.models import (
    LedgerAccount,
    LedgerEntry,
    LedgerTransaction,
    Profile,
    RatingChange,
    User,
    WalletAdjustment,
)
from accounts.services import password_change


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False


class PasswordSetByStaffForm(AdminPasswordChangeForm):
    """Staff setting a player's password go through the same service as the player does,
    so the player's API tokens stop working with the old password."""

    def save(self, commit: bool = True) -> Any:
        password_change(user=self.user, new_password=self.cleaned_data["password1"])
        return self.user


@admin.register(User)
class CrawfordUserAdmin(UserAdmin):
    inlines = [ProfileInline]
    list_display = ("username", "email", "is_staff", "is_active", "date_joined")
    change_password_form = PasswordSetByStaffForm


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("display_name", "user", "country", "rating", "experience")
    search_fields = ("display_name", "user__username")
    list_select_related = ("user",)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Money and ratings are written by services only; the admin site just shows them."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(LedgerAccount)
class LedgerAccountAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "kind", "currency", "balance")
    list_filter = ("kind", "currency")
    search_fields = ("user__username", "escrow_ref")


class LedgerEntryInline(admin.TabularInline):
    model = LedgerEntry
    extra = 0
    can_delete = False
    readonly_fields = ("account", "amount", "balance_after")

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "kind", "key", "memo", "created_by")
    list_filter = ("kind",)
    search_fields = ("key", "memo", "escrow_ref")
    inlines = [LedgerEntryInline]


@admin.register(WalletAdjustment)
class WalletAdjustmentAdmin(ReadOnlyAdmin):
    list_display = (
        "created_at",
        "user",
        "direction",
        "amount_cents",
        "currency",
        "staff",
        "reason",
    )
    list_filter = ("direction", "currency")
    search_fields = ("user__username", "staff__username", "reason")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "user", "opponent", "match_id", "rating_before", "rating_after")
    search_fields = ("user__username", "opponent__username")
