"""Writes about challenges and seeks. Each is one transaction that locks what it changes,
checks who acts and whether the challenge or seek is still open, and — only once the
transaction commits — tells the players concerned over their per-user sockets (and rings
the lobby's doorbell when the open seeks changed).

A refusal is a ``LobbyError`` (a ``GameError``) with a stable code and a message a player
understands; docs/lobby.md lists which service raises which.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

import engine
from accounts.models import User
from accounts.selectors import GUESTS_PLAY_BOTS, user_has_blocked, user_is_guest
from core.errors import (
    FORBIDDEN,
    NOT_FOUND,
    UNAUTHENTICATED,
    GameError,
    lazy_format,
    refuse_past_limit,
)
from games import hooks
from games.models import Match
from games.services import match_create_between
from lobby.broadcast import seeks_changed_send, user_frames_send
from lobby.errors import BLOCKED, CLOSED, DUPLICATE, EXPIRED, TAKEN, LobbyError
from lobby.models import Challenge, ChallengeLink, Seek
from lobby.selectors import challenge_accepted_frame, challenge_frame, seek_taken_frame

CANNOT_CHALLENGE = _("You cannot challenge this player.")
CANNOT_TAKE = _("You cannot take this seek.")


# --- helpers ----------------------------------------------------------------------------------


def _plays(user: Any) -> bool:
    """An account that can sit at a table: logged in, active, not deleted."""
    return (
        bool(getattr(user, "is_authenticated", False))
        and bool(user.is_active)
        and getattr(user, "deleted_at", None) is None
    )


def _require_player(user: Any, message: str | Promise) -> User:
    if not getattr(user, "is_authenticated", False):
        raise LobbyError(UNAUTHENTICATED, message)
    if not _plays(user):
        raise LobbyError(FORBIDDEN, _("Your account cannot play."))
    if user_is_guest(user):
        raise LobbyError(FORBIDDEN, GUESTS_PLAY_BOTS)
    return user  # type: ignore[no-any-return]


def _refuse_guest(user: User) -> None:
    """Guests play the bots only: any action with another person is refused, saying so."""
    if user_is_guest(user):
        raise LobbyError(FORBIDDEN, GUESTS_PLAY_BOTS)


def _lock_user(user: User) -> None:
    """Lock the acting user's row: their own creations run one at a time, so the limits on
    pending challenges and open seeks hold under concurrent requests."""
    User.objects.select_for_update().filter(pk=user.pk).first()


def _send_on_commit(
    frames: dict[int, list[dict[str, Any]]], *, seeks_changed: bool = False
) -> None:
    if frames:
        transaction.on_commit(partial(user_frames_send, frames))
    if seeks_changed:
        transaction.on_commit(seeks_changed_send)


def _challenge_lock(challenge_id: int) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("challenger", "challenged")
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None:
        raise LobbyError(NOT_FOUND, _("There is no such challenge."))
    return challenge


def _challenge_close(challenge: Challenge, status: str) -> None:
    """Set a final status and tell both players (inside the caller's transaction)."""
    challenge.status = status
    if status in (Challenge.Status.ACCEPTED, Challenge.Status.DECLINED):
        challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "answered_at", "match"])
    _send_on_commit(
        {
            uid: [challenge_frame(challenge, viewer_id=uid)]
            for uid in (challenge.challenger_id, challenge.challenged_id)
        }
    )


def _closed_message(challenge: Challenge) -> str | Promise:
    return {
        Challenge.Status.ACCEPTED: _("This challenge was already accepted."),
        Challenge.Status.DECLINED: _("This challenge was declined."),
        Challenge.Status.CANCELLED: _("This challenge was cancelled."),
    }.get(challenge.status, _("This challenge is no longer open."))


def _expired_challenge() -> LobbyError:
    return LobbyError(EXPIRED, _("This challenge expired before it was answered."))


def _ranked_rules(league: Any, challenger: User, challenged: User) -> engine.Rules:
    """The league's knobs for a ranked challenge, or a LobbyError (forbidden) saying why the
    two may not play a ranked match there."""
    try:
        return hooks.ranked_terms(league=league, user0=challenger, user1=challenged)
    except GameError as exc:
        raise LobbyError(FORBIDDEN, exc.lazy_message) from None


def _ranked_refusal(league: Any, challenger: User, challenged: User) -> str | Promise:
    """Why the two may no longer play ranked in ``league`` ("" when they may)."""
    try:
        hooks.ranked_terms(league=league, user0=challenger, user1=challenged)
    except GameError as exc:
        return exc.lazy_message
    return ""


# --- challenges -------------------------------------------------------------------------------


def challenge_create(
    *,
    challenger: Any,
    challenged_username: str,
    rules: engine.Rules | None = None,
    league: Any = None,
) -> Challenge:
    """``challenger`` invites the player called ``challenged_username`` (any case) to a casual
    match under ``rules`` — or, with a ``league``, to a ranked match of that league under its
    knobs (both must be active members of the active league: forbidden otherwise, saying
    why). The challenged player is told at once on their socket.

    Refusals: unauthenticated; not_found (no such player); forbidden (yourself, an account
    that cannot play, or one that blocked you — said as "You cannot challenge this player.",
    which never reveals the block); blocked (you blocked them); duplicate (a challenge of
    yours to them already waits); too_many (``LOBBY_MAX_PENDING_CHALLENGES`` wait already,
    or ``LOBBY_CHALLENGES_TO_ONE_PLAYER_LIMIT`` challenges to this player, accepted ones
    aside, were sent within ``LOBBY_CHALLENGES_TO_ONE_PLAYER_WINDOW`` seconds).
    """
    challenger = _require_player(challenger, _("Log in to challenge a player."))
    username = (challenged_username or "").strip()
    challenged = User.objects.filter(
        username__iexact=username, deleted_at__isnull=True, is_guest=False
    ).first()
    if challenged is None:
        raise LobbyError(NOT_FOUND, _("No player has that username."))
    if challenged.pk == challenger.pk:
        raise LobbyError(FORBIDDEN, _("You cannot challenge yourself."))
    if not _plays(challenged):
        raise LobbyError(FORBIDDEN, CANNOT_CHALLENGE)
    if user_has_blocked(blocker=challenger, blocked=challenged):
        raise LobbyError(BLOCKED, _("You blocked this player: unblock them to challenge them."))
    if user_has_blocked(blocker=challenged, blocked=challenger):
        raise LobbyError(FORBIDDEN, CANNOT_CHALLENGE)  # the same words as for any refusal
    if league is not None:
        rules = _ranked_rules(league, challenger, challenged)
    if rules is None:
        raise ValueError("a casual challenge needs rules")
    now = timezone.now()
    with transaction.atomic():
        _lock_user(challenger)
        waiting = Challenge.objects.filter(
            challenger_id=challenger.pk, status=Challenge.Status.PENDING, expires_at__gt=now
        )
        if waiting.filter(challenged_id=challenged.pk).exists():
            raise LobbyError(
                DUPLICATE, _("You already challenged this player: wait for their answer.")
            )
        since = now - timedelta(seconds=settings.LOBBY_CHALLENGES_TO_ONE_PLAYER_WINDOW)
        refuse_past_limit(
            Challenge.objects.filter(
                challenger_id=challenger.pk, challenged_id=challenged.pk, created_at__gte=since
            ).exclude(status=Challenge.Status.ACCEPTED),
            settings.LOBBY_CHALLENGES_TO_ONE_PLAYER_LIMIT,
            ngettext_lazy(
                "You challenged this player %(limit)d time lately: wait before challenging "
                "them again.",
                "You challenged this player %(limit)d times lately: wait before challenging "
                "them again.",
                "limit",
            ),
            error=LobbyError,
        )
        refuse_past_limit(
            waiting,
            settings.LOBBY_MAX_PENDING_CHALLENGES,
            ngettext_lazy(
                "You have %(limit)d challenge waiting for an answer: cancel it or wait.",
                "You have %(limit)d challenges waiting for an answer: cancel one or wait.",
                "limit",
            ),
            error=LobbyError,
        )
        challenge = Challenge.objects.create(
            challenger=challenger,
            challenged=challenged,
            league=league,
            rules=rules.to_dict(),
            created_at=now,
            expires_at=now + timedelta(seconds=settings.LOBBY_CHALLENGE_TTL),
        )
        _send_on_commit(
            {
                uid: [challenge_frame(challenge, viewer_id=uid)]
                for uid in (challenged.pk, challenger.pk)
            }
        )
    return challenge


def challenge_accept(*, challenge_id: int, user: Any) -> Match:
    """The challenged player accepts: the match starts (the challenger is player one) and
    both players are sent to the table. Accepting again returns the same match.

    Refusals: unauthenticated; not_found (no such challenge, or not yours to see);
    forbidden (you sent it); expired; closed (declined or cancelled, or one of the two
    blocked the other or can no longer play since it was sent; for a ranked challenge, either
    is no longer an active member of the league, or it was archived).
    """
    user = _require_player(user, _("Log in to answer a challenge."))
    error: LobbyError | None = None
    with transaction.atomic():
        challenge = _challenge_lock(challenge_id)
        if challenge.challenger_id == user.pk:
            raise LobbyError(FORBIDDEN, _("Only the challenged player can accept a challenge."))
        if challenge.challenged_id != user.pk:
            raise LobbyError(NOT_FOUND, _("There is no such challenge."))
        if challenge.status == Challenge.Status.ACCEPTED and challenge.match is not None:
            return challenge.match
        if challenge.status == Challenge.Status.EXPIRED:
            raise _expired_challenge()
        if challenge.status != Challenge.Status.PENDING:
            raise LobbyError(CLOSED, _closed_message(challenge))
        challenger = challenge.challenger
        if challenge.expires_at <= timezone.now():
            _challenge_close(challenge, Challenge.Status.EXPIRED)
            error = _expired_challenge()
        elif (
            not _plays(challenger)
            or user_has_blocked(blocker=challenger, blocked=user)
            or user_has_blocked(blocker=user, blocked=challenger)
        ):
            _challenge_close(challenge, Challenge.Status.CANCELLED)
            error = LobbyError(CLOSED, _("This challenge is no longer open."))
        elif challenge.league is not None and (
            refusal := _ranked_refusal(challenge.league, challenger, user)
        ):
            _challenge_close(challenge, Challenge.Status.CANCELLED)
            error = LobbyError(
                CLOSED,
                lazy_format(
                    # Translators: %(reason)s is a sentence saying why, such as "This account
                    # cannot play."
                    _("This ranked challenge is no longer open: %(reason)s"),
                    reason=refusal,
                ),
            )
        else:
            # A ranked match takes its league's knobs, membership checked again now
            # (games.hooks.ranked_terms, which the leagues app answers).
            match = match_create_between(
                user0=challenger,
                user1=user,
                rules=engine.Rules.from_dict(challenge.rules),
                ranked=challenge.league is not None,
                league=challenge.league,
            )
            challenge.match = match
            _challenge_close(challenge, Challenge.Status.ACCEPTED)
            game = match.current_game
            assert game is not None
            accepted = challenge_accepted_frame(challenge, game_id=game.pk)
            _send_on_commit({challenger.pk: [accepted], user.pk: [accepted]})
    if error is not None:
        raise error
    return match


def challenge_decline(*, challenge_id: int, user: Any) -> Challenge:
    """The challenged player says no; the challenger is told. Declining again changes
    nothing. Refusals: unauthenticated, not_found, forbidden (you sent it), expired, closed."""
    user = _require_player(user, _("Log in to answer a challenge."))
    error: LobbyError | None = None
    with transaction.atomic():
        challenge = _challenge_lock(challenge_id)
        if challenge.challenger_id == user.pk:
            raise LobbyError(FORBIDDEN, _("Only the challenged player can decline a challenge."))
        if challenge.challenged_id != user.pk:
            raise LobbyError(NOT_FOUND, _("There is no such challenge."))
        if challenge.status == Challenge.Status.DECLINED:
            return challenge
        if challenge.status == Challenge.Status.EXPIRED:
            raise _expired_challenge()
        if challenge.status != Challenge.Status.PENDING:
            raise LobbyError(CLOSED, _closed_message(challenge))
        if challenge.expires_at <= timezone.now():
            _challenge_close(challenge, Challenge.Status.EXPIRED)
            error = _expired_challenge()
        else:
            _challenge_close(challenge, Challenge.Status.DECLINED)
    if error is not None:
        raise error
    return challenge


def challenge_cancel(*, challenge_id: int, user: Any) -> Challenge:
    """The challenger takes the challenge back; the challenged player's notice goes away.
    Cancelling again, or after it expired, changes nothing. Refusals: unauthenticated,
    not_found, forbidden (you received it), closed (already accepted or declined)."""
    user = _require_player(user, _("Log in to cancel a challenge."))
    with transaction.atomic():
        challenge = _challenge_lock(challenge_id)
        if challenge.challenged_id == user.pk:
            raise LobbyError(
                FORBIDDEN, _("Only the challenger can cancel a challenge: decline it.")
            )
        if challenge.challenger_id != user.pk:
            raise LobbyError(NOT_FOUND, _("There is no such challenge."))
        if challenge.status in (Challenge.Status.CANCELLED, Challenge.Status.EXPIRED):
            return challenge
        if challenge.status != Challenge.Status.PENDING:
            raise LobbyError(CLOSED, _closed_message(challenge))
        expired = challenge.expires_at <= timezone.now()
        _challenge_close(
            challenge, Challenge.Status.EXPIRED if expired else Challenge.Status.CANCELLED
        )
    return challenge


# --- seeks ------------------------------------------------------------------------------------


def _seek_lock(seek_id: int) -> Seek:
    seek = (
        Seek.objects.select_for_update(of=("self",))
        .select_related("owner", "match")
        .filter(pk=seek_id)
        .first()
    )
    if seek is None:
        raise LobbyError(NOT_FOUND, _("There is no such seek."))
    return seek


def _seek_close(seek: Seek, status: str) -> None:
    seek.status = status
    seek.save(update_fields=["status", "match", "taken_by", "taken_at"])
    _send_on_commit({}, seeks_changed=True)


def seek_create(*, owner: Any, rules: engine.Rules) -> Seek:
    """``owner`` offers a casual match under ``rules`` to anyone; every lobby page sees it.
    Refusals: unauthenticated; too_many (``LOBBY_MAX_OPEN_SEEKS`` open already)."""
    owner = _require_player(owner, _("Log in to post a seek."))
    now = timezone.now()
    with transaction.atomic():
        _lock_user(owner)
        open_seeks = Seek.objects.filter(
            owner_id=owner.pk, status=Seek.Status.OPEN, expires_at__gt=now
        )
        refuse_past_limit(
            open_seeks,
            settings.LOBBY_MAX_OPEN_SEEKS,
            ngettext_lazy(
                "You have %(limit)d open seek already: cancel it or wait for a taker.",
                "You have %(limit)d open seeks already: cancel one or wait for a taker.",
                "limit",
            ),
            error=LobbyError,
        )
        seek = Seek.objects.create(
            owner=owner,
            rules=rules.to_dict(),
            created_at=now,
            expires_at=now + timedelta(seconds=settings.LOBBY_SEEK_TTL),
        )
        _send_on_commit({}, seeks_changed=True)
    return seek


def seek_take(*, seek_id: int, user: Any) -> Match:
    """``user`` takes an open seek: the match starts (the seek's owner is player one) and both
    are sent to the table. The first taker wins (the seek row is locked); taking it again
    returns the same match.

    Refusals: unauthenticated; not_found; forbidden (your own seek, or its owner blocked you —
    said as "You cannot take this seek."); blocked (you blocked its owner); taken (someone
    else was first); expired; closed (cancelled, or its owner can no longer play).
    """
    user = _require_player(user, _("Log in to take a seek."))
    error: LobbyError | None = None
    with transaction.atomic():
        seek = _seek_lock(seek_id)
        owner = seek.owner
        if seek.owner_id == user.pk:
            raise LobbyError(FORBIDDEN, _("This is your own seek: wait for a taker, or cancel it."))
        if seek.status == Seek.Status.TAKEN:
            if seek.taken_by_id == user.pk and seek.match is not None:
                return seek.match
            raise LobbyError(TAKEN, _("Someone else took this seek first."))
        if seek.status == Seek.Status.CANCELLED:
            raise LobbyError(CLOSED, _("This seek was cancelled."))
        if seek.status == Seek.Status.EXPIRED:
            raise LobbyError(EXPIRED, _("This seek expired."))
        if user_has_blocked(blocker=user, blocked=owner):
            raise LobbyError(BLOCKED, _("You blocked this player: unblock them to play them."))
        if user_has_blocked(blocker=owner, blocked=user):
            raise LobbyError(FORBIDDEN, CANNOT_TAKE)
        if seek.expires_at <= timezone.now():
            _seek_close(seek, Seek.Status.EXPIRED)
            error = LobbyError(EXPIRED, _("This seek expired."))
        elif not _plays(owner):
            _seek_close(seek, Seek.Status.CANCELLED)
            error = LobbyError(CLOSED, _("This seek is no longer open."))
        else:
            match = match_create_between(
                user0=owner, user1=user, rules=engine.Rules.from_dict(seek.rules)
            )
            seek.match = match
            seek.taken_by = user
            seek.taken_at = timezone.now()
            _seek_close(seek, Seek.Status.TAKEN)
            game = match.current_game
            assert game is not None
            taken = seek_taken_frame(seek, game_id=game.pk)
            _send_on_commit({owner.pk: [taken], user.pk: [taken]})
    if error is not None:
        raise error
    return match


def seek_cancel(*, seek_id: int, user: Any) -> Seek:
    """The owner withdraws an open seek. Cancelling again, or after it expired, changes
    nothing. Refusals: unauthenticated; not_found (not your seek); closed (already taken)."""
    user = _require_player(user, _("Log in to cancel a seek."))
    with transaction.atomic():
        seek = _seek_lock(seek_id)
        if seek.owner_id != user.pk:
            raise LobbyError(NOT_FOUND, _("There is no such seek of yours."))
        if seek.status in (Seek.Status.CANCELLED, Seek.Status.EXPIRED):
            return seek
        if seek.status == Seek.Status.TAKEN:
            raise LobbyError(CLOSED, _("This seek was already taken."))
        expired = seek.expires_at <= timezone.now()
        _seek_close(seek, Seek.Status.EXPIRED if expired else Seek.Status.CANCELLED)
    return seek


# --- challenge links --------------------------------------------------------------------------


def _link_lock(*, token: str = "", link_id: int | None = None) -> ChallengeLink:
    links = ChallengeLink.objects.select_for_update(of=("self",)).select_related(
        "maker", "challenge__match"
    )
    link = (
        links.filter(pk=link_id).first()
        if link_id is not None
        else links.filter(token=token).first()
        if token
        else None
    )
    if link is None:
        raise LobbyError(NOT_FOUND, _("There is no such challenge link."))
    return link


def _link_close(link: ChallengeLink, status: str) -> None:
    link.status = status
    link.save(update_fields=["status", "used_by", "used_at", "challenge"])


def link_create(*, maker: Any, rules: engine.Rules) -> ChallengeLink:
    """``maker`` makes a link to send a friend: whoever opens it first and accepts plays a
    casual match under ``rules`` against them, until it expires (``LOBBY_LINK_TTL``).

    Refusals: unauthenticated; forbidden (a guest); too_many (``LOBBY_MAX_OPEN_LINKS`` of
    theirs are open)."""
    maker = _require_player(maker, _("Log in to make a challenge link."))
    _refuse_guest(maker)
    now = timezone.now()
    with transaction.atomic():
        _lock_user(maker)
        open_links = ChallengeLink.objects.filter(
            maker_id=maker.pk, status=ChallengeLink.Status.OPEN, expires_at__gt=now
        )
        refuse_past_limit(
            open_links,
            settings.LOBBY_MAX_OPEN_LINKS,
            ngettext_lazy(
                "You have %(limit)d open challenge link already: cancel it or wait.",
                "You have %(limit)d open challenge links already: cancel one or wait.",
                "limit",
            ),
            error=LobbyError,
        )
        return ChallengeLink.objects.create(
            maker=maker,
            token=secrets.token_urlsafe(24),
            rules=rules.to_dict(),
            created_at=now,
            expires_at=now + timedelta(seconds=settings.LOBBY_LINK_TTL),
        )


def link_accept(*, token: str, user: Any) -> Match:
    """``user`` accepts the challenge link ``token``: it becomes a challenge from its maker to
    them, accepted at once through ``challenge_accept`` (the maker is player one, both are
    told on their sockets and sent to the table). The link works once: the first to accept
    plays; accepting again returns the same match to them.

    Refusals: unauthenticated; forbidden (a guest; your own link; its maker blocked you,
    said as "You cannot accept this challenge."); not_found; blocked (you blocked its maker);
    taken (someone else used it); closed (cancelled, or its maker can no longer play);
    expired."""
    user = _require_player(user, _("Log in to accept this challenge."))
    _refuse_guest(user)
    error: LobbyError | None = None
    with transaction.atomic():
        link = _link_lock(token=token)
        maker = link.maker
        if link.maker_id == user.pk:
            raise LobbyError(FORBIDDEN, _("This is your own challenge link: send it to a friend."))
        if link.status == ChallengeLink.Status.USED:
            challenge = link.challenge
            if link.used_by_id == user.pk and challenge is not None and challenge.match:
                return challenge.match
            raise LobbyError(TAKEN, _("Someone else already used this challenge link."))
        if link.status == ChallengeLink.Status.CANCELLED:
            raise LobbyError(CLOSED, _("This challenge link was cancelled."))
        if link.status == ChallengeLink.Status.EXPIRED:
            raise LobbyError(EXPIRED, _("This challenge link expired."))
        if user_has_blocked(blocker=user, blocked=maker):
            raise LobbyError(BLOCKED, _("You blocked this player: unblock them to play them."))
        if user_has_blocked(blocker=maker, blocked=user):
            raise LobbyError(FORBIDDEN, _("You cannot accept this challenge."))
        now = timezone.now()
        if link.expires_at <= now:
            _link_close(link, ChallengeLink.Status.EXPIRED)
            error = LobbyError(EXPIRED, _("This challenge link expired."))
        elif not _plays(maker) or maker.is_guest:
            _link_close(link, ChallengeLink.Status.CANCELLED)
            error = LobbyError(CLOSED, _("This challenge link is no longer open."))
        else:
            challenge = Challenge.objects.create(
                challenger=maker,
                challenged=user,
                rules=link.rules,
                created_at=now,
                expires_at=now + timedelta(seconds=settings.LOBBY_CHALLENGE_TTL),
            )
            match = challenge_accept(challenge_id=challenge.pk, user=user)
            link.challenge = challenge
            link.used_by = user
            link.used_at = now
            _link_close(link, ChallengeLink.Status.USED)
    if error is not None:
        raise error
    return match


def link_cancel(*, link_id: int, user: Any) -> ChallengeLink:
    """The maker withdraws an open link: opening it then says it was cancelled. Cancelling
    again, or after it expired, changes nothing. Refusals: unauthenticated; not_found (not
    your link); closed (already used)."""
    user = _require_player(user, _("Log in to cancel a challenge link."))
    with transaction.atomic():
        link = _link_lock(link_id=link_id)
        if link.maker_id != user.pk:
            raise LobbyError(NOT_FOUND, _("There is no such challenge link."))
        if link.status in (ChallengeLink.Status.CANCELLED, ChallengeLink.Status.EXPIRED):
            return link
        if link.status == ChallengeLink.Status.USED:
            raise LobbyError(CLOSED, _("This challenge link was already used."))
        expired = link.expires_at <= timezone.now()
        _link_close(
            link, ChallengeLink.Status.EXPIRED if expired else ChallengeLink.Status.CANCELLED
        )
    return link


# --- expiry -----------------------------------------------------------------------------------


def lobby_expire() -> int:
    """Mark every pending challenge and open seek past its time as expired, tell the players
    concerned, and return how many were marked. Reads never depend on it (they treat those
    as expired already); it tidies the rows and sends the news. Cheap when nothing is due:
    one read, no write lock."""
    now = timezone.now()
    due_challenges = Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__lte=now)
    due_seeks = Seek.objects.filter(status=Seek.Status.OPEN, expires_at__lte=now)
    if not due_challenges.exists() and not due_seeks.exists():
        return 0
    with transaction.atomic():
        challenges = list(
            due_challenges.select_for_update(of=("self",)).select_related(
                "challenger", "challenged"
            )
        )
        for challenge in challenges:
            _challenge_close(challenge, Challenge.Status.EXPIRED)
        seek_count = due_seeks.select_for_update().update(status=Seek.Status.EXPIRED)
        if seek_count:
            _send_on_commit({}, seeks_changed=True)
    return len(challenges) + seek_count
