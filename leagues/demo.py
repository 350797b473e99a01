"""Demo data for leagues: **Club 52** (slug ``demo``, open) with the demo players alice (a
moderator) and bruno as active members, so a fresh `make run` can play a ranked match at once:
log in as alice in one browser and bruno in another, open the league, Play ranked. Its knobs are
short — a pay-off pile of 10, first to 25 points — so a demo ranked match takes minutes, not an
evening.

It also makes **Club 104** (slug ``club``, open; pay-off pile of 5, first to 10) with four demo
players — alice (moderator), bruno, and two more made here, carmen and dai (the same demo
password) — so an admin can run a four-player Swiss tournament on `make run`, the bots playing
its matches (`manage.py tournament_autoplay`; docs/tournaments.md). Club 104 lets bots play
ranked, and the demo bot account ``robo`` (made by the accounts loader) is a member too
(docs/bot_accounts.md). Club 104 has an open **season** (named after the year) with four results
among its people, so a newcomer sees a season's table on its page; a tournament run there counts
toward it too (docs/leagues.md, "Seasons"). Run by `load_demo` after the accounts loader;
idempotent.

A league's name and description are its moderator's words, shown as they are in every language
(docs/i18n.md): the demo's names are neutral (a club and a number, read alike in the six
languages: 52 cards in a deck, 104 in the two decks of a game) and they have no description — the
league page already says their rules in the visitor's language, and what a developer needs to
know (the tournament's command) is in the docs, not on a player's page."""

from __future__ import annotations

from django.core.management.base import OutputWrapper
from django.db import transaction
from django.utils import timezone

import engine
from accounts.demo import DEMO_PASSWORD
from accounts.models import User
from leagues.models import League, Membership, Season

DEMO_SLUG = "demo"
DEMO_NAME = "Club 52"
DEMO_RULES = engine.Rules(payoff_size=10, match_target=25)
DEMO_MEMBERS = {"alice": Membership.Role.MODERATOR, "bruno": Membership.Role.PLAYER}
CLUB_SLUG = "club"
CLUB_NAME = "Club 104"
CLUB_RULES = engine.Rules(payoff_size=5, match_target=10)
CLUB_PLAYERS = (
    {
        "username": "carmen",
        "display_name": "Carmen",
        "country": "ES",
        "email": "carmen@example.com",
    },
    {"username": "dai", "display_name": "Dai", "country": "GB", "email": "dai@example.com"},
)
CLUB_MEMBERS = {
    "alice": Membership.Role.MODERATOR,
    "bruno": Membership.Role.PLAYER,
    "carmen": Membership.Role.PLAYER,
    "dai": Membership.Role.PLAYER,
    "robo": Membership.Role.PLAYER,  # the demo bot account, while the Club lets bots play ranked
}
#: The demo season's results in Club 104: (winner, loser).
SEASON_RESULTS = (("carmen", "dai"), ("alice", "bruno"), ("dai", "bruno"), ("carmen", "alice"))


def logins() -> list[tuple[str, str]]:
    """What the demo accounts are in the demo leagues, for load_demo's block of log-ins."""
    return [
        ("alice", f"moderator of {DEMO_NAME} and {CLUB_NAME}"),
        ("bruno", f"member of {DEMO_NAME} and {CLUB_NAME}"),
        ("carmen", f"a player in {CLUB_NAME}"),
        ("dai", f"a player in {CLUB_NAME}"),
        ("robo", f"member of {CLUB_NAME}"),
    ]


@transaction.atomic
def load(stdout: OutputWrapper) -> bool:
    """Create the demo league and its members where missing; True when anything was made."""
    created = False
    league, made = League.objects.get_or_create(
        slug=DEMO_SLUG,
        defaults={
            "name": DEMO_NAME,
            "rules": DEMO_RULES.to_dict(),
        },
    )
    if made:
        created = True
        stdout.write(f"leagues: created {DEMO_NAME} (/leagues/{DEMO_SLUG}/)")
    for username, role in DEMO_MEMBERS.items():
        user = User.objects.filter(username=username).first()
        if user is None:
            continue
        _, made = Membership.objects.get_or_create(
            league=league, user=user, defaults={"role": role}
        )
        if made:
            created = True
            stdout.write(f"leagues: {username} joined {DEMO_NAME} ({role})")
    return _load_club(stdout) or created


def _load_club(stdout: OutputWrapper) -> bool:
    """Club 104 and its four players, for a tournament on `make run`."""
    created = False
    if not User.objects.filter(username="alice").exists():
        return False  # the accounts loader made no demo players (production)
    for player in CLUB_PLAYERS:
        if not User.objects.filter(username__iexact=player["username"]).exists():
            User.objects.create_user(password=DEMO_PASSWORD, **player)
            created = True
            stdout.write(f"leagues: created demo player {player['username']} ({DEMO_PASSWORD})")
    league, made = League.objects.get_or_create(
        slug=CLUB_SLUG,
        defaults={
            "name": CLUB_NAME,
            "rules": CLUB_RULES.to_dict(),
            "bots_ranked": True,
        },
    )
    if made:
        created = True
        stdout.write(f"leagues: created {CLUB_NAME} (/leagues/{CLUB_SLUG}/)")
    for username, role in CLUB_MEMBERS.items():
        user = User.objects.filter(username=username).first()
        if user is None or (user.is_bot and not league.bots_ranked):
            continue
        _, made = Membership.objects.get_or_create(
            league=league, user=user, defaults={"role": role}
        )
        created = created or made
    return _load_season(league, stdout) or created


def _load_season(league: League, stdout: OutputWrapper) -> bool:
    """Club 104's open season, opened by alice, and its first results: in each match of
    ``SEASON_RESULTS`` the loser resigns game after game until the winner reaches the target
    (a rated match, in a moment)."""
    from games.models import Match
    from games.services import game_resign
    from leagues.seasons import season_open
    from leagues.services import ranked_match_create

    if Season.objects.filter(league=league).exists():
        return False
    users = {u.username: u for u in User.objects.filter(username__in=CLUB_MEMBERS)}
    if not {name for pair in SEASON_RESULTS for name in pair} <= set(users):
        return False
    name = str(timezone.localdate().year)
    season_open(league=league, name=name, by=users["alice"])
    for winner, loser in SEASON_RESULTS:
        match = ranked_match_create(league=league, user0=users[winner], user1=users[loser])
        while match.status == Match.Status.ACTIVE:
            game = match.games.order_by("-number").first()
            game_resign(game_id=game.pk, user=users[loser], scope="game")
            match.refresh_from_db()
    stdout.write(
        f"leagues: {CLUB_NAME} opened the season {name} with {len(SEASON_RESULTS)} results"
    )
    return True
