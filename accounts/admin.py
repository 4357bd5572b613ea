from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import Profile, User


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False


@admin.register(User)
class CrawfordUserAdmin(UserAdmin):
    inlines = [ProfileInline]
    list_display = ("username", "email", "is_staff", "is_active", "date_joined")


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("display_name", "user", "country", "rating", "experience")
    search_fields = ("display_name", "user__username")
    list_select_related = ("user",)
