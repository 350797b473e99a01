from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from leagues.models import League, Membership, QueueEntry, RatingChange


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "status", "admission", "bots_ranked", "created_at"]
    list_filter = ["status", "admission", "bots_ranked"]
    search_fields = ["name", "slug", "description"]
    prepopulated_fields = {"slug": ("name",)}


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = [
        "user",
        "league",
        "role",
        "status",
        "rating_shown",
        "deviation_shown",
        "matches",
        "joined_at",
    ]
    list_filter = ["status", "role", "league"]
    search_fields = ["user__username", "user__display_name", "league__name", "league__slug"]
    list_select_related = ["user", "league"]
    raw_id_fields = ["user"]
    readonly_fields = ["joined_at", "rated_at"]
    actions = ["approve_selected"]

    @admin.display(description="rating", ordering="rating")
    def rating_shown(self, obj: Membership) -> int:
        return round(obj.rating)

    @admin.display(description="deviation (stored)", ordering="deviation")
    def deviation_shown(self, obj: Membership) -> int:
        return round(obj.deviation)

    @admin.action(description="Approve the selected requests to join")
    def approve_selected(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        count = queryset.filter(status=Membership.Status.PENDING).update(
            status=Membership.Status.ACTIVE
        )
        self.message_user(request, f"{count} request(s) approved.", messages.SUCCESS)


@admin.register(QueueEntry)
class QueueEntryAdmin(admin.ModelAdmin):
    list_display = ["user", "league", "rating_at_join", "joined_at", "seen_at"]
    list_filter = ["league"]
    search_fields = ["user__username"]
    list_select_related = ["user", "league"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    """Read-only: ratings change only by rating a match (leagues.services)."""

    list_display = ["membership", "match", "score", "rating_before", "rating_after", "at"]
    list_filter = ["membership__league"]
    search_fields = ["membership__user__username"]
    list_select_related = ["membership__user", "membership__league"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
