"""Bots playing their turns off the request path: scheduling and playing a turn (``turns``),
the pool of processes they think in (``thinking``), the bot worker's consumer (``worker``) and
the checks of the runner's settings (``checks``). docs/games.md, "The bot runner"."""
