from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class SiteUserAdmin(UserAdmin):
    fieldsets = UserAdmin.fieldsets + (
        ("Site", {"fields": ("notify", "time_zone", "confirm_moves", "is_bot", "last_seen")}),
    )
    list_display = ("username", "email", "date_joined", "last_seen", "is_bot", "is_staff")
