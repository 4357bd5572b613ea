from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminPasswordChangeForm, AdminUserCreationForm, UserChangeForm
from django.http import HttpRequest

from accounts.models import (
    LedgerAccount,
    LedgerEntry,
    LedgerTransaction,
    MadeBy,
    Profile,
    RatingChange,
    User,
    WalletAdjustment,
)
from accounts.names import display_name_cleaned, name_skeleton
from accounts.services import password_change, require_names_free
from core.errors import DomainError


def _free(what: str, name: str, user_id: int | None) -> None:
    """The same refusal as sign-up and the profile give, beside the admin's field."""
    try:
        require_names_free(names={what: name}, user_id=user_id)
    except DomainError as error:
        raise forms.ValidationError(str(error)) from None


class UserCreatedByStaffForm(AdminUserCreationForm):
    def clean_username(self) -> str:
        username: str = super().clean_username()
        _free("username", username, None)
        return username


class UserChangedByStaffForm(UserChangeForm[User]):
    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        _free("username", username, self.instance.pk)
        return username


class ProfileByStaffForm(forms.ModelForm[Profile]):
    """A display name set by staff is cleaned and checked as a player's own is."""

    class Meta:
        model = Profile
        fields = (
            "user",
            "display_name",
            "country",
            "rating",
            "experience",
            "checker_colour",
            "highlight_legal_moves",
            "automatic_forced_moves",
            "use_doubling_cube",
            "notification_sound",
        )

    def clean_display_name(self) -> str:
        name = display_name_cleaned(self.cleaned_data["display_name"])
        if not name:
            raise forms.ValidationError("Choose a display name others can see.")
        _free("display name", name, self.instance.user_id)
        return name


# The stubs make the admin's password form generic; Django's class is not, at run time.
if TYPE_CHECKING:
    _PasswordChangeForm = AdminPasswordChangeForm[User]
else:
    _PasswordChangeForm = AdminPasswordChangeForm


class ProfileInline(admin.StackedInline[Profile, User]):
    model = Profile
    form = ProfileByStaffForm
    can_delete = False


class PasswordSetByStaffForm(_PasswordChangeForm):
    """Staff setting a player's password go through the same service as the player does,
    so the player's API tokens stop working with the old password."""

    def save(self, commit: bool = True) -> Any:
        password_change(user=self.user, new_password=self.cleaned_data["password1"])
        return self.user


@admin.register(User)
class CrawfordUserAdmin(UserAdmin[User]):
    inlines = [ProfileInline]
    list_display = ("username", "email", "is_staff", "is_active", "date_joined")
    change_password_form = PasswordSetByStaffForm
    add_form = UserCreatedByStaffForm
    form = UserChangedByStaffForm

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        obj.username_skeleton = name_skeleton(obj.username)
        super().save_model(request, obj, form, change)
        if not change:  # an account staff made: its profile says so, made now or below
            Profile.objects.filter(user=obj).update(made_by=MadeBy.STAFF)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        for profile_form in formset.forms:
            profile = profile_form.instance
            profile.display_name_skeleton = name_skeleton(profile.display_name)
            if not change:
                profile.made_by = MadeBy.STAFF
        super().save_formset(request, form, formset, change)


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin[Profile]):
    form = ProfileByStaffForm
    list_display = ("display_name", "user", "country", "rating", "experience")
    search_fields = ("display_name", "user__username")
    list_select_related = ("user",)

    def save_model(self, request: HttpRequest, obj: Profile, form: Any, change: bool) -> None:
        obj.display_name_skeleton = name_skeleton(obj.display_name)
        super().save_model(request, obj, form, change)


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
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


class LedgerEntryInline(admin.TabularInline[LedgerEntry, LedgerTransaction]):
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
