"""Account pages. Views stay thin: a form validates, a service writes."""

import hashlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import hooks, services
from accounts.decorators import account_required
from accounts.forms import (
    BotAccountRequestForm,
    DeleteAccountForm,
    LoginForm,
    PasswordResetForm,
    ProfileForm,
    SignUpForm,
)
from accounts.limits import limit_hit
from accounts.models import User
from accounts.selectors import (
    bot_account_latest,
    bot_account_refusal,
    user_blocked_list,
    user_has_blocked,
    user_is_guest,
    user_public_get,
)
from core.client_address import client_address
from core.errors import GameError


def _site(request: HttpRequest) -> str:
    """The site's address for a mail's links, as the request reached it."""
    return f"{'https' if request.is_secure() else 'http'}://{request.get_host()}"


def _confirm_sent(request: HttpRequest, email: str) -> None:
    messages.info(
        request,
        _(
            "To confirm %(email)s, open the link we sent there. Until then your account "
            "keeps the address it had."
        )
        % {"email": email},
    )


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Sign up; from a guest's session the guest becomes the account, its games with it."""
    guest = request.user if user_is_guest(request.user) else None
    if request.user.is_authenticated and guest is None:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # The address is only asked for: it becomes the account's when the link sent to it
        # is opened (the same answer whether or not another account has it).
        email = form.cleaned_data["email"]
        fields = {
            "username": form.cleaned_data["username"],
            "email": "",
            "password": form.cleaned_data["password1"],
        }
        try:
            if guest is not None:
                user = services.guest_sign_up(guest=guest, **fields)
            else:
                user = services.user_create(**fields)
        except services.AccountConflict as conflict:
            form.add_error(None, conflict.message)
        else:
            login(request, user, backend=services.LOGIN_BACKEND)
            messages.success(
                request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.username}
            )
            if email:
                services.email_change_request(user=user, email=email, site=_site(request))
                _confirm_sent(request, email)
            return redirect(_safe_next(request) or resolve_url(settings.LOGIN_REDIRECT_URL))
    context = {"form": form, "next": _safe_next(request) or "", "guest": guest is not None}
    return render(request, "accounts/signup.html", context)


login_view = auth_views.LoginView.as_view(
    template_name="accounts/login.html",
    authentication_form=LoginForm,
    redirect_authenticated_user=True,
)
logout_view = auth_views.LogoutView.as_view()  # POST only: GET answers 405


class NewPasswordTold:
    """For Django's password views: once the new password is saved (and, on a change, this
    session's hash updated, so it stays signed in), it revokes the API tokens and closes the
    sockets of the other sessions (``services.user_password_changed``)."""

    def form_valid(self, form):
        response = super().form_valid(form)  # type: ignore[misc]
        services.user_password_changed(user=form.user)
        return response


class PasswordChangeView(NewPasswordTold, auth_views.PasswordChangeView):
    pass


class PasswordResetConfirmView(NewPasswordTold, auth_views.PasswordResetConfirmView):
    pass


password_change = PasswordChangeView.as_view(
    template_name="accounts/password_change_form.html",
    success_url=reverse_lazy("accounts:password_change_done"),
)
password_change_done = auth_views.PasswordChangeDoneView.as_view(
    template_name="accounts/password_change_done.html",
)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, with a limit on the mails asked for one address and from one client in a
    period (``ACCOUNTS_PASSWORD_RESETS_*``). Past it the page says so, in the same words for
    any address, registered or not."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        email = form.cleaned_data["email"].strip().lower()
        window = float(settings.ACCOUNTS_PASSWORD_RESETS_WINDOW)
        over_address = limit_hit(
            kind="reset-address",
            key=hashlib.sha256(email.encode()).hexdigest(),
            limit=settings.ACCOUNTS_PASSWORD_RESETS_PER_ADDRESS,
            window=window,
        )
        over_client = limit_hit(
            kind="reset-client",
            key=client_address(self.request),
            limit=settings.ACCOUNTS_PASSWORD_RESETS_PER_CLIENT,
            window=window,
        )
        if over_address or over_client:
            form.add_error(None, TOO_MANY_RESETS)
            return self.form_invalid(form)
        return super().form_valid(form)


TOO_MANY_RESETS = gettext_lazy(
    "Too many password-reset e-mails were asked for this address or from your network. Try "
    "again later; a link already sent still works."
)

password_reset = PasswordResetView.as_view(
    form_class=PasswordResetForm,
    template_name="accounts/password_reset_form.html",
    email_template_name="accounts/email/password_reset_email.txt",
    subject_template_name="accounts/email/password_reset_subject.txt",
    success_url=reverse_lazy("accounts:password_reset_done"),
)
password_reset_done = auth_views.PasswordResetDoneView.as_view(
    template_name="accounts/password_reset_done.html",
)
password_reset_confirm = PasswordResetConfirmView.as_view(
    template_name="accounts/password_reset_confirm.html",
    success_url=reverse_lazy("accounts:password_reset_complete"),
)
password_reset_complete = auth_views.PasswordResetCompleteView.as_view(
    template_name="accounts/password_reset_complete.html",
)


@require_http_methods(["GET", "HEAD"])
def profile(request: HttpRequest, username: str) -> HttpResponse:
    profile_user = user_public_get(username=username)
    if profile_user is None:
        raise Http404(_("No player has that username."))
    if profile_user.username != username:  # /u/ALICE/ → /u/alice/
        return redirect("accounts:profile", username=profile_user.username, permanent=True)
    is_own = request.user == profile_user
    viewer = request.user
    blocked = (
        isinstance(viewer, User)
        and not is_own
        and user_has_blocked(blocker=viewer, blocked=profile_user)
    )
    return render(
        request,
        "accounts/profile.html",
        {
            "profile_user": profile_user,
            "is_own_profile": is_own,
            "blocked_by_me": blocked,
            **hooks.profile_context(profile_user),
        },
    )


@account_required
@require_http_methods(["GET", "POST"])
def profile_edit(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    # A copy, so a rejected form never changes the user shown in the page header.
    form = ProfileForm(request.POST or None, instance=User.objects.get(pk=user.pk))
    if request.method == "POST" and form.is_valid():
        fields = dict(form.cleaned_data)
        email, _password = fields.pop("email"), fields.pop("current_password")
        fields.pop("time_zone")  # shown only: the browser's zone (core/timezones.py)
        services.user_update_profile(user=user, **fields)
        messages.success(request, _("Your profile was saved."))
        if form.email_changed:
            services.email_change_request(user=user, email=email, site=_site(request))
            if email:
                _confirm_sent(request, email)
            else:
                messages.info(request, _("Your account has no e-mail address now."))
        return redirect("accounts:profile", username=user.username)
    return render(request, "accounts/profile_edit.html", {"form": form})


@account_required
@require_GET
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link of a confirmation mail: the address it names becomes the account's, when it
    is opened by that account, in time, once."""
    user = request.user
    assert isinstance(user, User)
    try:
        email = services.email_change_confirm(user=user, token=token)
    except services.EmailConfirmRefused as refused:
        context = {"message": refused.message}
        return render(request, "accounts/email_confirm_failed.html", context, status=refused.status)
    messages.success(request, _("Your e-mail address is now %(email)s.") % {"email": email})
    return redirect("accounts:profile_edit")


@sensitive_post_parameters("password")
@account_required
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    form = DeleteAccountForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        services.user_delete(user=user)
        logout(request)
        messages.success(
            request, _("Your account was deleted. Goodbye, and thank you for playing.")
        )
        return redirect(reverse("home"))
    return render(request, "accounts/account_delete.html", {"form": form})


# --- blocking ---------------------------------------------------------------------------------


@account_required
@require_http_methods(["GET", "POST"])
def block(request: HttpRequest, username: str) -> HttpResponse:
    """GET: ask to confirm. POST: block the player (they are not told)."""
    user = request.user
    assert isinstance(user, User)
    target = user_public_get(username=username)
    if target is None:
        raise Http404(_("No player has that username."))
    if target.pk == user.pk:
        messages.error(request, _("You cannot block yourself."))
        return redirect("accounts:profile", username=user.username)
    if request.method == "POST":
        services.user_block(blocker=user, blocked=target)
        messages.success(
            request,
            _(
                "You blocked %(name)s. Neither of you can challenge the other or take the "
                "other's seeks, and you will not see theirs."
            )
            % {"name": target.public_name},
        )
        return redirect("accounts:profile", username=target.username)
    return render(request, "accounts/block_confirm.html", {"target": target})


@account_required
@require_POST
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    """Lift a block; back to ``next`` (the blocked list) or the player's profile."""
    user = request.user
    assert isinstance(user, User)
    # Deleted accounts too: a block of a player who later left can still be lifted.
    target = User.objects.filter(username__iexact=username).first()
    if target is None:
        raise Http404(_("No player has that username."))
    if services.user_unblock(blocker=user, blocked=target):
        messages.success(request, _("You unblocked %(name)s.") % {"name": target.public_name})
    next_url = _safe_next(request)
    if next_url:
        return redirect(next_url)
    if target.deleted_at is not None:
        return redirect("accounts:blocked")
    return redirect("accounts:profile", username=target.username)


@account_required
@require_GET
def blocked(request: HttpRequest) -> HttpResponse:
    """The players you blocked, each with an Unblock button."""
    user = request.user
    assert isinstance(user, User)
    return render(request, "accounts/blocked.html", {"blocks": user_blocked_list(user=user)})


# --- bot accounts -----------------------------------------------------------------------------


@account_required
@require_http_methods(["GET", "POST"])
def bot_account(request: HttpRequest) -> HttpResponse:
    """What a bot account is, this account's request and its state, and the form to ask."""
    user = request.user
    assert isinstance(user, User)
    form = BotAccountRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.bot_account_request(user=user, note=form.cleaned_data["note"])
        except GameError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request, _("Your request was sent. An admin will approve or decline it.")
            )
        return redirect("accounts:bot_account")
    return render(
        request,
        "accounts/bot_account.html",
        {
            "form": form,
            "latest": bot_account_latest(user=user),
            "refusal": bot_account_refusal(user=user),
        },
    )
