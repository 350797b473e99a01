"""Which steps of the lesson a visitor has done: rows for a player (guests too), the session for
a visitor who has no account yet. A visitor who signs up, logs in or becomes a guest keeps what
the session holds: the next lesson page moves it to their rows."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from learn.models import LessonStepDone

SESSION_KEY = "learn:done"


def _has_rows(request: HttpRequest) -> bool:
    return bool(getattr(request.user, "is_authenticated", False))


def steps_done(request: HttpRequest) -> set[str]:
    """The slugs of the steps done (the session's moved to the player's rows first)."""
    held: list[Any] = list(request.session.get(SESSION_KEY, []))
    if not _has_rows(request):
        return {str(s) for s in held}
    if held:
        for slug in held:
            LessonStepDone.objects.get_or_create(user=request.user, step=str(slug))
        del request.session[SESSION_KEY]
    return set(LessonStepDone.objects.filter(user=request.user).values_list("step", flat=True))


def step_done_mark(request: HttpRequest, slug: str) -> None:
    """Remember that the visitor did step ``slug``."""
    if _has_rows(request):
        LessonStepDone.objects.get_or_create(user=request.user, step=slug)
        return
    held = list(request.session.get(SESSION_KEY, []))
    if slug not in held:
        request.session[SESSION_KEY] = [*held, slug]
