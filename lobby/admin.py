from django.contrib import admin

from core.admin import ScopedAdmin
from games.admin_rules import RulesAdminMixin
from lobby.models import Challenge, ChallengeLink, Presence, Seek


@admin.register(Challenge)
class ChallengeAdmin(RulesAdminMixin, ScopedAdmin):
    list_display = ["id", "challenger", "challenged", "status", "created_at", "expires_at", "match"]
    list_filter = ["status"]
    search_fields = ["challenger__username", "challenged__username"]
    list_select_related = ["challenger", "challenged"]
    raw_id_fields = ["challenger", "challenged", "match"]
    readonly_fields = ["created_at", "answered_at"]
    date_hierarchy = "created_at"


@admin.register(Seek)
class SeekAdmin(RulesAdminMixin, ScopedAdmin):
    list_display = ["id", "owner", "status", "taken_by", "created_at", "expires_at", "match"]
    list_filter = ["status"]
    search_fields = ["owner__username", "taken_by__username"]
    list_select_related = ["owner", "taken_by"]
    raw_id_fields = ["owner", "taken_by", "match"]
    readonly_fields = ["created_at", "taken_at"]
    date_hierarchy = "created_at"


@admin.register(ChallengeLink)
class ChallengeLinkAdmin(RulesAdminMixin, ScopedAdmin):
    list_display = ["id", "maker", "status", "used_by", "created_at", "expires_at", "challenge"]
    list_filter = ["status"]
    search_fields = ["maker__username", "used_by__username"]
    list_select_related = ["maker", "used_by"]
    raw_id_fields = ["maker", "used_by", "challenge"]
    readonly_fields = ["token", "created_at", "used_at"]
    date_hierarchy = "created_at"


@admin.register(Presence)
class PresenceAdmin(ScopedAdmin):
    list_display = ["user", "process", "seen_at"]
    search_fields = ["user__username", "process"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]
