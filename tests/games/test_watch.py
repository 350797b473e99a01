"""The Watch page (games.selectors.live): only the games in play moved in the last
``GAMES_WATCH_RECENT`` seconds (a game with no move yet counts from its deal), most recently
moved first, each with its last move's time in the reader's language, the players, the score
and a picture of the center stacks drawn from the spectator view; its empty state, paginated."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.urls import reverse

import engine
from engine.testing import position
from games import services
from games.models import Game, Match, Move
from games.selectors import games_live, live_game_rows
from games.services import game_abort, game_resign
from games.spectators import spectator_join
from tests.accounts.factories import UserFactory
from tests.games import clocks
from tests.games.helpers import SMALL, a_side_move, current_game

pytestmark = pytest.mark.django_db
fake_clock = clocks.fake_clock


def _center(ranks: str) -> list[str]:
    return [f"{rank}S" for rank in ranks]


#: A state with cards no spectator sees: the hands, the cards under the pay-off tops, the stock.
#: Center: a 7 on top, a Jack on top (a stack reaching a Queen is done), empty.
STATE = position(
    hands=[["2H", "3H", "4H"], ["5C", "6C"]],
    payoffs=[["8C", "9C", "TC"], ["JD", "JH"]],
    center=[["AS", "2D", "3S", "4D", "5S", "6D", "7D"], _center("A23456789TJ"), []],
    stock=["3C", "4C"],
    rules=SMALL,
)


@pytest.fixture
def staged():
    """``staged(game, state)``: give ``game`` an engine state made by hand (no move reaches it),
    its own state put back at the end, so every game still replays to what it stores."""
    put_back: list[tuple[int, dict]] = []

    def stage(game: Game, state: engine.Game) -> Game:
        put_back.append((game.pk, Game.objects.get(pk=game.pk).state))
        Game.objects.filter(pk=game.pk).update(state=state.to_dict())
        return Game.objects.get(pk=game.pk)

    yield stage
    for pk, state in reversed(put_back):
        Game.objects.filter(pk=pk).update(state=state)


def last_moved(game: Game, at: datetime) -> Game:
    """Make ``game``'s latest log row (or, with none, its deal) date from ``at``."""
    latest = game.moves.order_by("-ply").first()
    if latest is None:
        Game.objects.filter(pk=game.pk).update(created_at=at)
    else:
        Move.objects.filter(pk=latest.pk).update(created_at=at)
    return game


def moved_game(user0, user1, at: datetime, *, moves: int = 1) -> Game:
    """A casual match between two people whose game has ``moves`` discards, the last at ``at``."""
    game = current_game(services.match_create_between(user0=user0, user1=user1, rules=SMALL))
    for _ in range(moves):
        game = Game.objects.get(pk=game.pk)
        seat = game.to_move
        services.game_play_move(
            game_id=game.pk,
            user=game.match.user_at(seat),
            move=a_side_move(game, seat),
            version=game.version,
        )
    return last_moved(game, at)


def test_only_games_moved_in_recently_are_listed_most_recent_first(alice, bob, fake_clock):
    now = fake_clock.at
    minutes = lambda n: now - timedelta(minutes=n)  # noqa: E731
    one_minute = moved_game(alice, bob, minutes(1))
    eleven = moved_game(alice, bob, minutes(11))
    # An old first move and a recent last one: the last one counts.
    two_moves = moved_game(bob, alice, minutes(2), moves=2)
    Move.objects.filter(game=two_moves, ply=0).update(created_at=minutes(30))
    dealt = last_moved(  # no move yet: it counts from its deal
        current_game(services.match_create_between(user0=alice, user1=bob, rules=SMALL)),
        minutes(3),
    )
    dealt_long_ago = last_moved(
        current_game(services.match_create_between(user0=bob, user1=alice, rules=SMALL)),
        minutes(20),
    )
    resigned = moved_game(alice, bob, minutes(1))
    game_resign(game_id=resigned.pk, user=alice, scope="match")
    aborted = current_game(services.match_create_between(user0=alice, user1=bob, rules=SMALL))
    game_abort(game_id=aborted.pk, user=bob)

    listed = list(games_live(now=now))
    assert listed == [one_minute, two_moves, dealt]
    assert [g.moved_at for g in listed] == [minutes(1), minutes(2), minutes(3)]
    assert eleven not in listed and dealt_long_ago not in listed

    # The window is the setting, and "now" the clock's.
    fake_clock.advance(60 * 8.5)  # one minute ago is now 9.5, two is 10.5
    assert list(games_live()) == [one_minute]


def test_the_window_is_a_setting(alice, bob, fake_clock, settings):
    game = moved_game(alice, bob, fake_clock.at - timedelta(minutes=11))
    assert list(games_live()) == []
    settings.GAMES_WATCH_RECENT = 15 * 60
    assert list(games_live()) == [game]


def test_each_game_shows_its_players_score_and_last_move(client, alice, fake_clock, seeds):
    guest = UserFactory(username="guest-1a2b", is_guest=True)
    robo = UserFactory(username="robo", display_name="Robo", is_bot=True)
    against_bot = services.match_create(user=guest, bot="greedy", rules=SMALL)
    game = current_game(against_bot)
    game_resign(game_id=game.pk, user=guest, scope="game")  # the bot leads 5-0, game 2 in play
    game = last_moved(current_game(against_bot), fake_clock.at - timedelta(seconds=160))
    program = last_moved(
        current_game(services.match_create_between(user0=robo, user1=alice, rules=SMALL)),
        fake_clock.at - timedelta(seconds=20),
    )
    spectator_join(game_id=game.pk, channel="x")

    response = client.get(reverse("games:watch"))
    rows = response.context["rows"]
    assert [(r.game, r.names, r.scores, r.spectators, r.moved_ago) for r in rows] == [
        (program, ("Robo", "Alice"), (0, 0), 0, "20 seconds ago"),
        (game, ("Guest", "Greedy bot"), (0, 5), 1, "3 minutes ago"),
    ]
    html = response.content.decode()
    tile = tile_html(html, game)
    assert "Guest" in tile and "guest-1a2b" not in tile and "Greedy bot" in tile
    assert re.search(r"<dt>Score</dt><dd>0\u20135 <span class=\"muted\">/ 10</span>", tile)
    assert "<dt>Game</dt><dd>2</dd>" in tile
    assert (
        f'<time datetime="{rows[1].moved_at.isoformat()}" data-part="moved">3 minutes ago</time>'
    ) in tile
    assert f'href="{reverse("games:table", args=[game.pk])}"' in tile
    assert 'Robo <span class="badge-bot"' in tile_html(html, program)  # a bot account, marked


def tile_html(html: str, game: Game) -> str:
    found = re.search(rf'<li class="watch-game" data-game="{game.pk}">(.*?)</li>', html, re.S)
    assert found, f"game {game.pk} is not listed"
    return found.group(1)


def svg_texts(tile: str) -> list[str]:
    svg = re.search(r"<svg .*?</svg>", tile, re.S).group(0)
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_the_picture_shows_the_center_tops_and_nothing_hidden(
    client, alice, bob, fake_clock, staged
):
    game = staged(moved_game(alice, bob, fake_clock.at), STATE)

    row = live_game_rows([*games_live()])[0]
    assert [(c.rank, c.suit, c.red, c.stands_for) for c in row.center.cards] == [
        ("7", "♦", True, ""),
        ("J", "♠", False, ""),
        ("", "", False, ""),
    ]
    assert row.center.text == "Center stacks: 7, Jack, and empty"

    tile = tile_html(client.get(reverse("games:watch")).content.decode(), game)
    assert svg_texts(tile) == ["7", "♦", "J", "♠"]  # the tops: no hand, no pay-off, no stock
    assert 'role="img" aria-label="Center stacks: 7, Jack, and empty"' in tile
    hidden = {"2H", "3H", "4H", "5C", "6C", "8C", "9C", "JD", "3C", "4C"}
    assert not hidden & set(re.findall(r"\b[2-9TJQKA][SHDC]\b", tile))


def test_the_picture_is_the_spectator_view(alice, bob, fake_clock, monkeypatch):
    """What the picture draws comes from the spectator's view (``view(None)``), never a seat's."""
    moved_game(alice, bob, fake_clock.at)
    seen = []
    real = engine.Game.view

    def view(self, player):
        seen.append(player)
        return real(self, player)

    monkeypatch.setattr(engine.Game, "view", view)
    live_game_rows(list(games_live()))
    assert seen == [None]


def test_a_king_on_a_center_stack_shows_what_it_stands_for(client, alice, bob, fake_clock, staged):
    state = position(
        hands=[["2H"], ["5C"]],
        center=[["AH", "KS"], ["AD"], ["AC", "2C", "KD", "4C", "KH"]],
        rules=SMALL,
    )
    game = staged(moved_game(alice, bob, fake_clock.at), state)
    row = live_game_rows(list(games_live()))[0]
    assert [(c.rank, c.stands_for) for c in row.center.cards] == [("K", "2"), ("A", ""), ("K", "5")]
    assert row.center.text == (
        "Center stacks: a King standing for 2, Ace, and a King standing for 5"
    )
    tile = tile_html(client.get(reverse("games:watch")).content.decode(), game)
    assert svg_texts(tile) == ["K", "♠", "=2", "A", "♦", "K", "♥", "=5"]


def test_the_page_speaks_the_readers_language(client, alice, bob, fake_clock, staged):
    game = staged(moved_game(alice, bob, fake_clock.at - timedelta(minutes=2)), STATE)
    html = client.get(reverse("games:watch"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    tile = tile_html(html, game)
    assert "<dt>Última jugada</dt>" in tile and ">hace 2 minutos</time>" in tile
    assert 'aria-label="Pilas centrales: 7, Jota y vacía"' in tile

    html = client.get(reverse("games:watch"), HTTP_ACCEPT_LANGUAGE="bn").content.decode()
    assert ">2 মিনিট আগে</time>" in tile_html(html, game)  # Latin digits


def test_an_empty_list_says_why_and_offers_a_game(client, alice, bob, fake_clock, settings):
    moved_game(alice, bob, fake_clock.at - timedelta(minutes=11))
    html = client.get(reverse("games:watch")).content.decode()
    assert "No game has been moved in the last 10 minutes." in html
    assert f'<a class="button" href="{reverse("games:lobby")}">Start a match</a>' in html
    assert 'class="watch-list"' not in html

    html = client.get(reverse("games:watch"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Nadie ha movido en ninguna partida en los últimos 10 minutos." in html
    assert f'<a class="button" href="{reverse("games:lobby")}">Empezar un encuentro</a>' in html

    settings.GAMES_WATCH_RECENT = 60
    html = client.get(reverse("games:watch"), HTTP_ACCEPT_LANGUAGE="my").content.decode()
    assert "ပြီးခဲ့တဲ့ 1 မိနစ်အတွင်း ဘယ်ဂိမ်းမှာမျှ ဘယ်သူမှ မရွှေ့ခဲ့ပါဘူး။" in html


def test_the_watch_list_is_paginated(client, alice, settings):
    from games import views

    settings.GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT = views.PER_PAGE + 2  # all alice's, at once
    for _ in range(views.PER_PAGE + 2):
        services.match_create(user=alice, bot="random", rules=SMALL)
    first = client.get(reverse("games:watch"))
    second = client.get(reverse("games:watch"), {"page": 2})
    assert len(first.context["rows"]) == views.PER_PAGE and len(second.context["rows"]) == 2
    assert 'rel="next"' in first.content.decode()
    assert Match.objects.count() == views.PER_PAGE + 2
