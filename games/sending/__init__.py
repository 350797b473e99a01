"""What the games app sends through the channel layer: the game's group and its doorbell
(``groups``), and the per-user socket's frames (``players``). The database is the truth; these
only ring (docs/architecture.md)."""
