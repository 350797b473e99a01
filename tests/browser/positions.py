"""Table positions built with the engine and seated on a real server: the first deal, side
stacks 30 cards tall, a game one move from its end. A new player sits at seat 0 against the
random bot, their turn, in a match whose first game holds the position; the browser tests (and
anyone taking screenshots) open its table.

Every position is a real game (``engine.Game.from_dict`` checks it): the deck's 104 cards are
dealt out of two sorted decks, so a state never holds a card more often than the decks do.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import asdict, dataclass
from typing import Any

import engine

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def _deck() -> list[str]:
    return [rank + suit for _ in range(2) for suit in SUITS for rank in RANKS]


def _take(deck: list[str], n: int, *, avoid: str = "") -> list[str]:
    """``n`` cards from ``deck`` (removed), none of rank in ``avoid``."""
    taken = [card for card in deck if card[0] not in avoid][:n]
    assert len(taken) == n, f"the deck is short of {n - len(taken)} cards"
    for card in taken:
        deck.remove(card)
    return taken


def _build(deck: list[str], ranks: str) -> list[str]:
    """A center stack's cards, one of each rank in ``ranks`` (removed from ``deck``)."""
    cards = []
    for rank in ranks:
        card = next(c for c in deck if c[0] == rank)
        deck.remove(card)
        cards.append(card)
    return cards


def first_deal(seed: int = 7, *, first_player: int = 0) -> dict[str, Any]:
    """The house rules' first deal (pay-off piles of 20), ``first_player`` to move."""
    game = engine.Game.new(seed=seed, rules=engine.Rules(), first_player=first_player)
    return game.to_dict()


def tall_stacks() -> dict[str, Any]:
    """Late in a long game: your side stacks hold 30, 8, 4 and 2 cards, the opponent's 10, 5,
    3 and 1; the center stacks stand at 7, Jack and 3; your turn."""
    deck = _deck()
    center = [_build(deck, "A234567"), _build(deck, "A23456789TJ"), _build(deck, "A23")]
    hand = _take(deck, 5, avoid="4K")
    their_hand = _take(deck, 5)
    payoff = _take(deck, 3, avoid="4TK")
    their_payoff = _take(deck, 4)
    sides = [_take(deck, n) for n in (30, 8, 4, 2)]
    their_sides = [_take(deck, n) for n in (10, 5, 3, 1)]
    state = {
        "to_move": 0,
        "players": [
            {"hand": hand, "payoff": payoff, "sides": sides},
            {"hand": their_hand, "payoff": their_payoff, "sides": their_sides},
        ],
        "center": center,
        "stock": deck,
        "seed": 11,
    }
    return engine.Game.from_dict(state).to_dict()


def one_move_from_the_end() -> dict[str, Any]:
    """Your last pay-off card, a 4, goes on center stack 3 (standing at 3): playing ``p-c3``
    wins the game."""
    deck = _deck()
    center = [_build(deck, "A2345"), _build(deck, "A"), _build(deck, "A23")]
    payoff = [next(c for c in deck if c[0] == "4")]
    deck.remove(payoff[0])
    state = {
        "to_move": 0,
        "players": [
            {
                "hand": _take(deck, 5, avoid="4K"),
                "payoff": payoff,
                "sides": [_take(deck, 2), [], [], []],
            },
            {
                "hand": _take(deck, 5),
                "payoff": _take(deck, 6),
                "sides": [_take(deck, 4), _take(deck, 1), [], []],
            },
        ],
        "center": center,
        "stock": deck[:40],
        "seed": 5,
    }
    return engine.Game.from_dict(state).to_dict()


POSITIONS = {
    "first-deal": first_deal,
    "tall-stacks": tall_stacks,
    "game-over": one_move_from_the_end,
}


@dataclass(frozen=True)
class Seat:
    """A match to seat the player in: its first game holds ``state``. ``opponent``: a person's
    username (made if new), else the random bot; ``match_target``: the match's points;
    ``started_by``: the seat recorded as having started that game (the other starts the next);
    ``finish``: a move of the player's, played at once, that ends the game."""

    state: dict[str, Any]
    opponent: str | None = None
    match_target: int = 1
    started_by: int | None = None
    finish: str | None = None


def seat_player(
    server: Any, *seats: Seat | dict[str, Any], password: str, username: str | None = None
) -> dict[str, Any]:
    """A player (``username``, made with ``password`` unless they exist; a new name by
    default) at seat 0 of a new match for each of ``seats`` (a ``Seat``, or a bare state: the
    random bot, one game). The game's seed and first player are the position's, so a first deal
    replays (undo, the replay page) as it was dealt. One ``manage.py shell`` for them all.
    Returns ``{"username", "games": [the first game of each, in order]}``."""
    username = username or f"pos{secrets.token_hex(4)}"
    specs = [asdict(seat if isinstance(seat, Seat) else Seat(state=seat)) for seat in seats]
    return server.shell(
        "import json\n"
        "import engine\n"
        "from accounts.models import User\n"
        "from games import services\n"
        "from games.models import Game\n"
        f"specs = json.loads({json.dumps(json.dumps(specs))})\n"
        "def person(name):\n"
        "    user = User.objects.filter(username=name).first()\n"
        f"    return user or User.objects.create_user(username=name, password={password!r})\n"
        f"user = person({username!r})\n"
        "games = []\n"
        "for spec in specs:\n"
        "    state = spec['state']\n"
        "    knobs = {**state['rules'], 'match_target': spec['match_target']}\n"
        "    rules = engine.Rules.from_dict(knobs)\n"
        "    if spec['opponent']:\n"
        "        other = person(spec['opponent'])\n"
        "        match = services.match_create_between(user0=user, user1=other, rules=rules)\n"
        "    else:\n"
        "        match = services.match_create(user=user, bot='random', rules=rules)\n"
        "    game = match.games.get(number=1)\n"
        "    state['rules'] = rules.to_dict()\n"
        "    fields = {'state': engine.Game.from_dict(state).to_dict(), 'seed': state['seed']}\n"
        "    started_by = spec['started_by']\n"
        "    fields['first_player'] = state['to_move'] if started_by is None else started_by\n"
        "    Game.objects.filter(pk=game.pk).update(**fields)\n"
        "    if spec['finish']:\n"
        "        version = Game.objects.get(pk=game.pk).version\n"
        "        services.game_play_move(game_id=game.pk, user=user, move=spec['finish'], "
        "version=version, move_id='finish')\n"
        "    games.append(game.pk)\n"
        f"print(json.dumps({{'username': {username!r}, 'games': games}}))"
    )


def play_for(server: Any, game_id: int, move: str | None = None, *, times: int = 1) -> None:
    """Play ``move`` — by default the first discard the hand allows, which ends the turn — for
    the seat to move in game ``game_id`` (a person), through the services; ``times`` turns in
    a row of such discards, the two seats in turn (one ``manage.py`` process for all)."""
    server.shell(
        "import json\n"
        "import engine\n"
        "from games.models import Game\n"
        "from games.services import game_play_move\n"
        f"for _ in range({times}):\n"
        "    game = Game.objects.select_related('match__user0', 'match__user1').get("
        f"pk={game_id})\n"
        "    state = engine.Game.from_dict(game.state)\n"
        "    discards = [m.text for m in state.legal_moves() if m.text.startswith('h:')]\n"
        f"    move = {move!r} or next(m for m in discards if '-s' in m)\n"
        "    user = game.match.user_at(state.to_move)\n"
        "    game_play_move(game_id=game.pk, user=user, move=move, version=game.version, "
        "move_id=f'test-{game.version}')\n"
        "print(json.dumps(move))"
    )


def finish_with(server: Any, game_id: int, move: str) -> None:
    """Play ``move`` for the seat to move in game ``game_id`` (it ends the game)."""
    play_for(server, game_id, move)


def sign_up(page: Any, base: str, prefix: str, password: str, *, email: bool = False) -> str:
    """Sign a new player up through the sign-up page (``prefix`` and a random tail, with an
    e-mail address when ``email``); the page ends on the home page. Their username."""
    username = f"{prefix}{secrets.token_hex(4)}"
    page.goto(f"{base}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    if email:
        page.get_by_label(re.compile("e-mail", re.IGNORECASE)).fill(f"{username}@example.com")
    page.get_by_label(re.compile(r"^Password:?$")).fill(password)
    page.get_by_label("Password confirmation").fill(password)
    page.get_by_role("main").get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{base}/")
    return username


def log_in(page: Any, base: str, username: str, password: str) -> None:
    """Log ``username`` in through the log-in page; the page ends on the home page."""
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label(re.compile(r"^Password:?$")).fill(password)
    page.get_by_role("main").get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")


def signed_in(browser: Any, base: str, username: str, password: str) -> list[dict[str, Any]]:
    """``username`` logged in once through the log-in page: their cookies, for every context
    of a module (``context.add_cookies``)."""
    context = browser.new_context()
    try:
        log_in(context.new_page(), base, username, password)
        return context.cookies()
    finally:
        context.close()


def open_table(
    page: Any, base: str, game: int, cookies: list[dict[str, Any]] | None = None
) -> None:
    """Open game ``game``'s table (signed in with ``cookies``, if given) and wait for its
    socket to open."""
    from playwright.sync_api import expect

    if cookies:
        page.context.add_cookies(cookies)
    page.goto(f"{base}/play/games/{game}/")
    expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
