"""Time at a table: the turn clock (``turn``: the one time source, deadlines, timeouts),
ending turns and matches whose time ran out (``timeouts``), who of the players is at the table
(``presence`` reads, ``attendance`` writes) and what a player's socket does for both
(``seat_socket``). docs/games.md, "Clocks and abandonment"."""
