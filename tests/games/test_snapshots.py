"""A move on the process's snapshot of its game (games/services/_snapshots.py): on PostgreSQL it
is one guarded statement, it writes exactly what the locked path writes, and it never writes
over a row that changed since the snapshot was read — it falls back to the locked path, which
decides and words any refusal.

Real transactions (``transaction=True``): the on-commit hooks that keep the snapshots run, as
in the server."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, transaction
from django.db.models import F
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from core.errors import ILLEGAL_MOVE, NOT_YOUR_TURN, STALE_VERSION, GameError
from games import services
from games.models import Game, Match, Move
from games.selectors import log_tail
from games.services import _snapshots, play
from games.services._rows import RowWrites, game_row_lock
from tests.games.helpers import (
    SMALL,
    a_center_move,
    a_side_move,
    at_once,
    current_game,
    legal,
    seed_where,
)
from tests.sockets import open_socket, send, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("moves on snapshots are PostgreSQL's (a data-modifying WITH); CI's second pass")


def _match(alice, bob, seeds, seed: int | None = None) -> Match:
    """alice (seat 0) against bob, alice to move with center moves open."""
    seeds(seed or seed_where(0), 4242, 99, 98, 97, 96)
    return services.match_create_between(user0=alice, user1=bob, rules=SMALL)


def _play(game_id: int, user, move: str, version: int, move_id: str):
    return services.game_play_move(
        game_id=game_id, user=user, move=move, version=version, move_id=move_id
    )


def _queries(*args: Any) -> tuple[Any, list[str]]:
    """``_play(*args)`` and the statements it ran, as written (once prepared, the debug cursor
    of CaptureQueriesContext may not see a statement's text)."""
    seen: list[str] = []

    def record(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        result = _play(*args)
    return result, seen


def _guarded(sql: str) -> bool:
    return sql.startswith("WITH changed AS (UPDATE")


def _locked(statements: list[str]) -> bool:
    return any("FOR UPDATE" in sql for sql in statements)


def _hand_to_center(game: Game) -> str | None:
    """A move that keeps the turn and cannot end the game (the pay-off pile stays)."""
    return next((m for m in legal(game, 0) if m.startswith("h:") and "-c" in m), None)


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_a_turns_moves_after_the_first_are_one_guarded_statement_each(alice, bob, seeds) -> None:
    game = current_game(_match(alice, bob, seeds))
    first = _hand_to_center(game) or a_center_move(game)
    _, statements = _queries(game.pk, alice, first, 0, "m0")
    assert _locked(statements)  # nothing kept yet: the locked path, which keeps the row
    version, later = 1, 0
    while True:
        game = Game.objects.get(pk=game.pk)
        move = _hand_to_center(game)
        if move is None:
            break
        result, statements = _queries(game.pk, alice, move, version, f"m{version}")
        assert len(statements) == 1 and _guarded(statements[0]), statements
        assert (result.version, result.replayed) == (version + 1, False)
        version, later = version + 1, later + 1
    result, statements = _queries(game.pk, alice, a_side_move(game), version, "end")
    assert len(statements) == 1 and _guarded(statements[0])
    game = Game.objects.get(pk=game.pk)
    assert (game.version, game.to_move, game.moves.count()) == (version + 1, 1, version + 1)
    assert later >= 1


def _anonymous(frame: dict[str, Any]) -> dict[str, Any]:
    """``frame`` without the ids of its game and match (two matches are compared)."""
    frame = {**frame}
    if frame["type"] == "state":
        frame["game"] = {**frame["game"], "id": None}
        match = frame["match"] = {**frame["match"], "id": None}
        match["next_game"] = match["next_game"] is not None
    elif frame["type"] == "game_end":
        frame.update(game=None, next_game=frame["next_game"] is not None)
    elif frame["type"] == "match_end":
        frame["match"] = None
    return frame


def _whole_game(alice, bob, seeds, *, moves: int, rng_seed: int) -> dict[str, Any]:
    """Play the first game of a new match for up to ``moves`` moves chosen by ``rng_seed``;
    everything a player or the table could see of it."""
    sent: list[dict[str, Any]] = []
    results = []
    match = _match(alice, bob, seeds, seed=seed_where(0, start=11))
    game = current_game(match)
    rng = random.Random(rng_seed)
    users = {0: alice, 1: bob}
    original = services.game_event_send
    services.game_event_send = lambda **kwargs: sent.append(kwargs)
    try:
        for i in range(moves):
            game = Game.objects.get(pk=game.pk)
            if not game.is_active:
                break
            seat = game.to_move
            move = rng.choice(legal(game, seat))
            result = _play(game.pk, users[seat], move, game.version, f"w{i}")
            frames = [_anonymous(f) for f in result.frames]
            results.append((result.version, result.ply, result.seat, result.move, frames))
    finally:
        services.game_event_send = original
    game = Game.objects.get(pk=game.pk)
    match = Match.objects.get(pk=match.pk)
    rows = list(
        Move.objects.filter(game=game).order_by("ply").values_list(
            "ply", "seat", "kind", "text", "undoes", "client_move_id", "version"
        )
    )  # fmt: skip
    ignored = {"id", "match_id", "created_at", "finished_at"}
    return {
        "game": {k: v for k, v in _fields(game).items() if k not in ignored},
        "match": (match.status, match.score0, match.score1, match.winner, match.end_reason),
        "games": match.games.count(),
        "rows": rows,
        "results": results,
        "events": [
            (e["version"], {k: [_anonymous(f) for f in v] for k, v in e["frames"].items()})
            for e in sent
        ],
    }


def test_moves_on_snapshots_write_and_send_what_the_locked_path_does(
    alice, bob, seeds, settings
) -> None:
    """The same deal and the same moves, once with snapshots and once without: the same rows,
    results and frames, through the game's end (which always takes the locked path)."""
    with_snapshots = _whole_game(alice, bob, seeds, moves=400, rng_seed=5)
    _snapshots.snapshots_clear()
    settings.GAMES_MOVE_SNAPSHOTS = 0
    without = _whole_game(alice, bob, seeds, moves=400, rng_seed=5)
    assert with_snapshots == without
    assert with_snapshots["game"]["status"] != Game.Status.ACTIVE  # the game was played out
    assert len(with_snapshots["rows"]) > 20


def _after_one_move(alice, bob, seeds) -> Game:
    """alice played one center move: this process keeps the game at version 1."""
    game = current_game(_match(alice, bob, seeds))
    _play(game.pk, alice, _hand_to_center(game) or a_center_move(game), 0, "m0")
    assert not services.game_snapshot_wanted(game_id=game.pk, version=1)
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize(
    "change",
    ["turn deadline", "state", "match saved"],
)
def test_a_row_changed_behind_the_snapshot_sends_the_move_the_locked_way(
    alice, bob, seeds, change
) -> None:
    """Rows changed without a version bump: the guarded statement writes nothing, the locked
    path plays the move on the rows as they are."""
    game = _after_one_move(alice, bob, seeds)
    rows = Game.objects.filter(pk=game.pk)
    if change == "turn deadline":
        rows.update(turn_deadline="2031-01-01T00:00:00Z")
    elif change == "state":  # a key the engine ignores: the position is the same
        rows.update(state={**game.state, "note": "changed"})
    else:
        game.match.save()
    move = _hand_to_center(game) or a_side_move(game)
    result, statements = _queries(game.pk, alice, move, 1, "m1")
    assert _guarded(statements[0]) and _locked(statements[1:])
    after = Game.objects.get(pk=game.pk)
    assert result.version == 2
    assert after.version == 2 and after.moves.count() == 2
    if change == "turn deadline":
        assert after.turn_deadline is not None  # kept: the move left the turn with alice
    if change == "state":
        assert "note" not in after.state


def test_a_move_from_elsewhere_makes_the_snapshot_stale_and_the_move_is_refused(
    alice, bob, seeds
) -> None:
    """Another process moved (here: this one, with the old snapshot put back afterwards): a
    move against the old version finds the row changed, writes nothing, and is refused as
    stale by the locked path; the stale snapshot is forgotten."""
    game = _after_one_move(alice, bob, seeds)
    stale = _snapshots._entries[game.pk]
    _play(game.pk, alice, _hand_to_center(game) or a_side_move(game), 1, "elsewhere")
    _snapshots._entries[game.pk] = stale
    with pytest.raises(GameError) as refused:
        _play(game.pk, alice, legal(game, 0)[0], 1, "late")
    assert refused.value.code == STALE_VERSION and refused.value.params == {"version": 2}
    assert Game.objects.get(pk=game.pk).moves.count() == 2
    assert services.game_snapshot_wanted(game_id=game.pk, version=1)  # forgotten


def test_the_same_state_at_another_version_is_not_the_snapshots(alice, bob, seeds) -> None:
    """After a take-back and the same moves again a game can reach a state it had at an
    earlier version: the version alone then tells the snapshot is stale."""
    game = _after_one_move(alice, bob, seeds)
    Game.objects.filter(pk=game.pk).update(version=F("version") + 2)  # same state, v3
    with pytest.raises(GameError) as refused:
        _play(game.pk, alice, legal(game, 0)[0], 1, "late")
    assert refused.value.code == STALE_VERSION and refused.value.params == {"version": 3}
    assert Game.objects.get(pk=game.pk).moves.count() == 1


def test_a_reused_move_id_on_the_snapshot_answers_the_earlier_move(alice, bob, seeds) -> None:
    game = _after_one_move(alice, bob, seeds)
    again = _play(game.pk, alice, legal(game, 0)[0], 1, "m0")
    assert again.replayed and again.version == 1
    with transaction.atomic():  # in a caller's transaction: a savepoint keeps it usable
        inside = _play(game.pk, alice, legal(game, 0)[0], 1, "m0")
        assert inside.replayed
        assert Game.objects.get(pk=game.pk).version == 1
    assert Game.objects.get(pk=game.pk).moves.count() == 1
    assert _play(game.pk, alice, legal(game, 0)[0], 1, "m1").version == 2


def test_refusals_on_the_snapshot_are_the_locked_paths(alice, bob, seeds) -> None:
    game = _after_one_move(alice, bob, seeds)
    engine_game = engine.Game.from_dict(game.state)
    illegal = next(
        text
        for card in engine_game.hands[0]
        for text in (f"h:{card}-c1", f"h:{card}-c2", f"h:{card}-c3")
        if text not in legal(game, 0)
    )
    with pytest.raises(GameError) as refused:
        _play(game.pk, alice, illegal, 1, "bad")
    assert refused.value.code == ILLEGAL_MOVE and refused.value.engine_code
    with pytest.raises(GameError) as not_yours:
        _play(game.pk, bob, legal(game, 0)[0], 1, "bob")
    assert not_yours.value.code == NOT_YOUR_TURN
    assert Game.objects.get(pk=game.pk).version == 1


def test_reading_ahead_keeps_what_the_lock_reads(alice, bob, seeds) -> None:
    game = _after_one_move(alice, bob, seeds)
    _play(game.pk, alice, a_side_move(Game.objects.get(pk=game.pk)), 1, "end")
    _snapshots.snapshots_clear()
    assert services.game_snapshot_wanted(game_id=game.pk, version=2)
    services.game_snapshot_prefetch(game_id=game.pk)
    assert not services.game_snapshot_wanted(game_id=game.pk, version=2)
    kept = _snapshots._entries[game.pk]
    with transaction.atomic():
        locked = game_row_lock(game.pk)
    assert _fields(kept.game) == _fields(locked)
    assert _fields(kept.game.match) == _fields(locked.match)
    assert [_fields(u) for u in (kept.game.match.user0, kept.game.match.user1)] == [
        _fields(u) for u in (locked.match.user0, locked.match.user1)
    ]
    assert list(kept.tail) == log_tail(game.pk)
    bob_move = legal(Game.objects.get(pk=game.pk), 1)[0]
    _, statements = _queries(game.pk, bob, bob_move, 2, "b0")
    assert len(statements) == 1 and _guarded(statements[0])


def test_a_game_over_is_not_kept(alice, bob, seeds) -> None:
    game = _after_one_move(alice, bob, seeds)
    services.game_resign(game_id=game.pk, user=bob, scope="game")
    services.game_snapshot_prefetch(game_id=game.pk)
    assert game.pk not in _snapshots._entries


def test_with_no_snapshots_kept_every_move_is_locked(alice, bob, seeds, settings) -> None:
    settings.GAMES_MOVE_SNAPSHOTS = 0
    game = current_game(_match(alice, bob, seeds))
    for version in range(3):
        game = Game.objects.get(pk=game.pk)
        move = _hand_to_center(game) or a_side_move(game)
        _, statements = _queries(game.pk, alice, move, version, f"x{version}")
        assert _locked(statements)
        if Game.objects.get(pk=game.pk).to_move != 0:
            break
    assert not services.game_snapshot_wanted(game_id=game.pk, version=99)  # keeps none


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=10_000),
            st.sampled_from(["play", "play", "play", "forget", "touch match", "stale"]),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_any_mix_of_snapshot_and_locked_moves_keeps_the_engines_game(
    alice, bob, seeds, steps
) -> None:
    """Moves chosen at random, with snapshots forgotten, matches touched and stale snapshots
    put back between them: the stored game is always the engine's game after the moves that
    were accepted, and every refused move left nothing."""
    game = current_game(_match(alice, bob, seeds))
    model = engine.Game.from_dict(game.state)
    users = {0: alice, 1: bob}
    version, old = 0, None
    for i, (pick, action) in enumerate(steps):
        if action == "forget":
            _snapshots.snapshots_clear()
        elif action == "touch match":
            Match.objects.get(pk=game.match_id).save()
        elif action == "stale" and old is not None:
            _snapshots._entries[game.pk] = old
        if model.outcome is not None:
            break
        old = _snapshots._entries.get(game.pk)
        moves = [m.text for m in model.legal_moves()]
        move = moves[pick % len(moves)]
        seat = model.to_move
        _play(game.pk, users[seat], move, version, f"h{i}")
        model.play(move)
        version += 1
        stored = Game.objects.get(pk=game.pk)
        assert stored.state == model.to_dict() and stored.version == version
        assert stored.moves.count() == version
    # A move against an old version after all that: refused, nothing written.
    if model.outcome is None and version:
        with pytest.raises(GameError):
            _play(game.pk, users[model.to_move], "h:AS-c1", version - 1, "old")
        assert Game.objects.get(pk=game.pk).version == version


@pytest.mark.asyncio
async def test_a_player_whose_turn_comes_has_the_game_read_ahead_by_their_socket(
    alice, bob, seeds, monkeypatch
) -> None:
    """bob's socket sees alice's turn end and has the game read ahead (in the background):
    this process then holds it at that version, so bob's first move needs no read."""
    match = await sync_to_async(_match)(alice, bob, seeds)
    game = await sync_to_async(current_game)(match)
    sockets_ = [
        await open_socket(f"/ws/games/{game.pk}/", await sync_to_async(session_cookie)(user))
        for user in (alice, bob)
    ]
    try:
        for communicator in sockets_:
            await communicator.receive_json_from()
        # As if alice played on another process: this one keeps nothing of her move.
        monkeypatch.setattr(play, "snapshot_store", lambda game, tail: None)
        await send(
            sockets_[0], {"type": "move", "move": a_side_move(game), "version": 0, "id": "a"}
        )
        for communicator in sockets_:
            state = await communicator.receive_json_from()
            assert state["version"] == 1 and state["view"]["to_move"] == 1
        for _ in range(100):  # the read ahead runs after bob's frame went out
            if not services.game_snapshot_wanted(game_id=game.pk, version=1):
                break
            await asyncio.sleep(0.02)
        assert not services.game_snapshot_wanted(game_id=game.pk, version=1)
        assert _snapshots._entries[game.pk].game.version == 1
    finally:
        for communicator in sockets_:
            await communicator.disconnect()


def test_two_moves_on_one_snapshot_at_the_same_moment_apply_once(alice, bob, seeds) -> None:
    """Two threads (two connections) both hold the snapshot at version 1 and send their guarded
    statements together: PostgreSQL's row lock lets one apply; the other re-checks the row,
    finds the version moved on, writes nothing, and the locked path refuses it as stale."""
    game = _after_one_move(alice, bob, seeds)
    first, second = legal(game, 0)[:2]
    results = at_once(
        game.pk, alice, [(first, "t0"), (second, "t1")], version=1,
        door=(RowWrites, "run_if_unchanged"),
    )  # fmt: skip
    applied = [r for r in results if not isinstance(r, GameError)]
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(applied) == 1 and applied[0].version == 2, results
    assert len(refused) == 1 and refused[0].code == STALE_VERSION, results
    game = Game.objects.get(pk=game.pk)
    assert game.version == 2 and game.moves.count() == 2
