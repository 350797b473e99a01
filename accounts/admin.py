from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts import services
from accounts.forms import AdminUserChangeForm, AdminUserCreationForm
from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    form = AdminUserChangeForm
    add_form = AdminUserCreationForm
    list_display = (
        "username",
        "email",
        "display_name",
        "country",
        "is_staff",
        "is_active",
        "date_joined",
        "last_login",
    )
    search_fields = ("username", "email", "display_name")
    list_filter = ("is_staff", "is_superuser", "is_active", "language", "country")
    readonly_fields = ("deleted_at", "last_login", "date_joined")
    fieldsets = (
        (None, {"fields": ("username", "password")}),
        (
            _("Profile"),
            {"fields": ("display_name", "email", "language", "country", "first_name", "last_name")},
        ),
        (
            _("Permissions"),
            {
                "fields": (
                    "is_active",
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
