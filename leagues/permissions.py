"""Who may run a league: one rule for the admin, the site's pages and the API
(docs/tournaments.md, "Who may do what").

- A superuser, or a staff member granted Django's "change league" permission (a site
  operator), runs every league.
- An active moderator of a league runs that league — its settings and rules, its members
  (approve, decline, ban, lift a ban), its tournaments and seasons — and nothing of another
  league. A moderator need not be staff: the role opens the admin to them, scoped to their
  leagues (``admin_access``, registered with ``core.admin``), and losing the role closes it.
- Anyone else runs nothing.

Appointing moderators is for those who run every league: a moderator's membership's role is
read-only to a moderator.
"""

from __future__ import annotations

from typing import Any

from leagues.models import League, Membership

#: The permission that makes a staff member an operator of every league.
RUN_EVERY_LEAGUE = "leagues.change_league"


def runs_every_league(user: Any) -> bool:
    """A superuser, or active staff granted ``RUN_EVERY_LEAGUE``."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return bool(user.is_superuser or (user.is_staff and user.has_perm(RUN_EVERY_LEAGUE)))


def moderated_league_ids(user: Any) -> set[int]:
    """The leagues ``user`` is an active moderator of (cached on the user object, which lives
    as long as its request)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return set()
    cached: set[int] | None = getattr(user, "_moderated_leagues", None)
    if cached is None:
        cached = set(
            Membership.objects.filter(
                user_id=user.pk,
                role=Membership.Role.MODERATOR,
                status=Membership.Status.ACTIVE,
            ).values_list("league_id", flat=True)
        )
        user._moderated_leagues = cached
    return cached


def league_may_moderate(*, league: League | int, user: Any) -> bool:
    """Whether ``user`` runs ``league`` (a league or its id): every league's operator, or an
    active moderator of this one."""
    league_id = league if isinstance(league, int) else league.pk
    return runs_every_league(user) or league_id in moderated_league_ids(user)


def admin_access(user: Any) -> bool:
    """Whether the admin opens to ``user`` beyond Django's own rule (active staff): an active
    moderator of some league."""
    return bool(moderated_league_ids(user))
