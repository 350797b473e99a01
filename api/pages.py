"""The tokens page at /accounts/tokens/: create (the key is shown once), list and revoke."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts.decorators import account_required
from api.selectors import api_tokens_for
from api.services import api_token_create, api_token_revoke
from core.errors import GameError


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=60,
        help_text=gettext_lazy("What the token is for, e.g. “my bot” or “laptop script”."),
    )


@account_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    """List your tokens; a POST creates one and shows its key this once."""
    new_key = ""
    form = TokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            _token, new_key = api_token_create(user=request.user, name=form.cleaned_data["name"])
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            form = TokenForm()
    context = {"form": form, "tokens": api_tokens_for(user=request.user), "new_key": new_key}
    response = render(request, "api/tokens.html", context)
    response["Cache-Control"] = "no-store"
    return response


@account_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    if api_token_revoke(user=request.user, token_id=token_id):
        messages.success(request, _("The token was revoked."))
    return redirect("api_tokens")
