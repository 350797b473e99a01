from django.db import models


class BenchEcho(models.Model):
    """One row per echo of the commit floor; nothing else reads or writes it."""

    text = models.CharField(max_length=200)
    at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"echo {self.pk}"
