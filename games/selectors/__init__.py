"""Reads about games: the frames each viewer receives, replays, the lists of games.

A package since it passed 500 lines; every public name is re-exported here, so callers import
from ``games.selectors`` and never need to know which module holds what:

- ``frames``: the ``state`` / ``game_end`` / ``match_end`` frames (one builder for the
  broadcast, a socket's connect or ``sync``, and the table page), and ``game_get``;
- ``actions``: whether a seat may undo or abort now, and what an undo takes back;
- ``replay``: a game rebuilt from its seed and Move log, and the replay page's frames;
- ``live``: a player's matches in progress and the watch list;
- ``history``: one player's matches;
- ``results``: a match's and a game's result in words.
"""

from games.selectors.actions import (
    UndoPlan,
    game_may_abort,
    game_seats_moved,
    game_undo_plan,
    undo_allowed,
)
from games.selectors.frames import (
    LAST_MOVES,
    game_connect,
    game_event_frames,
    game_get,
    game_state_frame,
    log_tail,
)
from games.selectors.history import (
    HistoryEntry,
    match_history_for,
    match_history_rows,
    user_has_sat,
)
from games.selectors.live import (
    LiveGame,
    game_versions,
    games_live,
    live_game_rows,
    matches_in_progress,
)
from games.selectors.replay import LogRow, game_log, game_replay, game_replay_frames
from games.selectors.results import (
    GameResult,
    game_result,
    match_result_note,
    match_result_words,
)

__all__ = [
    "LAST_MOVES",
    "GameResult",
    "HistoryEntry",
    "LiveGame",
    "LogRow",
    "UndoPlan",
    "game_connect",
    "game_event_frames",
    "game_get",
    "game_log",
    "game_may_abort",
    "game_replay",
    "game_replay_frames",
    "game_result",
    "game_seats_moved",
    "game_state_frame",
    "game_undo_plan",
    "game_versions",
    "games_live",
    "live_game_rows",
    "log_tail",
    "match_history_for",
    "match_history_rows",
    "match_result_note",
    "match_result_words",
    "matches_in_progress",
    "undo_allowed",
    "user_has_sat",
]
