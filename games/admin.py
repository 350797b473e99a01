from django.contrib import admin
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.admin import ScopedAdmin, ScopedTabularInline
from games.admin_rules import RulesAdminMixin
from games.models import Game, Match, Move


class GameInline(ScopedTabularInline):
    model = Game
    fields = ["number", "status", "first_player", "version", "winner", "points", "reason"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(RulesAdminMixin, ScopedAdmin):
    """A match; its rules are shown as a list, never changed (its games are dealt under them)."""

    rules_editable = False
    list_display = [
        "id",
        "seat0",
        "seat1",
        "status",
        "score0",
        "score1",
        "ranked",
        "league",
        "created_at",
    ]
    list_filter = ["status", "ranked", "league"]
    search_fields = ["user0__username", "user1__username", "league__name", "league__slug"]
    list_select_related = ["user0", "user1", "league"]
    readonly_fields = ["created_at", "updated_at", "finished_at", "rematch_offered_by", "rematch"]
    raw_id_fields = ["user0", "user1"]
    inlines = [GameInline]

    @admin.display(description=gettext_lazy("seat 0"))
    def seat0(self, obj: Match) -> str:
        return _seat_label(obj, 0)

    @admin.display(description=gettext_lazy("seat 1"))
    def seat1(self, obj: Match) -> str:
        return _seat_label(obj, 1)


def _seat_label(match: Match, seat: int) -> str:
    """The seat's name, marked when a bot account holds it (docs/bot_accounts.md)."""
    user = match.user_at(seat)
    name = match.seat_name(seat)
    if user is not None and user.is_bot:
        # Translators: the admin's match list; a seat held by a bot account.
        return _("%(name)s [bot account]") % {"name": name}
    return name


@admin.register(Game)
class GameAdmin(ScopedAdmin):
    list_display = ["id", "match", "number", "status", "version", "winner", "points", "reason"]
    list_filter = ["status", "reason"]
    list_select_related = ["match__user0", "match__user1"]
    search_fields = ["match__user0__username", "match__user1__username"]
    readonly_fields = [f.name for f in Game._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Move)
class MoveAdmin(ScopedAdmin):
    """Moves are append-only: the admin shows them and changes nothing."""

    list_display = ["game", "ply", "seat", "kind", "text", "undoes", "version", "created_at"]
    list_filter = ["seat", "kind"]
    readonly_fields = [f.name for f in Move._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
