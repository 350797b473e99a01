"""What apps above accounts add to its pages, registered in their ``AppConfig.ready()``:
accounts never imports them (docs/architecture.md, "Layers").

- ``profile_sections``: sections of a player's profile page, each a template and a function
  ``context(profile_user) -> dict`` whose names the template reads (the leagues app adds the
  record, the league ratings and the latest matches).
- ``has_played``: functions telling whether an account ever sat at a match (the games app's),
  which a bot account must not have done.
- ``account_deleted``: listeners called as ``listener(user=…)`` inside the transaction that
  deletes (anonymises) an account, for what it leaves behind elsewhere (the leagues app
  withdraws it from its tournaments).
- ``reserved_names``: functions giving names the site shows for itself (lazy texts, read in
  every language), which no player's name may look like (``accounts.names``; the games app
  adds its bots' names).
- ``password_changed``: functions ``hook(user)`` told, in the transaction of the change, that
  a user's password changed, was reset, or was made unusable when the account was deleted
  (the API app revokes the user's tokens).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ProfileSection:
    template: str
    context: Callable[[Any], dict[str, Any]]


profile_sections: list[ProfileSection] = []
has_played: list[Callable[[Any], bool]] = []
_account_deleted: list[Callable[..., None]] = []
reserved_names: list[Callable[[], Iterable[Any]]] = []
password_changed: list[Callable[[Any], Any]] = []


def profile_section_register(template: str, context: Callable[[Any], dict[str, Any]]) -> None:
    if all(section.template != template for section in profile_sections):
        profile_sections.append(ProfileSection(template, context))


def profile_context(profile_user: Any) -> dict[str, Any]:
    """The registered sections' templates (``profile_sections``) and their names, merged."""
    context: dict[str, Any] = {"profile_sections": [s.template for s in profile_sections]}
    for section in profile_sections:
        context.update(section.context(profile_user))
    return context


def account_deleted_register(listener: Callable[..., None]) -> None:
    if listener not in _account_deleted:
        _account_deleted.append(listener)


def account_deleted(*, user: Any) -> None:
    """Tell the listeners that ``user``'s account was deleted (in the deleting transaction)."""
    for listener in _account_deleted:
        listener(user=user)
