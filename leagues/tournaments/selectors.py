"""Reads about tournaments for the pages, the admin's CSV and the tests: standings with their
tie-breaks (from the pure ``standings.py``), the rounds with their pairings, the bracket."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from leagues.models import Entry, Membership, Tournament, TournamentMatch
from leagues.tournaments.pairing import Bracket, elimination_bracket
from leagues.tournaments.services import entrants_of, results_by_round, withdrawn_of
from leagues.tournaments.standings import round_robin_standings, swiss_standings


@dataclass(frozen=True)
class Row:
    """One line of a tournament's standings, for every format."""

    rank: int
    user: Any
    points: float
    wins: int
    losses: int
    draws: int
    byes: int
    buchholz: float | None  # Swiss
    sonneborn_berger: float | None  # Swiss and round robin
    head_to_head: float | None  # round robin
    reached: str  # elimination: how far they went
    withdrawn: bool
    rating: int | None = None  # the league rating now (rounded)

    @property
    def reached_text(self) -> str:
        """``reached`` (a code: "champion", "final", "semi-final", "quarter-final",
        "round 2") in the reader's language."""
        if self.reached.startswith("round "):
            # Translators: how far a player went in an elimination: the round they lost in.
            return pgettext("elimination: how far a player went", "round %(number)s") % {
                "number": self.reached.removeprefix("round ")
            }
        words = {
            "champion": pgettext("elimination: how far a player went", "champion"),
            "final": pgettext("elimination: how far a player went", "final"),
            "semi-final": pgettext("elimination: how far a player went", "semi-final"),
            "quarter-final": pgettext("elimination: how far a player went", "quarter-final"),
        }
        return words.get(self.reached, self.reached)


def tournament_standings(tournament: Tournament) -> list[Row]:
    """The standings, best first: Swiss by points, Buchholz, Sonneborn-Berger, seeding;
    round robin by points, Sonneborn-Berger, head to head, seeding; elimination by how far
    each went (the champion first), then the seeding."""
    from accounts.models import User

    entrants = entrants_of(tournament)
    if not entrants:
        return []
    users = User.objects.in_bulk([e.id for e in entrants])
    withdrawn = withdrawn_of(tournament)
    rounds = results_by_round(tournament)
    history = [r for rnd in rounds for r in rnd]
    rows: list[Row] = []
    if tournament.format == Tournament.Format.SWISS:
        for s in swiss_standings(entrants, history):
            rows.append(
                Row(
                    s.rank, users[s.id], s.points, s.wins, s.losses, s.draws, s.byes,
                    s.buchholz, s.sonneborn_berger, None, "", s.id in withdrawn,
                )
            )  # fmt: skip
    elif tournament.format == Tournament.Format.ROUND_ROBIN:
        for r in round_robin_standings(entrants, history):
            rows.append(
                Row(
                    r.rank, users[r.id], r.points, r.wins, r.losses, r.draws, 0,
                    None, r.sonneborn_berger, r.head_to_head, "", r.id in withdrawn,
                )
            )  # fmt: skip
    else:
        bracket = tournament_bracket(tournament)
        reached: dict[int, int] = {}
        for depth, matches in enumerate(bracket.rounds):
            for m in matches:
                for pid in (m.first, m.second):
                    if pid is not None:
                        reached[pid] = depth
        if bracket.champion is not None:
            reached[bracket.champion] = len(bracket.rounds)
        seed_of = {pid: i for i, pid in enumerate(bracket.seeds)}
        order = sorted(reached, key=lambda pid: (-reached[pid], seed_of.get(pid, 999), pid))
        total = len(bracket.rounds)
        for rank, pid in enumerate(order, start=1):
            wins = sum(1 for r in history if r.winner == pid and not r.is_bye)
            losses = sum(1 for r in history if pid in (r.first, r.second) and r.winner != pid)
            byes = sum(1 for r in history if r.is_bye and r.first == pid)
            rows.append(
                Row(
                    rank, users[pid], float(wins + byes), wins, losses, 0, byes,
                    None, None, None, _reached_label(reached[pid], total), pid in withdrawn,
                )
            )  # fmt: skip
    ratings = dict(
        Membership.objects.filter(
            league_id=tournament.league_id, user_id__in=[e.id for e in entrants]
        ).values_list("user_id", "rating")
    )
    return [
        replace(row, rating=round(ratings[row.user.pk]) if row.user.pk in ratings else None)
        for row in rows
    ]


def _reached_label(depth: int, total: int) -> str:
    if depth >= total:
        return "champion"
    left = total - depth
    return {1: "final", 2: "semi-final", 3: "quarter-final"}.get(left, f"round {depth + 1}")


def tournament_bracket(tournament: Tournament) -> Bracket:
    """The elimination bracket, replayed from the recorded results."""
    return elimination_bracket(
        entrants_of(tournament), results_by_round(tournament), withdrawn_of(tournament)
    )


def tournament_rounds(tournament: Tournament) -> list[Any]:
    """The rounds, newest first, each with its pairings (players, match) in board order."""
    return list(
        tournament.round_set.order_by("-number").prefetch_related(
            "pairings__first", "pairings__second", "pairings__winner", "pairings__match"
        )
    )


def tournament_entries(tournament: Tournament) -> list[Entry]:
    return list(
        tournament.entries.select_related("user").order_by("-seed_rating", "joined_at", "id")
    )


def pairing_live(pairing: TournamentMatch) -> bool:
    return pairing.match_id is not None and pairing.match.status == "active"


@dataclass(frozen=True)
class PairingView:
    board: int
    first: Any
    second: Any  # None: a bye
    winner: Any
    result: str  # "1-0", "0-1", "½-½", "bye", "" (pending)
    source: str
    forfeit: bool
    match: Any
    game_id: int | None
    live: bool
    yours: bool = False  # the viewer plays in it


def pairing_result_text(p: TournamentMatch) -> str:
    """A pairing's result as a score sheet writes it: 1-0, 0-1, ½-½, 0-0 (a double forfeit), bye."""
    if not p.has_result:
        return ""
    if p.second_id is None:
        return pgettext("pairing without an opponent", "bye")
    if p.winner_id is None:
        return "0-0" if p.forfeit else "½-½"
    return "1-0" if p.winner_id == p.first_id else "0-1"


def tournament_rounds_view(
    tournament: Tournament, *, viewer: Any = None
) -> list[tuple[Any, list[PairingView]]]:
    """(round, its pairings) newest round first, each pairing with its result text, the
    match's last game (to watch, play or replay), whether it is live and whether ``viewer``
    plays in it."""
    from games.models import Game, Match

    viewer_id = viewer.pk if getattr(viewer, "is_authenticated", False) else None
    rounds = tournament_rounds(tournament)
    match_ids = [p.match_id for r in rounds for p in r.pairings.all() if p.match_id]
    last_game: dict[int, int] = {}
    for game_id, match_id in (
        Game.objects.filter(match_id__in=match_ids)
        .order_by("match_id", "number")
        .values_list("pk", "match_id")
    ):
        last_game[match_id] = game_id
    out = []
    for rnd in rounds:
        views = [
            PairingView(
                p.board,
                p.first,
                p.second,
                p.winner,
                pairing_result_text(p),
                p.source,
                p.forfeit,
                p.match,
                last_game.get(p.match_id) if p.match_id else None,
                p.match_id is not None and p.match.status == Match.Status.ACTIVE,
                viewer_id is not None and viewer_id in (p.first_id, p.second_id),
            )
            for p in rnd.pairings.all()
        ]
        out.append((rnd, views))
    return out


@dataclass(frozen=True)
class YourPairing:
    """The viewer's pairing in a running tournament's newest round."""

    round: Any
    pairing: PairingView
    opponent: Any  # None: a bye


def tournament_your_pairing(
    tournament: Tournament, rounds: list[tuple[Any, list[PairingView]]], *, viewer: Any
) -> YourPairing | None:
    """While the tournament runs, ``viewer``'s pairing in its newest round (``rounds`` from
    ``tournament_rounds_view(viewer=viewer)``); None when they are not paired in it, or the
    tournament is over."""
    if tournament.status != Tournament.Status.RUNNING or not rounds:
        return None
    rnd, pairings = rounds[0]
    mine = next((p for p in pairings if p.yours), None)
    if mine is None:
        return None
    opponent = mine.second if mine.first.pk == viewer.pk else mine.first
    return YourPairing(rnd, mine, opponent)


def tournament_winner(tournament: Tournament, standings: list[Row]) -> Any:
    """The winner of a finished tournament (first in its standings: the champion of an
    elimination), or None while it is not finished."""
    if tournament.status != Tournament.Status.FINISHED or not standings:
        return None
    return standings[0].user


@dataclass(frozen=True)
class BracketCell:
    first: Any
    second: Any
    winner: Any
    state: str


def tournament_bracket_view(tournament: Tournament) -> dict[str, Any]:
    """The bracket with users instead of ids, round by round, for the page's grid."""
    from accounts.models import User

    bracket = tournament_bracket(tournament)
    users = User.objects.in_bulk(list(bracket.seeds))
    seed_no = {pid: i + 1 for i, pid in enumerate(bracket.seeds)}

    def who(pid: int | None) -> Any:
        if pid is None:
            return None
        return {"user": users.get(pid), "seed": seed_no.get(pid)}

    total = len(bracket.rounds)
    columns = []
    for depth, matches in enumerate(bracket.rounds):
        left = total - depth
        if left == 1:
            label = _("Final")
        elif left == 2:
            label = _("Semi-finals")
        elif left == 3:
            label = _("Quarter-finals")
        else:
            # Translators: a column of the elimination bracket.
            label = _("Round %(number)s") % {"number": depth + 1}
        columns.append(
            {
                "label": label,
                "matches": [
                    BracketCell(who(m.first), who(m.second), who(m.winner), str(m.state))
                    for m in matches
                ],
            }
        )
    return {"columns": columns, "champion": who(bracket.champion), "size": bracket.size}


def planned_rounds_shown(tournament: Tournament) -> int:
    from leagues.tournaments.services import planned_rounds

    return planned_rounds(tournament)


def league_tournaments(league: Any) -> list[Tournament]:
    """The league's tournaments for its page (drafts hidden), newest first."""
    return list(league.tournaments.exclude(status=Tournament.Status.DRAFT))


# --- the REST API -------------------------------------------------------------------------------


def _tournaments_annotated() -> Any:
    from django.db.models import Count, Q

    return Tournament.objects.select_related("league").annotate(
        entrants=Count("entries", filter=Q(entries__status=Entry.Status.REGISTERED)),
        entries_total=Count("entries"),
    )


def tournaments_visible(*, league: Any = None, status: str | None = None) -> Any:
    """The tournaments anyone may see (drafts hidden, as on the league pages), newest first,
    each annotated with ``entrants`` (registered, not withdrawn) and ``entries_total`` (every
    entry, withdrawn ones too: what ``planned_rounds`` counts). Filters: a league, a status."""
    tournaments = _tournaments_annotated().exclude(status=Tournament.Status.DRAFT)
    if league is not None:
        tournaments = tournaments.filter(league=league)
    if status:
        tournaments = tournaments.filter(status=status)
    return tournaments.order_by("-created_at", "-id")


def tournament_visible_get(*, tournament_id: int, user: Any) -> Tournament:
    """The tournament, annotated as ``tournaments_visible``'s, or GameError not_found: for a
    missing one, and for a draft unless ``user`` may moderate its league."""
    from core.errors import NOT_FOUND, GameError

    tournament = _tournaments_annotated().filter(pk=tournament_id).first()
    if tournament is None or not tournament_visible_to(tournament, user):
        raise GameError(NOT_FOUND, _("There is no such tournament."))
    return tournament


def tournament_visible_to(tournament: Tournament, user: Any) -> bool:
    """Whether ``user`` may see the tournament: anyone, except a draft, which only its
    league's moderators see (its page and the API alike)."""
    from leagues.permissions import league_may_moderate

    return tournament.status != Tournament.Status.DRAFT or league_may_moderate(
        league=tournament.league, user=user
    )


def tournament_planned_rounds(tournament: Tournament) -> int:
    """``planned_rounds``, from the ``entries_total`` annotation when the row has it."""
    from leagues.tournaments.services import planned_rounds

    return planned_rounds(tournament, getattr(tournament, "entries_total", None))


def tournament_entry_of(*, tournament: Tournament, user: Any) -> Entry | None:
    """``user``'s entry (registered or withdrawn), or None (anonymous, or never entered)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        Entry.objects.filter(tournament=tournament, user_id=user.pk).select_related("user").first()
    )
