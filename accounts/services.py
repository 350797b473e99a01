"""Writes about accounts. Views validate input with forms, then call one of these."""

import secrets

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.core import signing
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

from accounts import hooks
from accounts.mails import confirm_read, confirm_token, confirm_url, mail_send
from accounts.models import Block, BotAccountRequest, User
from accounts.selectors import (
    DELETED_USERNAME_PREFIX,
    GUEST_USERNAME_PREFIX,
    bot_account_refusal,
    user_has_played,
)
from core.credentials import credentials_changed
from core.errors import BAD_MESSAGE, DUPLICATE, FORBIDDEN, NOT_FOUND, GameError, lazy_format

#: The backend a view names when it signs someone in without a password typed (a sign-up, a
#: new guest): Django's own, not axes' (which only counts typed passwords).
LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"

# Session engines whose sessions live in the database table we can sweep.
_DATABASE_SESSION_ENGINES = {
    "django.contrib.sessions.backends.db",
    "django.contrib.sessions.backends.cached_db",
}


class AccountConflict(Exception):
    """Another account took the username or e-mail address between the check and the write."""

    message = _("That username or e-mail address is already in use. Please choose another.")


def user_create(*, username: str, email: str, password: str) -> User:
    """Create a player account; the password is assumed to have passed the validators."""
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError as exc:  # a concurrent sign-up won the race for the name or address
        raise AccountConflict from exc


def guest_create() -> User:
    """A guest account for one browser session: a random name nobody sees (it shows as
    "Guest"), no password, no e-mail (docs/accounts.md, "Guests")."""
    while True:
        username = f"{GUEST_USERNAME_PREFIX}{secrets.token_hex(8)}"
        try:
            with transaction.atomic():
                user = User(username=username, is_guest=True)
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:  # pragma: no cover - 64 random bits taken already
            continue


def guest_sign_up(*, guest: User, username: str, email: str, password: str) -> User:
    """Turn ``guest`` into a player account in place: its games stay its own."""
    guest.username = username
    guest.email = email
    guest.set_password(password)
    guest.is_guest = False
    guest.date_joined = timezone.now()
    try:
        with transaction.atomic():
            guest.save(update_fields=["username", "email", "password", "is_guest", "date_joined"])
    except IntegrityError as exc:
        raise AccountConflict from exc
    return guest


def user_update_profile(
    *,
    user: User,
    display_name: str,
    language: str,
    country: str,
    show_online: bool = True,
) -> User:
    """Save what a player may change about themselves on the edit-profile page, the e-mail
    address aside (``email_change_request``)."""
    user.display_name = display_name
    user.language = language
    user.country = country
    user.show_online = show_online
    fields = ["display_name", "language", "country", "show_online"]
    with transaction.atomic():
        user.save(update_fields=fields)
    return user


# --- the e-mail address -----------------------------------------------------------------------


class EmailConfirmRefused(Exception):
    """A confirmation link that cannot change the address: ``message`` says why, ``status``
    is the page's HTTP status (400, or 403 for a link of another account)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def email_change_request(*, user: User, email: str, site: str) -> None:
    """``user`` (who typed their password, or is signing up) wants ``email`` as their address.

    An empty ``email`` removes the address at once. Any other is only asked for: it gets a
    link to confirm it (``email_change_confirm``), valid ``ACCOUNTS_EMAIL_CONFIRM_MAX_AGE``
    seconds, unless another account has it, which then gets a mail saying someone asked for
    it and nothing changed; the caller's answer is the same either way, so it never tells
    whether an address is registered. The old address, if any, is told of the change. ``site``
    is the site's address for the links (``https://host``)."""
    email = User.objects.normalize_email(email or "").strip()
    old = user.email
    if old.lower() == email.lower():
        return
    if not email:
        user.email = ""
        user.save(update_fields=["email"])
    else:
        owner = User.objects.filter(email__iexact=email).exclude(pk=user.pk).first()
        if owner is not None:
            reset = site + reverse("accounts:password_reset")
            mail_send(
                to=email, template="email_taken", context={"site": site, "reset": reset}, user=owner
            )
        else:
            url = confirm_url(site=site, token=confirm_token(user=user, email=email))
            mail_send(
                to=email,
                template="email_confirm",
                context={"user": user, "site": site, "url": url},
                user=user,
            )
    if old:
        mail_send(
            to=old,
            template="email_changing",
            context={"user": user, "site": site, "email": email, "when": timezone.now()},
            user=user,
        )


def email_change_confirm(*, user: User, token: str) -> str:
    """Open a confirmation link as ``user``: the address it names becomes theirs, and is
    returned. Refusals (``EmailConfirmRefused``): expired, not valid (not made here, or
    changed), another account's link (403), already used (the address changed since)."""
    try:
        payload = confirm_read(token)
    except signing.SignatureExpired:
        raise EmailConfirmRefused(
            _("This link has expired. Change your address on your profile again to get a new one.")
        ) from None
    except signing.BadSignature:
        raise EmailConfirmRefused(
            _("This link is not valid. Open the whole link from the e-mail, or ask for a new one.")
        ) from None
    if payload.get("u") != user.pk:
        raise EmailConfirmRefused(
            _(
                "This link was sent to another account. Log out, then open it again and log in "
                "as that account."
            ),
            status=403,
        )
    used = _("This link was already used, or your address changed after it was sent.")
    try:
        with transaction.atomic():
            locked = User.objects.select_for_update().get(pk=user.pk)
            if locked.email != payload.get("o"):
                raise EmailConfirmRefused(used)
            if User.objects.filter(email__iexact=payload["e"]).exclude(pk=user.pk).exists():
                raise EmailConfirmRefused(_("Another account uses this address now."))
            locked.email = payload["e"]
            locked.save(update_fields=["email"])
    except IntegrityError as exc:  # an account took the address between the check and here
        raise EmailConfirmRefused(_("Another account uses this address now.")) from exc
    user.email = payload["e"]
    return user.email


def user_password_changed(*, user: User) -> None:
    """``user``'s password was changed, reset or made unusable (its save committed or in the
    same transaction): the hooks revoke what it guarded (the API tokens), and the user's open
    sockets check their credentials again (core/credentials.py). The sessions signed in with
    the old password stop on their own: their auth hash no longer matches."""
    for hook in hooks.password_changed:
        hook(user)
    credentials_changed(user_id=user.pk)


def user_logged_out(*, user: User | None, session_key: str | None) -> None:
    """``user`` logged out of the session ``session_key``: that session's sockets close."""
    if user is not None and user.pk is not None:
        credentials_changed(user_id=user.pk, session_key=session_key)


def _new_deleted_username() -> str:
    while True:
        candidate = f"{DELETED_USERNAME_PREFIX}{secrets.token_hex(8)}"
        if not User.objects.filter(username__iexact=candidate).exists():
            return candidate


def user_sessions_end(*, user: User) -> int:
    """Delete every stored session in which this user is logged in; return how many.

    Only database-backed session engines can be swept. Whatever the engine, changing the
    password hash (as `user_delete` does) makes Django reject the user's other sessions on
    their next request, so this sweep is a tidy-up, not the only safeguard.
    """
    return users_sessions_end(user_ids={user.pk})


def users_sessions_end(*, user_ids: set[int]) -> int:
    """Delete every stored session in which one of these users is logged in (one pass over
    the sessions, however many users); return how many."""
    if not user_ids or settings.SESSION_ENGINE not in _DATABASE_SESSION_ENGINES:
        return 0
    store_class = import_string(f"{settings.SESSION_ENGINE}.SessionStore")
    wanted = {str(pk) for pk in user_ids}
    ended = 0
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.get_decoded().get(SESSION_KEY) in wanted:
            store_class(session_key=session.session_key).delete()
            ended += 1
    return ended


def user_delete(*, user: User) -> User:
    """Anonymise an account in place (see docs/accounts.md for the policy).

    The row stays, so finished games, standings and opponents' histories keep a "deleted
    player"; everything that identifies the person goes, and the old username and e-mail
    address become free to register again.
    """
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        user.username = _new_deleted_username()
        user.email = ""
        user.display_name = ""
        user.first_name = ""
        user.last_name = ""
        user.country = ""
        user.language = ""
        user.set_unusable_password()
        user.is_active = False
        user.is_staff = False
        user.is_superuser = False
        user.deleted_at = timezone.now()
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
        hooks.account_deleted(user=user)
        user_password_changed(user=user)  # its tokens revoked, its sockets closed
    user_sessions_end(user=user)
    return user


# --- blocking ---------------------------------------------------------------------------------


def user_block(*, blocker: User, blocked: User) -> Block:
    """``blocker`` blocks ``blocked``: from now on neither can challenge the other, take the
    other's seeks or see them (the lobby checks at every read and write, so pending challenges
    between the two stop counting at once). Blocking twice keeps the first block.

    ValueError when a player tries to block themselves.
    """
    if blocker.pk == blocked.pk:
        raise ValueError("a player cannot block themselves")
    with transaction.atomic():
        block, _created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
    return block


def user_unblock(*, blocker: User, blocked: User) -> bool:
    """Lift ``blocker``'s block of ``blocked``; True when there was one."""
    deleted, _ = Block.objects.filter(blocker_id=blocker.pk, blocked_id=blocked.pk).delete()
    return deleted > 0


# --- bot accounts -----------------------------------------------------------------------------


def bot_account_request(*, user: User, note: str) -> BotAccountRequest:
    """``user`` asks an admin to make their account a bot account, saying in ``note`` what
    the program is. Refusals (GameError): forbidden (the account played a match, is staff,
    or cannot play), duplicate (already a bot account; a request already pending), and
    bad_message (no note, a note too long, or one with a NUL character)."""
    note = (note or "").strip()
    if not note:
        raise GameError(BAD_MESSAGE, _("Say what your program is and how it plays."))
    if len(note) > BotAccountRequest.NOTE_MAX_LENGTH:
        raise GameError(
            BAD_MESSAGE,
            lazy_format(
                _("Keep the note to %(n)d characters."), n=BotAccountRequest.NOTE_MAX_LENGTH
            ),
        )
    if "\x00" in note:  # PostgreSQL stores no NUL in text (the page's form refuses it too)
        raise GameError(BAD_MESSAGE, _("The note cannot contain a NUL character."))
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)  # one request at a time
        refusal = bot_account_refusal(user=locked)
        if refusal is not None:
            raise GameError(*refusal)
        try:
            with transaction.atomic():
                return BotAccountRequest.objects.create(user=locked, note=note)
        except IntegrityError as exc:  # the one-pending constraint: a request raced this one
            raise GameError(DUPLICATE, _("Your request is already waiting for an admin.")) from exc


def _bot_request_lock(*, request_id: int, admin: User) -> BotAccountRequest:
    if not (admin.is_active and admin.is_staff):
        raise GameError(FORBIDDEN, _("Only admins answer bot account requests."))
    request = (
        BotAccountRequest.objects.select_for_update(of=("self",))
        .select_related("user")
        .filter(pk=request_id)
        .first()
    )
    if request is None:
        raise GameError(NOT_FOUND, _("There is no such request."))
    if not request.is_pending:
        raise GameError(
            FORBIDDEN,
            lazy_format(
                _("The request of %(name)s was already %(status)s."),
                name=request.user.username,
                status=request.get_status_display(),
            ),
        )
    return request


def _bot_request_decide(*, request: BotAccountRequest, admin: User, status: str) -> None:
    request.status = status
    request.decided_at = timezone.now()
    request.decided_by = admin
    request.save(update_fields=["status", "decided_at", "decided_by"])


def bot_account_approve(*, request_id: int, admin: User) -> BotAccountRequest:
    """An admin approves a pending request: the account becomes a bot account. The account
    must still be fresh: if it played meanwhile, approval is refused (forbidden) and
    declining is the admin's call. Other refusals: not_found; forbidden (not an admin; the
    request was already answered)."""
    with transaction.atomic():
        request = _bot_request_lock(request_id=request_id, admin=admin)
        user = User.objects.select_for_update().get(pk=request.user_id)
        if user_has_played(user=user):
            raise GameError(
                FORBIDDEN,
                lazy_format(
                    _(
                        "%(name)s has played since asking, and only a fresh account can "
                        "become a bot account. Decline the request instead."
                    ),
                    name=user.username,
                ),
            )
        refusal = bot_account_refusal(user=user, approving=True)
        if refusal is not None:
            raise GameError(
                FORBIDDEN,
                lazy_format(
                    _("%(name)s cannot become a bot account: %(reason)s"),
                    name=user.username,
                    reason=refusal[1],
                ),
            )
        user.is_bot = True
        user.save(update_fields=["is_bot"])
        request.user = user
        _bot_request_decide(request=request, admin=admin, status=BotAccountRequest.Status.APPROVED)
    return request


def bot_account_decline(*, request_id: int, admin: User) -> BotAccountRequest:
    """An admin declines a pending request; the account stays a person's and may ask again.
    Refusals: not_found; forbidden (not an admin; the request was already answered)."""
    with transaction.atomic():
        request = _bot_request_lock(request_id=request_id, admin=admin)
        _bot_request_decide(request=request, admin=admin, status=BotAccountRequest.Status.DECLINED)
    return request
