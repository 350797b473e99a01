from django.contrib import admin

from api.models import ApiToken
from core.admin import ScopedAdmin


@admin.register(ApiToken)
class ApiTokenAdmin(ScopedAdmin):
    """Tokens are seen and revoked here, never created (the key would have to be shown)."""

    list_display = ("name", "user", "prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "prefix", "user__username")
    readonly_fields = ("user", "name", "key_hash", "prefix", "created_at", "last_used_at")
    fields = (*readonly_fields, "revoked_at")

    def has_add_permission(self, request, obj=None) -> bool:
        return False
