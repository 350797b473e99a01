"""Whether a socket's user still holds the rights it opened with (docs/protocol.md, "Signed
out"), and the event that tells a user's sockets to ask again.

A socket is authenticated once, at its handshake: by the browser's session, or by an API
token (api/ws.py, which notes the token's id in ``scope["api_token"]``). Either may end while
the socket stays open: the token revoked, the password changed or reset (the other sessions'
auth hash no longer matches, the tokens are revoked), a log out, the account deleted. So
before each action a socket asks ``credentials_hold`` in the same database call as the action
(``core.sockets.JsonSocket.act``): one query. An anonymous socket has nothing to lose.

Closing the sockets at once is a courtesy on top: ``credentials_changed`` sends the user's
sockets (group ``credentials_group``) an event after the change commits, and each asks again
(a socket of the session or token named in it closes without asking: the log out deletes the
session only after telling). The channel layer delivers at most once, so the check on each
action stays the guard.

Core knows the session; a credential of a higher app is checked by the function that app
adds to ``checks`` (the API's tokens, api/apps.py).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Subquery
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from core import layer

#: The consumer method the event is dispatched to (``JsonSocket.credentials_recheck``).
RECHECK = "credentials.recheck"

#: The session engines that keep their sessions in the database table: the session is then
#: read in the same query as its user.
DATABASE_SESSION_ENGINES = frozenset(
    {"django.contrib.sessions.backends.db", "django.contrib.sessions.backends.cached_db"}
)

#: Checks of credentials other than the session, ``check(scope) -> bool | None``: None when
#: the socket did not come in with that kind of credential, else whether it still holds.
checks: list[Callable[[dict[str, Any]], bool | None]] = []


def credentials_group(user_id: int) -> str:
    """The group every signed-in socket of a user joins."""
    return f"credentials-{user_id}"


def credentials_hold(scope: dict[str, Any]) -> bool:
    """Whether the socket's user still holds the rights it opened with: an active account,
    and the token or session it came in with still valid. Runs in the database thread."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return True  # nothing to lose: an anonymous socket acts as nobody
    for check in checks:
        verdict = check(scope)
        if verdict is not None:
            return verdict
    return session_holds(scope_session_key(scope), user.pk)


def scope_session_key(scope: dict[str, Any]) -> str | None:
    """The key of the session the socket's handshake carried, if any."""
    session = scope.get("session")
    return getattr(session, "session_key", None) if session is not None else None


def session_holds(key: str | None, user_id: int) -> bool:
    """Django's own check of a session (``django.contrib.auth.get_user``), read-only: the
    session still exists and names this user and an allowed backend, the user is active, and
    the session's auth hash matches the user's password (a changed password ends the other
    sessions). Unlike ``get_user`` it never flushes nor cycles the session: the socket cannot
    set the browser's cookie."""
    if not key:
        return False
    engine = settings.SESSION_ENGINE
    store = import_module(engine).SessionStore
    users = get_user_model()._default_manager.filter(pk=user_id, is_active=True)
    if engine in DATABASE_SESSION_ENGINES:  # one query: the user and the session's data
        live = Session.objects.filter(session_key=key, expire_date__gt=timezone.now())
        row = users.annotate(session_data=Subquery(live.values("session_data")[:1])).values_list(
            "password", "session_data"
        )
        found = next(iter(row), None)
        if found is None or found[1] is None:
            return False
        password, encoded = found
        data = store().decode(encoded)
    else:
        data = store(session_key=key).load()
        password = next(iter(users.values_list("password", flat=True)), None)
        if password is None:
            return False
    if str(data.get(SESSION_KEY)) != str(user_id):
        return False
    if data.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return False
    given = data.get(HASH_SESSION_KEY)
    if not given:
        return False
    probe = get_user_model()(pk=user_id, password=password)
    return constant_time_compare(given, probe.get_session_auth_hash()) or any(
        constant_time_compare(given, fallback)
        for fallback in probe.get_session_auth_fallback_hash()
    )


def credentials_changed(
    *, user_id: int, session_key: str | None = None, token_id: int | None = None
) -> None:
    """Tell ``user_id``'s open sockets, once the change commits, to check their credentials
    again; a socket of ``session_key`` or ``token_id`` (ending now) closes without asking."""
    event = {"type": RECHECK, "session": session_key, "token": token_id}
    transaction.on_commit(
        lambda: layer.group_send_soon(
            credentials_group(user_id), event, what=f"the sockets of user {user_id}"
        )
    )
