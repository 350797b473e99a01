"""What a player has learnt: the lesson's steps they completed (learn/progress.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class LessonStepDone(models.Model):
    """A step of the lesson (``learn.steps.STEPS``, by its slug) a player completed."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="lesson_steps",
        verbose_name=_("player"),
    )
    step = models.CharField(_("step"), max_length=32)
    done_at = models.DateTimeField(_("done at"), auto_now_add=True)

    class Meta:
        verbose_name = _("lesson step done")
        verbose_name_plural = _("lesson steps done")
        constraints = [
            models.UniqueConstraint(fields=["user", "step"], name="learn_step_once_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.step}"
