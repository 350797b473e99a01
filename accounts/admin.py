from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts import services
from accounts.forms import AdminUserChangeForm, AdminUserCreationForm
from accounts.models import BotAccountRequest, User
from core.admin import ScopedAdmin, ScopedChoices
from core.errors import GameError


@admin.register(User)
class UserAdmin(ScopedChoices, DjangoUserAdmin):
    form = AdminUserChangeForm
    add_form = AdminUserCreationForm
    list_display = (
        "username",
        "email",
        "display_name",
        "country",
        "is_bot",
        "is_staff",
        "is_active",
        "date_joined",
        "last_login",
    )
    search_fields = ("username", "email", "display_name")
    list_filter = ("is_bot", "is_staff", "is_superuser", "is_active", "language", "country")
    # A person's account becomes a bot account only through an approved request.
    readonly_fields = ("is_bot", "time_zone", "deleted_at", "last_login", "date_joined")
    fieldsets = (
        (None, {"fields": ("username", "password")}),
        (
            _("Profile"),
            {
                "fields": (
                    "display_name",
                    "email",
                    "language",
                    "time_zone",
                    "country",
                    "first_name",
                    "last_name",
                )
            },
        ),
        (
            _("Permissions"),
            {
                "fields": (
                    "is_active",
                    "is_bot",
                    "is_staff",
                    "is_superuser",
                    "groups",
                    "user_permissions",
                ),
            },
        ),
        (_("Important dates"), {"fields": ("last_login", "date_joined", "deleted_at")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("username", "email", "usable_password", "password1", "password2"),
            },
        ),
    )
    actions = ("anonymise_accounts",)

    @admin.action(description=_("Delete (anonymise) the selected accounts"))
    def anonymise_accounts(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        count = 0
        for user in queryset.filter(deleted_at__isnull=True):
            if user.pk == request.user.pk:
                continue  # an admin does not anonymise themselves by a stray tick
            services.user_delete(user=user)
            count += 1
        self.message_user(
            request,
            ngettext("%(count)d account anonymised.", "%(count)d accounts anonymised.", count)
            % {"count": count},
            messages.SUCCESS,
        )


@admin.register(BotAccountRequest)
class BotAccountRequestAdmin(ScopedAdmin):
    """Players' requests to become bot accounts: read the note, then approve or decline
    (the actions call the services, which re-check that the account is still fresh)."""

    list_display = ("user", "user_is_bot", "status", "created_at", "decided_at", "decided_by")
    list_filter = ("status", "created_at", "decided_at")
    search_fields = ("user__username", "user__display_name", "note")
    list_select_related = ("user", "decided_by")
    readonly_fields = ("user", "note", "status", "created_at", "decided_at", "decided_by")
    fields = readonly_fields
    actions = ("approve_requests", "decline_requests")

    @admin.display(boolean=True, description=_("bot account"))
    def user_is_bot(self, obj: BotAccountRequest) -> bool:
        return obj.user.is_bot

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players ask from their own page

    def _decide(
        self, request: HttpRequest, queryset: QuerySet[BotAccountRequest], approve: bool
    ) -> None:
        admin_user = request.user
        assert isinstance(admin_user, User)
        decide = services.bot_account_approve if approve else services.bot_account_decline
        done = 0
        for pk in queryset.values_list("pk", flat=True):
            try:
                decided = decide(request_id=pk, admin=admin_user)
            except GameError as error:
                self.message_user(request, error.message, messages.ERROR)
            else:
                done += 1
                self.message_user(
                    request,
                    (
                        _("%(name)s is now a bot account.")
                        if approve
                        else _("%(name)s's request was declined.")
                    )
                    % {"name": decided.user.username},
                    messages.SUCCESS,
                )
        if not done:
            self.message_user(request, _("No request was changed."), messages.WARNING)

    @admin.action(description=_("Approve: make the accounts bot accounts"), permissions=["change"])
    def approve_requests(self, request: HttpRequest, queryset: QuerySet[BotAccountRequest]) -> None:
        self._decide(request, queryset, approve=True)

    @admin.action(description=_("Decline the selected requests"), permissions=["change"])
    def decline_requests(self, request: HttpRequest, queryset: QuerySet[BotAccountRequest]) -> None:
        self._decide(request, queryset, approve=False)
