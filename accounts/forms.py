"""Forms for the account pages. Duplicate names and addresses get a form error, never an
IntegrityError: the database constraints are the last guard, these checks the first."""

from typing import Any

from django import forms
from django.contrib.auth import forms as auth_forms
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.models import BotAccountRequest, User
from accounts.names import name_refusal
from accounts.selectors import (
    DELETED_USERNAME_PREFIX,
    GUEST_USERNAME_PREFIX,
    user_email_taken,
    user_username_taken,
)
from core.errors import lazy_format
from core.i18n import country_name, supported_language
from core.timezones import override_for, zone_label

EMAIL_TAKEN = _("An account with this e-mail address already exists.")
USERNAME_TAKEN = _("A user with that username already exists.")
USERNAME_RESERVED = _("Usernames starting with “%(prefix)s” are reserved.")


def _clean_email(form: forms.BaseForm, instance: User | None) -> str:
    email = User.objects.normalize_email(form.cleaned_data.get("email") or "").strip()
    if user_email_taken(email=email, exclude=instance):
        raise forms.ValidationError(EMAIL_TAKEN, code="email_taken")
    return email


#: The e-mail field's help, on the sign-up form and the profile: what the address is for.
EMAIL_HELP = _(
    "Optional. Only used to send you a link if you forget your password: without one, a "
    "forgotten password cannot be reset."
)


class _AddressNeverTaken:
    """The model's check of its unique address is left out: it would answer that an address
    is taken, and the address is only asked for here, never stored by the form."""

    def _get_validation_exclusions(self) -> set[str]:
        return {*super()._get_validation_exclusions(), "email"}  # type: ignore[misc]


class SignUpForm(_AddressNeverTaken, auth_forms.UserCreationForm):
    """Username and the password twice, checked by the password validators; an e-mail
    address if the player wants password resets (``EMAIL_HELP``)."""

    class Meta(auth_forms.UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].required = False
        self.fields["email"].help_text = EMAIL_HELP
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        self.fields["username"].help_text = _(
            "Your log-in name; 150 characters or fewer: letters, digits and @ . + - _ only."
        )

    def clean_username(self) -> str:
        username: str = self.cleaned_data.get("username") or ""
        for prefix in (DELETED_USERNAME_PREFIX, GUEST_USERNAME_PREFIX):
            if username.lower().startswith(prefix):
                raise forms.ValidationError(
                    USERNAME_RESERVED, code="reserved", params={"prefix": prefix}
                )
        if user_username_taken(username=username):
            raise forms.ValidationError(USERNAME_TAKEN, code="unique")
        # A guest signing up owns no name anyone sees: every other account counts.
        refusal = name_refusal(username)
        if refusal is not None:
            raise forms.ValidationError(refusal, code="impersonates")
        return username

    def clean_email(self) -> str:
        # Never "taken": the address gets a link to confirm it, or, when another account has
        # it, a mail saying so (accounts.services.email_change_request).
        return User.objects.normalize_email(self.cleaned_data.get("email") or "").strip()


class LoginForm(auth_forms.AuthenticationForm):
    """Django's log-in form; the username may be typed in any case (see the user manager)."""


class ProfileForm(_AddressNeverTaken, forms.ModelForm):
    """What a player may change about themselves. A new e-mail address (or none) needs the
    current password, and is only asked for: ``email_changed`` tells the view to send the
    confirmation link (accounts.services.email_change_request)."""

    current_password = forms.CharField(
        label=_("Your password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("Needed only to change your e-mail address."),
    )
    # Shown, not edited: the browser's zone, which the site follows (core/timezones.py).
    time_zone = forms.CharField(
        label=_("Time zone"),
        required=False,
        disabled=True,
        help_text=_(
            "Times on this site and in your e-mails are shown in your browser's time zone, "
            "found automatically."
        ),
    )

    class Meta:
        model = User
        fields = ("display_name", "email", "language", "country", "show_online")
        help_texts = {
            "display_name": _("The name other players see. Leave empty to show your username."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].required = False
        self.fields["email"].help_text = EMAIL_HELP
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        self.fields["display_name"].widget.attrs["autocomplete"] = "nickname"
        self.fields["country"].widget.attrs["autocomplete"] = "country"
        language = self.fields["language"]
        assert isinstance(language, forms.ChoiceField)
        language.choices = [
            ("", _("Follow my browser")),
            *((code, name) for code, name in language.choices if code),
        ]
        self.initial["time_zone"] = zone_label()
        self.order_fields(["display_name", "email", "language", "time_zone"])
        country = self.fields["country"]
        assert isinstance(country, forms.ChoiceField)
        named = [(code, country_name(code)) for code, _name in country.choices if code]
        country.choices = [
            ("", _("Do not show a country")),
            *sorted(named, key=lambda choice: choice[1].casefold()),
        ]

    def clean_display_name(self) -> str:
        name = (self.cleaned_data.get("display_name") or "").strip()
        refusal = name_refusal(name, exclude_user_id=self.instance.pk) if name else None
        if refusal is not None:
            raise forms.ValidationError(refusal, code="impersonates")
        return name

    def clean_email(self) -> str:
        return User.objects.normalize_email(self.cleaned_data.get("email") or "").strip()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        email = cleaned.get("email")
        self.email_changed = email is not None and email.lower() != self.instance.email.lower()
        if self.email_changed:
            password = cleaned.get("current_password") or ""
            if not password:
                self.add_error(
                    "current_password",
                    forms.ValidationError(
                        _("Type your password to change your e-mail address."),
                        code="password_required",
                    ),
                )
            elif not self.instance.check_password(password):
                self.add_error(
                    "current_password",
                    forms.ValidationError(
                        _("That is not your password."), code="password_incorrect"
                    ),
                )
        return cleaned


class DeleteAccountForm(forms.Form):
    """Deleting an account asks for the password again."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("Type your password to confirm that you want to delete your account."),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                _("That is not your password. Your account was not deleted."),
                code="password_incorrect",
            )
        return password


class BotAccountRequestForm(forms.Form):
    """Ask an admin to make this account a bot account."""

    note = forms.CharField(
        label=_("About your program"),
        max_length=BotAccountRequest.NOTE_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
        # Formatted when shown: a lazy text's plain % would be done once, in English, at import.
        help_text=lazy_format(
            _(
                "What the program is, who runs it and how it plays (%(n)d characters at most). "
                "An admin reads this before deciding."
            ),
            n=BotAccountRequest.NOTE_MAX_LENGTH,
        ),
    )


class AdminUserChangeForm(auth_forms.UserChangeForm):
    """The admin's change form, with the same case-insensitive e-mail check as the site."""

    class Meta(auth_forms.UserChangeForm.Meta):
        model = User

    def clean_email(self) -> str:
        return _clean_email(self, self.instance)

    def clean_username(self) -> str:
        username: str = self.cleaned_data.get("username") or ""
        if user_username_taken(username=username, exclude=self.instance):
            raise forms.ValidationError(USERNAME_TAKEN, code="unique")
        return username


class AdminUserCreationForm(auth_forms.AdminUserCreationForm):
    class Meta(auth_forms.AdminUserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self) -> str:
        return _clean_email(self, None)


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's form; the e-mail goes out in the account's own language when its profile names
    one (whoever asked for the reset, from whatever browser), else in the page's language, and
    with times in the account's time zone."""

    email = forms.EmailField(
        label=_("e-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        user = context.get("user")
        language = supported_language(getattr(user, "language", "")) or translation.get_language()
        with translation.override(language), override_for(user):
            super().send_mail(
                subject_template_name,
                email_template_name,
                context,
                from_email,
                to_email,
                html_email_template_name,
            )
