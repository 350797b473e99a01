"""Writes about tournaments (docs/tournaments.md, "The Django side"): creating one, opening
registration, registering and withdrawing, starting it, making each round's pairings and
matches, reading results from finished matches, closing rounds, forfeits, an admin's result
and the bots' autoplay. The pairing and scoring rules are the pure functions next door
(``pairing.py``, ``standings.py``); this module feeds them plain data and stores what comes
back. A refusal is a ``GameError`` with a stable code."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import engine
from core.errors import FORBIDDEN, NOT_FOUND, UNAUTHENTICATED, GameError, lazy_format
from games.models import Game, Match, Move
from leagues.broadcast import tournament_paired_send
from leagues.models import Entry, League, Membership, Round, Tournament, TournamentMatch
from leagues.tournaments.pairing import (
    Entrant,
    Pairing,
    Result,
    bracket_size,
    elimination_first_round,
    elimination_next_round,
    forfeits_for_withdrawn,
    round_robin_schedule,
    seeding,
    swiss_pairings,
)

# --- reading a tournament as plain data ---------------------------------------------------------


def entrants_of(tournament: Tournament) -> list[Entrant]:
    """Every entrant (withdrawn ones too), rated as at the start (or now, before it)."""
    entries = list(tournament.entries.all())
    ratings = {
        m.user_id: m.rating
        for m in Membership.objects.filter(
            league_id=tournament.league_id, user_id__in=[e.user_id for e in entries]
        )
    }
    return [
        Entrant(
            e.user_id,
            e.seed_rating if e.seed_rating is not None else ratings.get(e.user_id, 1500.0),
        )
        for e in entries
    ]


def withdrawn_of(tournament: Tournament) -> frozenset[int]:
    return frozenset(
        tournament.entries.filter(status=Entry.Status.WITHDRAWN).values_list("user_id", flat=True)
    )


def result_of(pairing: TournamentMatch) -> Result | None:
    """The pure ``Result`` of a pairing, or None while it has none."""
    if not pairing.has_result:
        return None
    if pairing.second_id is None:
        return Result.bye(pairing.first_id)
    return Result(pairing.first_id, pairing.second_id, pairing.winner_id, pairing.forfeit)


def results_by_round(tournament: Tournament) -> list[list[Result]]:
    """Each round's recorded results, round 1 first."""
    rounds: list[list[Result]] = []
    for rnd in tournament.round_set.order_by("number").prefetch_related("pairings"):
        rounds.append([r for p in rnd.pairings.all() if (r := result_of(p)) is not None])
    return rounds


def planned_rounds(tournament: Tournament, n: int | None = None) -> int:
    """How many rounds the tournament plays: round robin n - 1 (n odd: n); elimination
    log2 of the bracket; Swiss its ``rounds`` (default ⌈log2 n⌉, at least 1)."""
    if n is None:
        n = tournament.entries.count()
    if n < 2:
        return 0
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return n if n % 2 else n - 1
    if tournament.format == Tournament.Format.ELIMINATION:
        return int(math.log2(bracket_size(n)))
    return tournament.rounds or max(1, math.ceil(math.log2(n)))


# --- lifecycle ----------------------------------------------------------------------------------


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().select_related("league").get(pk=tournament.pk)


def tournament_create(
    *,
    league: League,
    name: str,
    slug: str,
    format: str,
    rounds: int | None = None,
    ranked: bool = True,
    match_target: int | None = None,
    created_by: Any = None,
) -> Tournament:
    """A new tournament of ``league``, as a draft."""
    if format not in Tournament.Format.values:
        raise ValueError(f"unknown format {format!r}")
    return Tournament.objects.create(
        league=league,
        name=name,
        slug=slug,
        format=format,
        rounds=rounds,
        ranked=ranked,
        match_target=match_target,
        created_by=created_by if getattr(created_by, "pk", None) else None,
    )


# Each organiser's step has its refusal here: ``None`` when the step may be taken now, else why
# not. The services refuse with it (under their lock), and ``steps.tournament_step`` reads the
# same function to show a step's button or refuse a stale one, so the page and the services
# never disagree.


def open_registration_refusal(t: Tournament) -> Any:
    if t.status != Tournament.Status.DRAFT:
        return lazy_format(
            _("%(tournament)s: registration opens only from a draft."), tournament=t.name
        )
    if not t.league.is_active:
        return lazy_format(_("%(league)s is archived."), league=t.league.name)
    return None


def tournament_open_registration(*, tournament: Tournament) -> Tournament:
    """draft → registration. Refused (forbidden) from any other status or in an archived
    league."""
    with transaction.atomic():
        t = _lock(tournament)
        refusal = open_registration_refusal(t)
        if refusal is not None:
            raise GameError(FORBIDDEN, refusal)
        t.status = Tournament.Status.REGISTRATION
        t.save(update_fields=["status", "updated_at"])
    return t


def tournament_register(*, tournament: Tournament, user: Any) -> Entry:
    """An active member of the league enters while registration is open (again, after
    withdrawing, too). Refusals: unauthenticated; forbidden (registration closed; not an
    active member; a bot account in a ranked tournament of a league whose bots do not play
    ranked)."""
    if not getattr(user, "is_authenticated", False):
        raise GameError(UNAUTHENTICATED, _("Log in to enter a tournament."))
    from leagues.services import ranked_member_check

    with transaction.atomic():
        t = _lock(tournament)
        if t.status != Tournament.Status.REGISTRATION:
            raise GameError(
                FORBIDDEN,
                lazy_format(_("Registration for %(tournament)s is not open."), tournament=t.name),
            )
        ranked_member_check(league=t.league, user=user, ranked=t.ranked)
        entry, created = Entry.objects.get_or_create(tournament=t, user=user)
        if not created and entry.is_withdrawn:
            entry.status = Entry.Status.REGISTERED
            entry.save(update_fields=["status"])
    return entry


def tournament_withdraw(*, tournament: Tournament, user: Any) -> Entry:
    """An entrant withdraws (or an admin withdraws them): never paired again. While the
    tournament runs, their pairings without a result in the open round are forfeited (their
    active match, if nobody has moved in it yet, is aborted); their results stand. Before
    it starts the entry simply counts no more. Refused: not entered; finished."""
    with transaction.atomic():
        t = _lock(tournament)
        entry = Entry.objects.filter(tournament=t, user_id=getattr(user, "pk", None)).first()
        if entry is None:
            raise GameError(
                NOT_FOUND,
                lazy_format(_("You are not entered in %(tournament)s."), tournament=t.name),
            )
        if t.status == Tournament.Status.FINISHED:
            raise GameError(FORBIDDEN, lazy_format(_("%(tournament)s is over."), tournament=t.name))
        if entry.is_withdrawn:
            return entry
        if t.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            entry.delete()
            entry.status = Entry.Status.WITHDRAWN
            return entry
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
        rnd = t.round_set.filter(status=Round.Status.OPEN).first()
        if rnd is not None:
            withdrawn = withdrawn_of(t)
            for p in rnd.pairings.select_for_update().filter(source=""):
                if entry.user_id not in (p.first_id, p.second_id):
                    continue
                _forfeit(p, withdrawn)
            tournament_round_close(round=rnd)
    return entry


def tournaments_withdraw_user(*, user: Any, league_id: int | None = None) -> list[Tournament]:
    """Withdraw ``user`` from every tournament not finished (of one league, given
    ``league_id``) where they are still entered, as ``tournament_withdraw``: for a member who
    leaves or is banned, and an account deleted. Returns the tournaments left."""
    entries = Entry.objects.filter(
        user_id=user.pk,
        status=Entry.Status.REGISTERED,
        tournament__status__in=[
            Tournament.Status.DRAFT,
            Tournament.Status.REGISTRATION,
            Tournament.Status.RUNNING,
        ],
    ).select_related("tournament")
    if league_id is not None:
        entries = entries.filter(tournament__league_id=league_id)
    left = []
    for entry in entries:
        tournament_withdraw(tournament=entry.tournament, user=user)
        left.append(entry.tournament)
    return left


def membership_withdraws(sender: Any, instance: Membership, **kwargs: Any) -> None:
    """``post_save`` of a Membership: a member who left or was banned (by the service, a
    moderator or the admin) is withdrawn from the league's tournaments."""
    if instance.status in (Membership.Status.LEFT, Membership.Status.BANNED):
        tournaments_withdraw_user(user=instance.user, league_id=instance.league_id)


def _withdraw_ineligible(t: Tournament) -> None:
    """Before a round is paired: withdraw every entrant who may no longer play in the league
    (left, banned, a deleted or disabled account), whatever missed telling us, so pairing
    never refuses them inside the transaction that finished another match."""
    from leagues.services import ranked_member_check

    for entry in t.entries.filter(status=Entry.Status.REGISTERED).select_related("user"):
        try:
            ranked_member_check(league=t.league, user=entry.user, ranked=t.ranked)
        except GameError:
            entry.status = Entry.Status.WITHDRAWN
            entry.save(update_fields=["status"])


def _forfeit(p: TournamentMatch, absent: Any) -> None:
    """Record a forfeit: the one present wins; both absent: a double forfeit. Abort the
    match when nobody has moved for both seats yet (else it plays out, unrated for the
    tournament's result, which stands)."""
    first_absent, second_absent = p.first_id in absent, p.second_id in absent
    p.forfeit = True
    p.source = TournamentMatch.Source.FORFEIT
    if first_absent and second_absent:
        p.winner_id = None
    else:
        p.winner_id = p.second_id if first_absent else p.first_id
    p.save(update_fields=["forfeit", "source", "winner"])
    _abort_match(p.match_id)


def _abort_match(match_id: int | None) -> None:
    if match_id is None:
        return
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).first()
    if match is None:
        return
    game = match.games.order_by("-number").first()
    if game is None or game.number != 1 or not game.is_active:
        return
    from games.services import game_abort

    # Both have moved: the match plays on, but the forfeit stands as the pairing's result.
    with contextlib.suppress(GameError):
        game_abort(game_id=game.pk)  # by the site, not by a player


def start_refusal(t: Tournament) -> Any:
    if t.status != Tournament.Status.REGISTRATION:
        return lazy_format(
            _("%(tournament)s can start only while registration is open."), tournament=t.name
        )
    entrants = t.entries.filter(status=Entry.Status.REGISTERED).count()
    if entrants < 2:
        return lazy_format(
            _("%(tournament)s needs at least two entrants to start."), tournament=t.name
        )
    return None


def tournament_start(*, tournament: Tournament) -> Tournament:
    """registration → running: seed the entrants by their league rating now, and open round
    one (its pairings and matches). Needs at least two entrants."""
    with transaction.atomic():
        t = _lock(tournament)
        refusal = start_refusal(t)
        if refusal is not None:
            raise GameError(FORBIDDEN, refusal)
        entries = list(t.entries.filter(status=Entry.Status.REGISTERED))
        ratings = {m.user_id: m.rating for m in Membership.objects.filter(league_id=t.league_id)}
        for e in entries:
            e.seed_rating = ratings.get(e.user_id, 1500.0)
            e.save(update_fields=["seed_rating"])
        t.status = Tournament.Status.RUNNING
        t.started_at = timezone.now()
        t.save(update_fields=["status", "started_at", "updated_at"])
        _round_open(t, 1)
    return t


def _pairings_for(t: Tournament, number: int) -> list[Pairing | None]:
    entrants = entrants_of(t)
    withdrawn = withdrawn_of(t)
    if t.format == Tournament.Format.ROUND_ROBIN:
        schedule = round_robin_schedule(seeding(entrants))
        return list(schedule[number - 1])
    if t.format == Tournament.Format.ELIMINATION:
        if number == 1:
            return list(elimination_first_round(entrants))
        prev = t.round_set.get(number=number - 1)
        size = bracket_size(len(entrants)) // 2 ** (number - 1)
        by_board = {p.board: p for p in prev.pairings.all()}
        previous = [
            Pairing(b.first_id, b.second_id) if (b := by_board.get(i + 1)) else None
            for i in range(size)
        ]
        results = [r for p in prev.pairings.all() if (r := result_of(p)) is not None]
        return list(elimination_next_round(previous, results, withdrawn))
    history = [r for rnd in results_by_round(t) for r in rnd]
    return list(swiss_pairings(entrants, history, withdrawn))


def _rules(t: Tournament) -> engine.Rules:
    rules = t.league.engine_rules
    if t.match_target:
        from dataclasses import replace

        rules = replace(rules, match_target=t.match_target)
    return rules


def _match_for(t: Tournament, first: Any, second: Any) -> Match:
    from games.services import match_create_between

    rules = _rules(t)
    if t.ranked:
        return match_create_between(
            user0=first,
            user1=second,
            rules=rules,
            ranked=True,
            league=t.league,
            match_target=t.match_target,
            scheduled=True,
        )
    return match_create_between(user0=first, user1=second, rules=rules)


def _round_open(t: Tournament, number: int) -> Round:
    from accounts.models import User

    _withdraw_ineligible(t)
    pairings = _pairings_for(t, number)
    withdrawn = withdrawn_of(t)
    rnd = Round.objects.create(tournament=t, number=number)
    t.current_round = number
    t.save(update_fields=["current_round", "updated_at"])
    ids = {i for p in pairings if p for i in (p.first, p.second) if i is not None}
    users = User.objects.in_bulk(ids)
    forfeits = {
        (r.first, r.second): r
        for r in forfeits_for_withdrawn([p for p in pairings if p], withdrawn)
    }
    rows = []
    for board, p in enumerate(pairings, start=1):
        if p is None:
            continue
        row = TournamentMatch(round=rnd, board=board, first_id=p.first, second_id=p.second)
        if p.second is None:
            row.winner_id = p.first
            row.source = TournamentMatch.Source.BYE
        elif (p.first, p.second) in forfeits:
            row.winner_id = forfeits[(p.first, p.second)].winner
            row.forfeit = True
            row.source = TournamentMatch.Source.FORFEIT
        else:
            row.match = _match_for(t, users[p.first], users[p.second])
        row.save()
        rows.append(row)
    frames = _paired_frames(t, number, rows, users, withdrawn)
    transaction.on_commit(partial(tournament_paired_send, frames))
    tournament_round_close(round=rnd)
    return rnd


def _paired_frames(
    t: Tournament, number: int, rows: list[TournamentMatch], users: dict[int, Any], withdrawn: Any
) -> dict[int, list[dict[str, Any]]]:
    """``tournament_paired`` for each entrant paired in round ``number`` (not a withdrawn
    one): the opponent (None for a bye), the match and its table's address to play it, else
    the tournament's page (docs/protocol.md, "The per-user socket")."""
    from django.urls import reverse

    from accounts.selectors import user_person

    page = reverse("leagues:tournament", args=[t.league.slug, t.slug])
    frames: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        game = row.match.current_game if row.match is not None else None
        for me, other in ((row.first_id, row.second_id), (row.second_id, row.first_id)):
            if me is None or me in withdrawn:
                continue
            frames[me] = [
                {
                    "type": "tournament_paired",
                    "league": t.league.slug,
                    "tournament": t.slug,
                    "name": t.name,
                    "round": number,
                    "opponent": user_person(users[other]) if other is not None else None,
                    "match": row.match_id,
                    "game": game.pk if game is not None else None,
                    "url": reverse("games:table", args=[game.pk]) if game is not None else page,
                    "tournament_url": page,
                }
            ]
    return frames


def tournament_round_close(*, round: Round) -> bool:
    """Close ``round`` if every pairing has a result, then open the next round or finish the
    tournament. Returns whether it closed (False: results missing, or closed already)."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        if rnd.status == Round.Status.CLOSED:
            return False
        if rnd.pairings.filter(source="").exists():
            return False
        t = _lock(rnd.tournament)
        rnd.status = Round.Status.CLOSED
        rnd.closed_at = timezone.now()
        rnd.save(update_fields=["status", "closed_at"])
        if _is_over(t, rnd.number):
            t.status = Tournament.Status.FINISHED
            t.finished_at = timezone.now()
            t.save(update_fields=["status", "finished_at", "updated_at"])
        else:
            _round_open(t, rnd.number + 1)
    return True


def _is_over(t: Tournament, number: int) -> bool:
    n = t.entries.count()
    if number >= planned_rounds(t, n):
        return True
    active = n - len(withdrawn_of(t))
    if t.format == Tournament.Format.SWISS and active < 2:
        return True
    if t.format == Tournament.Format.ELIMINATION:
        nxt = _pairings_for(t, number + 1)
        return all(p is None for p in nxt)
    return False


def tournament_match_finished(match: Match) -> None:
    """``games.hooks.match_finished``'s listener, in the transaction that finished the match:
    the match's tournament pairing, if any and without a result yet, takes the match's winner.
    The round closes once that commits (``tournament_round_close_after``)."""
    pairing = (
        TournamentMatch.objects.select_for_update().filter(match_id=match.pk, source="").first()
    )
    if pairing is None:
        return
    winner = match.user_id_at(match.winner) if match.winner is not None else None
    pairing.winner_id = winner
    pairing.forfeit = False
    pairing.source = TournamentMatch.Source.PLAYED
    pairing.save(update_fields=["winner", "forfeit", "source"])


def tournament_match_aborted(match: Match) -> None:
    """``games.hooks.match_aborted``'s listener, in the transaction that aborted the match: an
    entrant who aborts their tournament match forfeits it (the opponent wins). A match the
    site aborted (``aborted_by`` empty) had its pairing's result set already."""
    if match.aborted_by_id is None:
        return
    pairing = (
        TournamentMatch.objects.select_for_update().filter(match_id=match.pk, source="").first()
    )
    if pairing is None:
        return
    _forfeit(pairing, {match.aborted_by_id})


def tournament_round_close_after(match: Match) -> None:
    """``games.hooks.match_finished``'s (and ``match_aborted``'s) listener once the match's end
    has committed: close the round of the match's pairing if that was its last result, pairing
    the next round. It runs in a transaction of its own, so a failure here (logged by
    ``games.hooks``) never refuses the move that ended the match; the round then stays open
    for an admin to close."""
    pairing = (
        TournamentMatch.objects.select_related("round")
        .filter(match_id=match.pk)
        .exclude(source="")
        .first()
    )
    if pairing is not None:
        tournament_round_close(round=pairing.round)


def pair_name(p: TournamentMatch) -> Any:
    """The pairing as people read it, "Alice v Bob" (a bye: the player's name)."""
    if p.second_id is None:
        return p.first.public_name
    # Translators: a tournament pairing: the first player's name, then the second's.
    return lazy_format(
        _("%(first)s v %(second)s"), first=p.first.public_name, second=p.second.public_name
    )


def pairing_result_refusal(p: TournamentMatch, *, correction: bool = False) -> Any:
    """Why an organiser may not set ``p``'s result now (None: they may). A correction (the
    pairing's own admin page) may change any result but a bye's; the tournament page's step
    only decides a pairing of the open round that has no result from its match: one without
    a result yet, a forfeit or an organiser's result."""
    if p.second_id is None:
        return _("A bye has no result to set.")
    if correction:
        return None
    t = p.round.tournament
    if t.status != Tournament.Status.RUNNING:
        return lazy_format(_("%(tournament)s is not running."), tournament=t.name)
    if p.round.status != Round.Status.OPEN:
        return lazy_format(_("Round %(round)s is closed: its results stand."), round=p.round.number)
    if p.source == TournamentMatch.Source.PLAYED:
        return lazy_format(
            _("%(pairing)s was played to its end: its result stands."), pairing=pair_name(p)
        )
    return None


def pairing_result_set(
    *,
    pairing: TournamentMatch,
    winner_id: int | None,
    forfeit: bool = False,
    by: Any = None,
    correction: bool = False,
) -> TournamentMatch:
    """An organiser (``by``, kept in ``result_set_by``) sets a pairing's result: a winner (by
    forfeit or not), a draw, or a double forfeit (no winner, ``forfeit``). An elimination
    match needs a winner or a double forfeit. Refused as ``pairing_result_refusal`` says:
    the tournament page's step decides a pairing of the open round whose match has not given
    its result; ``correction`` (the pairing's admin page) changes any result but a bye's.

    An unfinished match is called off when nobody has moved for both seats yet (else it
    plays on, and the result set here stands). When the pairing's ranked match is finished
    and the winner changes, the match's winning seat changes too and the league's ratings are
    recomputed from every rated match (``league_ratings_recompute``). A round whose last
    result this was closes (and the next is paired)."""
    from leagues.services import league_ratings_recompute

    with transaction.atomic():
        p = (
            TournamentMatch.objects.select_for_update(of=("self",))
            .select_related("round__tournament__league", "first", "second")
            .get(pk=pairing.pk)
        )
        refusal = pairing_result_refusal(p, correction=correction)
        if refusal is not None:
            raise GameError(FORBIDDEN, refusal)
        if winner_id not in (p.first_id, p.second_id, None):
            raise GameError(FORBIDDEN, _("The winner must be one of the pair."))
        if (
            winner_id is None
            and not forfeit
            and p.round.tournament.format == Tournament.Format.ELIMINATION
        ):
            raise GameError(
                FORBIDDEN,
                _("An elimination match needs a winner: choose one, or a double forfeit."),
            )
        p.winner_id = winner_id
        p.forfeit = forfeit
        p.source = TournamentMatch.Source.ADMIN
        p.result_set_by = by if getattr(by, "pk", None) else None
        p.save(update_fields=["winner", "forfeit", "source", "result_set_by"])
        match = Match.objects.select_for_update().filter(pk=p.match_id).first()
        if match is not None and match.status == Match.Status.FINISHED and winner_id:
            seat = 0 if match.user0_id == winner_id else 1
            if match.winner != seat:
                match.winner = seat
                match.save(update_fields=["winner", "updated_at"])
                if match.ranked and match.league_id:
                    league_ratings_recompute(league=p.round.tournament.league)
        elif match is not None and match.status == Match.Status.ACTIVE:
            _abort_match(match.pk)
        tournament_round_close(round=p.round)
    return p


# --- no-shows, closing a round by hand, finishing ----------------------------------------------


def no_show_wait(tournament: Tournament) -> timedelta:
    """How long after its pairing a player who has not moved in their match is late: the
    league's turn time limit."""
    return timedelta(seconds=tournament.league.turn_time_limit)


def moved_seats(match_ids: Any) -> dict[int, set[int]]:
    """The seats that have moved in each match (in any of its games; a taken-back move too)."""
    seats: dict[int, set[int]] = {match_id: set() for match_id in match_ids}
    for match_id, seat in (
        Move.objects.filter(game__match_id__in=list(seats))
        .values_list("game__match_id", "seat")
        .order_by()
        .distinct()
    ):
        seats[match_id].add(seat)
    return seats


def absent_players(p: TournamentMatch, moved: set[int]) -> set[int]:
    """The players of a pairing without a result who have never moved in its match (both,
    when it has no match)."""
    if p.match_id is None:
        return {i for i in (p.first_id, p.second_id) if i is not None}
    return {p.match.user_id_at(seat) for seat in (0, 1) if seat not in moved} - {None}


def is_late(p: TournamentMatch, moved: set[int], *, now: Any, wait: timedelta) -> bool:
    """Whether a pairing without a result is a no-show: its match, still active, was made at
    least ``wait`` ago and a player has never moved in it."""
    return (
        not p.has_result
        and p.match_id is not None
        and p.match.status == Match.Status.ACTIVE
        and p.match.created_at <= now - wait
        and bool(absent_players(p, moved))
    )


def pending_pairings(rnd: Round) -> tuple[list[TournamentMatch], dict[int, set[int]]]:
    """The round's pairings without a result, and the seats that moved in their matches."""
    pending = list(
        rnd.pairings.filter(source="").select_related("first", "second", "match").order_by("board")
    )
    return pending, moved_seats([p.match_id for p in pending if p.match_id])


def tournament_forfeit_no_shows(
    *, tournament: Tournament, after: timedelta | None = None, now: Any = None
) -> int:
    """Forfeit the open round's no-shows (``is_late``: a match made longer than ``after``
    ago, by default ``no_show_wait``, where a player has never moved): the one who moved wins
    by forfeit; neither moved: a double forfeit. The match is called off. Returns how many
    pairings were forfeited."""
    now = now or timezone.now()
    if after is None:
        after = no_show_wait(tournament)
    count = 0
    with transaction.atomic():
        t = _lock(tournament)
        rnd = t.round_set.filter(status=Round.Status.OPEN).first()
        if rnd is None:
            return 0
        list(rnd.pairings.select_for_update().filter(source=""))
        pending, moved = pending_pairings(rnd)
        for p in pending:
            if is_late(p, moved.get(p.match_id, set()), now=now, wait=after):
                _forfeit(p, absent_players(p, moved[p.match_id]))
                count += 1
        if count:
            tournament_round_close(round=rnd)
    return count


def forfeit_no_shows_refusal(t: Tournament, *, now: Any = None) -> Any:
    """Why the organiser may not forfeit no-shows now (None: they may): nobody is late."""
    if t.status != Tournament.Status.RUNNING:
        return lazy_format(_("%(tournament)s is not running."), tournament=t.name)
    rnd = t.round_set.filter(status=Round.Status.OPEN).first()
    if rnd is None:
        return _("No round is open.")
    now = now or timezone.now()
    wait = no_show_wait(t)
    pending, moved = pending_pairings(rnd)
    if not any(is_late(p, moved.get(p.match_id or 0, set()), now=now, wait=wait) for p in pending):
        from core.i18n import lazy_duration

        return lazy_format(
            _(
                "Nobody in round %(round)s is late yet: a player is late when %(wait)s have "
                "passed since the pairing without a move of theirs."
            ),
            round=rnd.number,
            wait=lazy_duration(wait.total_seconds()),
        )
    return None


def in_play(rnd: Round) -> list[TournamentMatch]:
    """The round's pairings without a result in which both players have moved: a match in
    play (or one that ended without giving a result). Closing the round waits for them."""
    pending, moved = pending_pairings(rnd)
    return [p for p in pending if not absent_players(p, moved.get(p.match_id or 0, set()))]


def round_close_refusal(t: Tournament) -> Any:
    """Why the organiser may not close the open round now (None: they may)."""
    if t.status != Tournament.Status.RUNNING:
        return lazy_format(_("%(tournament)s is not running."), tournament=t.name)
    rnd = t.round_set.filter(status=Round.Status.OPEN).first()
    if rnd is None:
        return _("No round is open.")
    playing = in_play(rnd)
    if playing:
        from core.i18n import spoken_list

        return lazy_format(
            _(
                "Round %(round)s cannot close while a match is in play: %(pairings)s. Let it "
                "end, or set its result first."
            ),
            round=rnd.number,
            pairings=spoken_list(str(pair_name(p)) for p in playing),
        )
    return None


def tournament_round_end(*, tournament: Tournament) -> Round:
    """The organiser closes the open round now: each pairing without a result whose match a
    player never moved in is forfeited (the one who moved wins; neither: a double forfeit;
    the match is called off), then the round closes and the next is paired, or the
    tournament finishes. Refused (``round_close_refusal``) while a match is in play."""
    with transaction.atomic():
        t = _lock(tournament)
        refusal = round_close_refusal(t)
        if refusal is not None:
            raise GameError(FORBIDDEN, refusal)
        rnd = t.round_set.get(status=Round.Status.OPEN)
        list(rnd.pairings.select_for_update().filter(source=""))
        pending, moved = pending_pairings(rnd)
        for p in pending:
            _forfeit(p, absent_players(p, moved.get(p.match_id or 0, set())))
        tournament_round_close(round=rnd)
    return rnd


def round_begun(rnd: Round) -> bool:
    """Whether anything has happened in the round beyond its pairing: a move in one of its
    matches, or a result other than a bye or a withdrawn player's forfeit made with it."""
    if (
        rnd.pairings.filter(
            source__in=[TournamentMatch.Source.PLAYED, TournamentMatch.Source.ADMIN]
        ).exists()
        or rnd.pairings.filter(source=TournamentMatch.Source.FORFEIT, match__isnull=False).exists()
    ):
        return True
    return Move.objects.filter(game__match__tournament_pairing__round=rnd).exists()


def finish_refusal(t: Tournament) -> Any:
    """Why the organiser may not finish the tournament now (None: they may): it finishes
    between rounds, once a round has closed, while no round is open or the one just paired
    has not begun."""
    if t.status != Tournament.Status.RUNNING:
        return lazy_format(_("%(tournament)s is not running."), tournament=t.name)
    rnd = t.round_set.filter(status=Round.Status.OPEN).first()
    if rnd is not None and round_begun(rnd):
        return lazy_format(
            _(
                "Round %(round)s is under way: the tournament finishes between rounds, once "
                "round %(round)s is closed and before anyone plays in the next."
            ),
            round=rnd.number,
        )
    if not t.round_set.filter(status=Round.Status.CLOSED).exists():
        return _(
            "No round has been played yet: the tournament finishes between rounds, once "
            "round 1 is closed."
        )
    return None


def tournament_finish(*, tournament: Tournament) -> Tournament:
    """The organiser finishes the running tournament now, between rounds: a round paired but
    not begun is called off (its matches aborted, its pairings and the round deleted), and
    the standings of the rounds played are final. Refused (``finish_refusal``) while a round
    is under way: its matches unfinished or its results coming in."""
    with transaction.atomic():
        t = _lock(tournament)
        refusal = finish_refusal(t)
        if refusal is not None:
            raise GameError(FORBIDDEN, refusal)
        rnd = t.round_set.filter(status=Round.Status.OPEN).first()
        if rnd is not None:
            for match_id in rnd.pairings.filter(match__isnull=False).values_list(
                "match_id", flat=True
            ):
                _abort_match(match_id)
            rnd.delete()
            t.current_round = rnd.number - 1
        t.status = Tournament.Status.FINISHED
        t.finished_at = timezone.now()
        t.save(update_fields=["status", "finished_at", "current_round", "updated_at"])
    return t


# --- the bots' autoplay -------------------------------------------------------------------------


def match_autoplay(*, match: Match, bot: str = "greedy") -> Match:
    """Play ``match`` to its end with engine bots choosing for both people, through
    ``games.services.game_play_move`` as each user (move ids ``auto-<version>``)."""
    from games.services import game_play_move

    match.refresh_from_db()
    while match.status == Match.Status.ACTIVE:
        game = Game.objects.filter(match=match).order_by("-number").first()
        if game is None or not game.is_active:  # pragma: no cover - a match always has a game
            break
        state = engine.Game.from_dict(game.state)
        bots = [engine.bot(bot, seed=game.bot_seed + seat) for seat in (0, 1)]
        users = [match.user_at(0), match.user_at(1)]
        version = game.version
        while not state.is_over:
            seat = state.to_move
            move = bots[seat].choose(state, seat)
            result = game_play_move(
                game_id=game.pk,
                move=move.text,
                version=version,
                move_id=f"auto-{version}",
                user=users[seat],
            )
            state.play(move)
            version = result.version
        match.refresh_from_db()
    return match


def tournament_autoplay(
    *,
    tournament: Tournament,
    bot: str = "greedy",
    rounds: int | None = None,
    forfeit_after: timedelta | None = None,
    say: Callable[[str], None] = lambda line: None,
) -> Tournament:
    """Let bots play every pending match of the running tournament, round after round (each
    round closes, and the next is paired, as its last match ends), until it finishes or
    ``rounds`` rounds have closed. ``forfeit_after``: first forfeit the no-shows of matches
    older than that. ``say`` prints progress."""
    closed = 0
    while True:
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            break
        if forfeit_after is not None:
            n = tournament_forfeit_no_shows(tournament=tournament, after=forfeit_after)
            if n:
                say(f"forfeited {n} no-show pairing(s)")
        rnd = tournament.round_set.filter(status=Round.Status.OPEN).first()
        if rnd is None:  # pragma: no cover - a running tournament has an open round
            break
        pending = list(
            rnd.pairings.filter(source="", match__status=Match.Status.ACTIVE).select_related(
                "first", "second", "match"
            )
        )
        if not pending:
            say(f"round {rnd.number}: results missing that no bot can play; stopping")
            break
        say(f"round {rnd.number}: {len(pending)} match(es) to play")
        for p in pending:
            match = match_autoplay(match=p.match, bot=bot)
            p.refresh_from_db()
            winner = p.winner.public_name if p.winner_id else "nobody"
            say(
                f"  {p.first.public_name} v {p.second.public_name if p.second else 'bye'}: "
                f"{match.score0}-{match.score1}, {winner} wins"
            )
        rnd.refresh_from_db()
        if rnd.status == Round.Status.CLOSED:
            closed += 1
            say(f"round {rnd.number} closed")
        if rounds is not None and closed >= rounds:
            break
    tournament.refresh_from_db()
    if tournament.status == Tournament.Status.FINISHED:
        say(f"{tournament.name} is finished")
    return tournament
