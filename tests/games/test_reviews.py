"""Reviews (games/reviews.py): a finished game a person played is reviewed by a background job,
turn by turn from each person's view; the review is stored once, resumes after the last turn
it kept when its job dies, and reads back with the replay's positions and reasons in words."""

from __future__ import annotations

import pytest
from django_q.models import OrmQ
from django_q.signing import SignedPackage

from core import jobs
from engine import coach
from games import reviews, services
from games.models import Review
from games.selectors.replay import deal, moves_in_force
from tests.games.helpers import a_center_move, a_side_move, bot_turn_play, current_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def reviewing(settings):
    settings.GAMES_REVIEWS = True
    settings.GAMES_REVIEW_PLAYOUTS = 8
    settings.GAMES_HINT_WORLDS = 4
    settings.GAMES_HINT_STATES = 1500
    settings.GAMES_REVIEW_CPU_SHARE = 1  # no pause (the pacer is tested on its own)


def _play_a_little_then_resign(game, user, turns: int = 3) -> None:
    """Alice plays her turns (a card to the center when she can, then a discard), the bot
    answers in this thread, then she resigns the match."""
    for _ in range(turns):
        for choose in (a_center_move, a_side_move):
            game.refresh_from_db()
            move = choose(game) if game.is_active and game.to_move == 0 else None
            if move is not None:
                services.game_play_move(game_id=game.pk, user=user, move=move, version=game.version)
        bot_turn_play(game)
    game.refresh_from_db()
    if game.is_active:
        services.game_resign(game_id=game.pk, user=user, scope="match")


@pytest.fixture
def finished(alice, human_starts, reviewing, settings):
    """A game of alice against the bot, played a little and resigned, its jobs left waiting
    in their queues (as on a site whose workers have not taken them yet)."""
    settings.JOBS_INLINE = False
    game = current_game(human_starts(alice))
    _play_a_little_then_resign(game, alice)
    return game


def queued_background() -> list[tuple[str, tuple]]:
    """The background queue's jobs: (function, args)."""
    return [
        (task["func"], task["args"])
        for row in OrmQ.objects.filter(key=jobs.BACKGROUND)
        for task in [SignedPackage.loads(row.payload)]
    ]


def test_a_finished_game_is_reviewed_in_the_background_for_its_person_only(finished) -> None:
    game = finished
    review = Review.objects.get(game=game)
    assert review.status == Review.Status.PENDING
    assert queued_background() == [("games.reviews.review_run", (game.pk,))]
    assert reviews.review_run(game.pk) is True
    review.refresh_from_db()
    assert review.status == Review.Status.DONE and review.finished_at is not None
    assert review.data["seats"] == [0]  # the bot's turns are not reviewed
    assert review.data["turns"] and all(t["seat"] == 0 for t in review.data["turns"])
    assert review.data["playouts_per_turn"] == 8
    assert 0 <= review.data["accuracy"]["0"] <= 1
    assert review.cpu_seconds > 0
    assert reviews.review_run(game.pk) is False  # stored once: a second run does nothing


def test_the_review_is_the_engines_review_of_the_moves_in_force(finished) -> None:
    game = finished
    reviews.review_run(game.pk)
    expected = coach.review(
        deal(game),
        moves_in_force(game),
        seats=(0,),
        playouts_per_turn=8,
        seed=0,
        expert={"samples": 4, "budget": 1500},
    )
    assert Review.objects.get(game=game).data == expected.to_dict()


def test_a_review_whose_job_died_resumes_after_the_turns_it_kept(finished, monkeypatch) -> None:
    game = finished
    whole = list(
        coach.review_turns(
            deal(game), moves_in_force(game), seats=(0,), playouts_per_turn=8,
            expert={"samples": 4, "budget": 1500},
        )
    )  # fmt: skip
    assert len(whole) >= 2
    real = coach.review_turns
    asked: list[int] = []

    def dies_after_one(*args, skip=0, **kwargs):
        asked.append(skip)
        for n, turn in enumerate(real(*args, skip=skip, **kwargs)):
            if n == 1 and not asked[1:]:
                raise SystemExit("the worker died")
            yield turn

    monkeypatch.setattr(coach, "review_turns", dies_after_one)
    with pytest.raises(SystemExit):
        reviews.review_run(game.pk)
    review = Review.objects.get(game=game)
    assert review.status == Review.Status.PENDING and len(review.data["turns"]) == 1
    assert reviews.review_run(game.pk) is True
    assert asked == [0, 1]  # the second run went on after the turn the first one kept
    review = Review.objects.get(game=game)
    assert review.data["turns"] == [t.to_dict() for t in whole]


def test_the_review_reads_back_with_the_replays_positions_and_words(finished) -> None:
    game = finished
    assert reviews.review_for(game) == {"status": "pending", "turns_done": 0}
    reviews.review_run(game.pk)
    shown = reviews.review_for(game)
    assert shown is not None and shown["status"] == "done"
    for turn in shown["turns"]:
        assert turn["frame"] == turn["first_ply"]  # no undo in this game: rows are moves
        for decision in turn["decisions"]:
            assert decision["frame"] == decision["ply"] + 1
            assert ("reason_text" in decision) and ("warning_text" in decision)


def test_no_review_for_a_game_between_bots_or_with_reviews_off(
    alice, human_starts, settings
) -> None:
    settings.GAMES_REVIEWS = False
    game = current_game(human_starts(alice))
    _play_a_little_then_resign(game, alice)
    assert not Review.objects.exists()
    assert reviews.review_for(game) is None


def test_the_replay_page_shows_the_review_its_accuracy_and_its_marked_turns(
    finished, client
) -> None:
    game = finished
    url = f"/play/games/{game.pk}/replay/"
    assert "The expert bot is reviewing this game." in client.get(url).content.decode()
    reviews.review_run(game.pk)
    review = Review.objects.get(game=game)
    # A turn where alice and the expert differ, marked as a blunder (the estimate of a real
    # game at 8 playouts rarely is sure enough to mark one; the page is what is tested here).
    turn = next(t for t in review.data["turns"] if not all(d["agrees"] for d in t["decisions"]))
    turn["mark"], turn["loss"] = "blunder", 0.5
    review.save(update_fields=["data"])

    page = client.get(url).content.decode()
    shown = reviews.review_page(game)
    (seat,) = shown["seats"]
    assert f"Alice: {seat['accuracy']}% accuracy" in page
    assert f"in {seat['agreed']} of {seat['decisions']} decision" in page
    (marked,) = shown["marked"]
    assert f'href="#ply={marked.frame}"' in page
    assert f"Move {marked.frame + 1}: a blunder, about 50 points of winning chances" in page
    assert "Alice played" in page and "The expert would play" in page
    assert all(word in page for word in marked.played + marked.expert)
    assert " → " in marked.played[0]
    assert shown["marks"] and set(shown["marks"].values()) == {"blunder"}
    assert '"replay-marks"' in page


def test_the_pacer_keeps_a_review_to_its_share_of_a_core(monkeypatch) -> None:
    clock = {"cpu": 10.0}
    slept: list[float] = []
    monkeypatch.setattr(reviews.time, "process_time", lambda: clock["cpu"])
    monkeypatch.setattr(reviews.time, "sleep", slept.append)
    pace = reviews.Pacer(0.25)
    clock["cpu"] += 0.5  # half a second of work
    pace()
    assert slept == [pytest.approx(1.5)]  # 0.5 of 2.0 seconds: a quarter
    reviews.Pacer(1)()
    assert len(slept) == 1  # a whole core: no pause


def test_a_long_review_hands_over_to_a_fresh_job_before_its_timeout(finished, monkeypatch) -> None:
    game = finished
    monkeypatch.setattr(reviews, "SLICE", 0.0)  # every turn is past the slice
    assert reviews.review_run(game.pk) is False
    review = Review.objects.get(game=game)
    assert review.status == Review.Status.PENDING and len(review.data["turns"]) == 1
    queued = [func for func, _args in queued_background()]
    assert queued.count("games.reviews.review_run") == 2  # the game's end's, and the handover
    monkeypatch.setattr(reviews, "SLICE", 1.0)
    assert reviews.review_run(game.pk) is True
    assert Review.objects.get(game=game).status == Review.Status.DONE
