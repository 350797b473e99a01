"""Leagues. For now only the League itself, so a match can belong to one (Match.league);
the leagues issue adds membership, ratings, the ranked queue and tournaments."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class League(models.Model):
    """A named league; its matches point at it through ``Match.league``."""

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    description = models.TextField(_("description"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
