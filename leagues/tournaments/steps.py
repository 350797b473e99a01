"""The organiser's steps on a tournament's admin page (docs/tournaments.md, "Admin"): which
step may be taken now and why one may not (``tournament_step``: the one rule both the page's
buttons and the step views read, built on the services' own refusals), what each step will do
in words (its confirmation page), and the state of each pairing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from core.i18n import duration_text
from games.models import Match
from leagues.models import Entry, Round, Tournament, TournamentMatch
from leagues.tournaments import services as ts
from leagues.tournaments.selectors import pairing_result_text

OPEN = "open"
START = "start"
CLOSE = "close"
FORFEIT = "forfeit"
FINISH = "finish"
RESULT = "result"
#: The steps of the tournament as a whole, in the order the page shows them.
TOURNAMENT_STEPS = (OPEN, START, FORFEIT, CLOSE, FINISH)
#: The status in which each step belongs: a step refused then is explained on the page.
PHASE = {
    OPEN: Tournament.Status.DRAFT,
    START: Tournament.Status.REGISTRATION,
    CLOSE: Tournament.Status.RUNNING,
    FORFEIT: Tournament.Status.RUNNING,
    FINISH: Tournament.Status.RUNNING,
}

#: The results an organiser may set, by the value the form posts: (winner, forfeit).
RESULT_CHOICES = ("first", "second", "first_forfeit", "second_forfeit", "double_forfeit", "draw")


@dataclass(frozen=True)
class PairingState:
    """A pairing as the organiser reads it. ``state``: bye, waiting (not started), playing
    (in play), late (a no-show), played (finished over the board), forfeit, set (by an
    organiser) or stuck (its match ended without giving a result)."""

    pairing: TournamentMatch
    state: str
    text: str
    result: str  # "1-0", "0-1", "½-½", "0-0", "bye", "" (none yet)
    settable: bool  # the "set the result" step is allowed for it now


@dataclass(frozen=True)
class Step:
    """A step and whether it may be taken now: ``reason`` says why not, ``says`` what it
    will do (sentences for its confirmation page)."""

    name: str
    label: str
    allowed: bool
    reason: str = ""
    says: list[str] = field(default_factory=list)
    pairing: TournamentMatch | None = None
    choices: list[tuple[str, str]] = field(default_factory=list)


# --- pairings -----------------------------------------------------------------------------------


def _score(match: Match | None) -> str:
    return f"{match.score0}–{match.score1}" if match is not None else ""  # noqa: RUF001


def _outcome(p: TournamentMatch) -> str:
    """A recorded result in words: who won, and how."""
    if p.winner_id is None:
        return _("a double forfeit") if p.forfeit else _("a draw")
    if p.forfeit:
        return _("%(player)s wins by forfeit") % {"player": p.winner.public_name}
    return _("%(player)s wins") % {"player": p.winner.public_name}


def _absent_text(p: TournamentMatch, absent: set[int]) -> str:
    if len(absent) == 2:
        return _("neither has moved")
    player = p.first if p.first_id in absent else p.second
    return _("%(player)s has not moved") % {"player": player.public_name}


def _pairing_state(p: TournamentMatch, moved: set[int], *, now: Any, wait: Any) -> tuple[str, str]:
    if p.second_id is None:
        return "bye", pgettext("pairing without an opponent", "bye")
    if p.source == TournamentMatch.Source.PLAYED:
        return "played", _("finished, %(score)s: %(outcome)s") % {
            "score": _score(p.match),
            "outcome": _outcome(p),
        }
    if p.source in (TournamentMatch.Source.FORFEIT, TournamentMatch.Source.BYE):
        return "forfeit", _("no-show or withdrawal: %(outcome)s") % {"outcome": _outcome(p)}
    if p.source == TournamentMatch.Source.ADMIN:
        by = p.result_set_by.public_name if p.result_set_by_id else _("an admin")
        return "set", _("set by %(name)s: %(outcome)s") % {"name": by, "outcome": _outcome(p)}
    absent = ts.absent_players(p, moved)
    if p.match_id is None or p.match.status != Match.Status.ACTIVE:
        return "stuck", _("no result: the match ended without one")
    if ts.is_late(p, moved, now=now, wait=wait):
        return "late", _("late: %(who)s") % {"who": _absent_text(p, absent)}
    if not moved:
        return "waiting", _("not started")
    return "playing", _("in play, %(score)s") % {"score": _score(p.match)}


def round_pairings(rnd: Round, *, now: Any = None) -> list[PairingState]:
    """The round's pairings in board order, each with its state in words."""
    now = now or timezone.now()
    t = rnd.tournament
    wait = ts.no_show_wait(t)
    pairings = list(
        rnd.pairings.select_related("first", "second", "winner", "match", "result_set_by")
    )
    moved = ts.moved_seats([p.match_id for p in pairings if p.match_id and not p.has_result])
    states = []
    for p in pairings:
        p.round = rnd  # the refusal reads the round and its tournament
        state, text = _pairing_state(p, moved.get(p.match_id or 0, set()), now=now, wait=wait)
        settable = ts.pairing_result_refusal(p) is None
        states.append(PairingState(p, state, text, pairing_result_text(p), settable))
    return states


# --- what each step will do ---------------------------------------------------------------------


def _forfeit_line(p: TournamentMatch, absent: set[int]) -> str:
    if len(absent) == 2:
        return _("%(pairing)s: neither has moved: a double forfeit, no point for either.") % {
            "pairing": ts.pair_name(p)
        }
    present, missing = (p.second, p.first) if p.first_id in absent else (p.first, p.second)
    return _("%(pairing)s: %(absent)s has not moved: %(present)s wins by forfeit.") % {
        "pairing": ts.pair_name(p),
        "absent": missing.public_name,
        "present": present.public_name,
    }


def _after_round(t: Tournament, rnd: Round) -> str:
    if rnd.number >= ts.planned_rounds(t):
        return _("Round %(round)s is the last: the tournament then finishes.") % {
            "round": rnd.number
        }
    return _("Then round %(next)s is paired and its matches begin.") % {"next": rnd.number + 1}


def _open_says(t: Tournament) -> list[str]:
    return [
        _(
            "Registration for %(tournament)s opens: the members of %(league)s can register "
            "on its page, and you can add entrants here, until you start it."
        )
        % {"tournament": t.name, "league": t.league.name}
    ]


def _start_says(t: Tournament) -> list[str]:
    count = t.entries.filter(status=Entry.Status.REGISTERED).count()
    rounds = ts.planned_rounds(t, count)
    says = [
        _(
            "Registration closes and %(tournament)s starts with its entrants (%(count)s): "
            "they are seeded by their league rating now, round 1 is paired and its matches "
            "begin at once."
        )
        % {"tournament": t.name, "count": count},
        _("Rounds planned: %(rounds)s.") % {"rounds": rounds},
    ]
    if t.format == Tournament.Format.SWISS and rounds >= count:
        says.append(
            _(
                "Warning: %(rounds)s rounds for %(count)s players is more than a Swiss can pair "
                "without rematches: some players will meet twice. Fewer rounds avoid it."
            )
            % {"rounds": rounds, "count": count}
        )
    return says


def _close_says(t: Tournament, rnd: Round) -> list[str]:
    pending, moved = ts.pending_pairings(rnd)
    if not pending:
        says = [_("Close round %(round)s: every result is in.") % {"round": rnd.number}]
    else:
        says = [
            _(
                "Close round %(round)s now: its pairings without a result are scored as "
                "forfeits, and their matches are called off:"
            )
            % {"round": rnd.number}
        ]
        says += [
            _forfeit_line(p, ts.absent_players(p, moved.get(p.match_id or 0, set())))
            for p in pending
        ]
    return [*says, _after_round(t, rnd)]


def _forfeit_says(t: Tournament, rnd: Round, now: Any) -> list[str]:
    wait = ts.no_show_wait(t)
    pending, moved = ts.pending_pairings(rnd)
    late = [
        p for p in pending if ts.is_late(p, moved.get(p.match_id or 0, set()), now=now, wait=wait)
    ]
    says = [
        _(
            "Forfeit the no-shows of round %(round)s: a player is late when %(wait)s have "
            "passed since the pairing without a move of theirs. Their matches are called off:"
        )
        % {"round": rnd.number, "wait": duration_text(wait.total_seconds())}
    ]
    says += [_forfeit_line(p, ts.absent_players(p, moved[p.match_id])) for p in late]
    says.append(
        _("If no other result is missing, round %(round)s then closes.") % {"round": rnd.number}
    )
    return says


def _finish_says(t: Tournament) -> list[str]:
    says = [_("Finish %(tournament)s now.") % {"tournament": t.name}]
    rnd = t.round_set.filter(status=Round.Status.OPEN).first()
    if rnd is not None:
        says.append(
            _(
                "Round %(round)s, paired but not begun, is called off: its matches are "
                "aborted and its pairings removed."
            )
            % {"round": rnd.number}
        )
    says.append(
        _(
            "The standings of the rounds played are final, and the tournament's page shows "
            "its winner."
        )
    )
    return says


def _result_says(p: TournamentMatch) -> list[str]:
    says = [
        _("Set the result of %(pairing)s (round %(round)s, board %(board)s).")
        % {"pairing": ts.pair_name(p), "round": p.round.number, "board": p.board}
    ]
    if p.has_result:
        says.append(
            _("It replaces the result recorded now: %(outcome)s.") % {"outcome": _outcome(p)}
        )
    elif p.match_id is not None and p.match.status == Match.Status.ACTIVE:
        moved = ts.moved_seats([p.match_id])[p.match_id]
        absent = ts.absent_players(p, moved)
        if len(absent) == 2:
            says.append(_("Their match has not begun (neither has moved): it is called off."))
        elif absent:
            who = p.first if p.first_id in absent else p.second
            says.append(
                _("Their match has not begun (%(player)s has not moved): it is called off.")
                % {"player": who.public_name}
            )
        else:
            says.append(
                _(
                    "Their match is in play (%(score)s): it plays on, but the result you set "
                    "here stands."
                )
                % {"score": _score(p.match)}
            )
    if p.round.number >= ts.planned_rounds(p.round.tournament):
        says.append(_("If it is the round's last result, the round closes: the tournament ends."))
    else:
        says.append(_("If it is the round's last result, the round closes and the next is paired."))
    return says


def result_choices(p: TournamentMatch) -> list[tuple[str, str]]:
    """The results an organiser may choose for ``p``, as (value, words): a draw only where
    the format scores one (not in an elimination)."""
    first, second = p.first.public_name, p.second.public_name
    choices = [
        ("first", _("%(player)s wins") % {"player": first}),
        ("second", _("%(player)s wins") % {"player": second}),
        ("first_forfeit", _("%(player)s wins by forfeit") % {"player": first}),
        ("second_forfeit", _("%(player)s wins by forfeit") % {"player": second}),
        ("double_forfeit", _("A double forfeit: no point for either")),
    ]
    if p.round.tournament.format != Tournament.Format.ELIMINATION:
        choices.append(("draw", _("A draw: half a point each")))
    return choices


def result_of_choice(p: TournamentMatch, choice: str) -> tuple[int | None, bool]:
    """(winner id, forfeit) for a value of ``result_choices``."""
    return {
        "first": (p.first_id, False),
        "second": (p.second_id, False),
        "first_forfeit": (p.first_id, True),
        "second_forfeit": (p.second_id, True),
        "double_forfeit": (None, True),
        "draw": (None, False),
    }[choice]


# --- the one rule ----------------------------------------------------------------------------


def _open_round(t: Tournament) -> Round | None:
    return t.round_set.filter(status=Round.Status.OPEN).first()


def step_label(name: str, t: Tournament) -> str:
    rnd = _open_round(t) if name == CLOSE else None
    if rnd is not None:
        return _("Close round %(round)s") % {"round": rnd.number}
    return {
        OPEN: _("Open registration"),
        START: _("Start the tournament"),
        CLOSE: _("Close the round"),
        FORFEIT: _("Forfeit the no-shows"),
        FINISH: _("Finish the tournament"),
        RESULT: _("Set the result"),
    }[name]


def tournament_step(
    tournament: Tournament, name: str, *, pairing: TournamentMatch | None = None, now: Any = None
) -> Step:
    """Whether the step ``name`` (``TOURNAMENT_STEPS``, or ``RESULT`` for ``pairing``) may be
    taken on ``tournament`` now; if not, why; if so, what it will do. The page shows a button
    for each allowed step, and a step's view refuses, with the reason, a step not allowed
    (a stale button). Who may take steps at all is ``leagues.permissions``' business, checked
    by the views. ValueError for an unknown step."""
    now = now or timezone.now()
    t = tournament
    label = step_label(name, t)
    rnd = _open_round(t)
    if name == OPEN:
        refusal = ts.open_registration_refusal(t)
        says = _open_says if refusal is None else None
    elif name == START:
        refusal = ts.start_refusal(t)
        says = _start_says if refusal is None else None
    elif name == CLOSE:
        refusal = ts.round_close_refusal(t)
        says = (lambda t: _close_says(t, rnd)) if refusal is None else None
    elif name == FORFEIT:
        refusal = ts.forfeit_no_shows_refusal(t, now=now)
        says = (lambda t: _forfeit_says(t, rnd, now)) if refusal is None else None
    elif name == FINISH:
        refusal = ts.finish_refusal(t)
        says = _finish_says if refusal is None else None
    elif name == RESULT:
        if pairing is None:
            raise ValueError("the result step needs a pairing")
        refusal = ts.pairing_result_refusal(pairing)
        if refusal is None:
            return Step(
                name,
                label,
                True,
                says=_result_says(pairing),
                pairing=pairing,
                choices=result_choices(pairing),
            )
        return Step(name, label, False, reason=str(refusal), pairing=pairing)
    else:
        raise ValueError(f"unknown step {name!r}")
    if refusal is not None:
        return Step(name, label, False, reason=str(refusal))
    return Step(name, label, True, says=says(t))


def tournament_steps(tournament: Tournament, *, now: Any = None) -> list[Step]:
    """``tournament_step`` for each step of the tournament as a whole."""
    return [tournament_step(tournament, name, now=now) for name in TOURNAMENT_STEPS]


def tournament_panel(tournament: Tournament, *, now: Any = None) -> dict[str, Any]:
    """What the tournament's admin page shows above its form: the steps allowed now (and,
    for those of its phase, why another is not), the newest round's pairings with their
    states, the earlier rounds, and the standings."""
    from leagues.tournaments.selectors import tournament_standings

    now = now or timezone.now()
    t = tournament
    steps = tournament_steps(t, now=now)
    rounds = [
        (rnd, round_pairings(rnd, now=now))
        for rnd in t.round_set.order_by("-number").select_related("tournament__league")
    ]
    return {
        "steps": [s for s in steps if s.allowed],
        "refused": [s for s in steps if not s.allowed and PHASE[s.name] == t.status],
        "current": rounds[0] if rounds else None,
        "earlier": rounds[1:],
        "planned": ts.planned_rounds(t),
        "wait": duration_text(ts.no_show_wait(t).total_seconds()),
        "standings": tournament_standings(t) if rounds else [],
    }
