"""Tournament formats as pure functions: pairings (round robin, single elimination, Swiss)
and standings with their tie-breaks. No Django here: callers pass plain data (player ids,
ratings, results). See docs/tournaments.md."""

from leagues.tournaments.pairing import (
    Bracket,
    BracketMatch,
    Entrant,
    MatchState,
    Pairing,
    Result,
    bracket_order,
    bracket_size,
    elimination_bracket,
    elimination_first_round,
    elimination_next_round,
    elimination_winners,
    forfeits_for_withdrawn,
    round_robin_schedule,
    seed_key,
    seeding,
    swiss_pairings,
)
from leagues.tournaments.standings import (
    RoundRobinRow,
    StandingRow,
    round_robin_standings,
    swiss_standings,
)

__all__ = [
    "Bracket",
    "BracketMatch",
    "Entrant",
    "MatchState",
    "Pairing",
    "Result",
    "RoundRobinRow",
    "StandingRow",
    "bracket_order",
    "bracket_size",
    "elimination_bracket",
    "elimination_first_round",
    "elimination_next_round",
    "elimination_winners",
    "forfeits_for_withdrawn",
    "round_robin_schedule",
    "round_robin_standings",
    "seed_key",
    "seeding",
    "swiss_pairings",
    "swiss_standings",
]
