"""Personal API tokens (docs/api.md): only a hash of the key is stored; the key is shown once."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

PREFIX_LENGTH = 8


def key_hash(key: str) -> str:
    """The stored form of a key: its SHA-256, hex."""
    return hashlib.sha256(key.encode()).hexdigest()


def key_new() -> str:
    """A fresh key: 40 URL-safe random characters, never starting with "-" (a command line
    would read ``--token -x…`` as two options)."""
    while (key := secrets.token_urlsafe(30)).startswith("-"):
        pass
    return key


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=60)
    key_hash = models.CharField(_("key hash"), max_length=64, unique=True)
    prefix = models.CharField(_("prefix"), max_length=PREFIX_LENGTH)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
