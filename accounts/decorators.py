"""``account_required``: a page for players with an account — anonymous visitors go to log in,
guests to sign up (with the reason), where the page's address waits as ``next``."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from accounts.selectors import GUESTS_PLAY_BOTS, user_is_guest

View = Callable[..., HttpResponse]


def account_required(view: View) -> View:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if user_is_guest(request.user):
            messages.info(request, GUESTS_PLAY_BOTS)
            next_url = request.get_full_path() if request.method == "GET" else ""
            query = f"?{urlencode({'next': next_url})}" if next_url else ""
            return redirect(reverse("accounts:signup") + query)
        return view(request, *args, **kwargs)

    return wrapper
