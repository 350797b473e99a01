"""Showing a player: their public name, and a "bot" badge when the account is a bot account
(played by a program; docs/bot_accounts.md).

    {% load players %}
    {% player user %}                  the name as a link to the profile, then the badge
    {% player user link=False %}       the name without a link
    {% bot_badge user %}               only the badge (nothing for a person); also takes a bool
    {% seat_badge match 0 %}           the badge of the account at a match's seat
    {% opponent_badge match seat %}    the badge of the account facing ``seat``
    {{ user.country|country_name }}    the country's name in the page's language
    {% list_comma %}                   ", " between a list's items ("၊ " in Burmese)
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from core import i18n
from core.timezones import zone_label

register = template.Library()


@register.filter
def country_name(country: Any) -> str:
    code = getattr(country, "code", country)
    return i18n.country_name(str(code)) if code else ""


@register.simple_tag
def list_comma() -> str:
    return i18n.list_comma()


def _is_bot_account(who: Any) -> bool:
    if isinstance(who, bool):
        return who
    if isinstance(who, dict):
        return bool(who.get("is_bot"))
    return bool(getattr(who, "is_bot", False))


@register.simple_tag
def bot_badge(who: Any) -> SafeString:
    """`` <span class="badge-bot">bot</span>`` (with its leading space) for a bot account, or
    nothing."""
    if not _is_bot_account(who):
        return mark_safe("")
    return format_html(
        ' <span class="badge-bot" title="{}">{}</span>',
        _("A bot account: played by a program"),
        _("bot"),
    )


@register.simple_tag
def seat_badge(match: Any, seat: int) -> SafeString:
    """The badge of the bot account at ``seat`` (nothing for a person or an engine bot)."""
    return bot_badge(match.user_at(int(seat)) if match is not None else None)


@register.simple_tag
def opponent_badge(match: Any, seat: int) -> SafeString:
    """The badge of the bot account facing ``seat``."""
    return seat_badge(match, 1 - int(seat))


@register.inclusion_tag("includes/player.html")
def player(user: Any, link: bool = True) -> dict[str, Any]:
    """A player's public name (a link to their profile unless ``link=False`` or the account
    was deleted) and the bot badge."""
    return {"player": user, "link": link}


@register.simple_tag
def zone_name() -> str:
    """The active time zone as a reader names it, with its offset: "Giờ Việt Nam (UTC+07:00)"."""
    return zone_label()
