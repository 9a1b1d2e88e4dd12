"""War's flow for the match kernel: War, Drunkard and Tod und Leben for 2-4 players, played at a pace.

A step is a round; the stored step (``matches.step``) is the number of rounds played, so the round being
played, the one players' buttons carry, is one more (:meth:`WarFlow.due_step`).

Paces (``matches.options["pace"]``, slowest first: :data:`PACES`):

* ``flip``: every player still in presses Flip each round (the kernel's ``pick`` of :data:`FLIP`); the round
  resolves on the last flip. A turn deadline (kind ``turn``, the match's timer) runs per round: who has not flipped
  by then is flipped for; a second miss in a row forfeits (everyone still in missing twice at once: a draw).
* ``auto``: the bot plays a round every :data:`AUTO_ROUND_SECONDS` (deadline kind ``round``, the kernel's
  ``auto_step``).
* ``instant``: played out at once, when the game starts or switches to it.

Players vote for a faster pace (the kernel's ``vote``); once every player still in wants a pace at least that fast,
the game switches.

Events, besides the engine's (see :mod:`bot.games.war.engine`) and the kernel's (``challenge``, ``lobby``,
``joined``, ``left``, ``accepted`` with ``pace`` and ``rules``, ``vote``, ``pace``, ``deadline_moved``,
``game_over``, ``result``); every event carries the ``round`` it belongs to (as its ``engagement`` too):

* ``turn`` {round, deadline_at, seats}: round ``round`` waits for the seats' flips until ``deadline_at``;
* ``turn_timeout`` {round, seats, user_ids, misses, auto_flipped, forfeit};
* ``played_out`` {from_round, to_round}: rounds played at once (instant), their events not listed.

In flip and auto pace each round's events are queued, in instant pace only ``played_out`` and ``game_over``.

Per-match options it keeps: ``history`` (each seat's cards at the start and after every ``every``-th round; thinned
by halves past :data:`HISTORY_POINTS`), ``final`` (the last round and the counts at the end); read them with
:func:`card_history`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.base import Action, Event, Game
from bot.match import errors
from bot.match.flow import Flow, NextDeadline
from bot.storage.records import ActionRecord, MatchRecord

#: how a match's cards are flipped, slowest first
PACES = ("flip", "auto", "instant")
DEFAULT_PACE = "auto"
AUTO_ROUND_SECONDS = 2.0
HISTORY_POINTS = 1000
#: what a Flip button picks
FLIP = "flip"
TURN = "turn"  # the deadline kind of a round's flips
ROUND = "round"  # the deadline kind of an auto-played round


class NotInWarGame(errors.NotInMatch):
    """``/war forfeit`` or ``/war status`` by a user without an open game of the War family."""

    def __init__(self) -> None:
        errors.ServiceError.__init__(self, "You're not in a game of War, Drunkard or Tod und Leben. Start one with "
                                           "`/war challenge` or `/war lobby`.")


class WarGameNotActive(errors.MatchNotActive):
    """A play button, a vote or a forfeit on a game that is not being played (not started yet, or over)."""

    def __init__(self, status: str) -> None:
        errors.ServiceError.__init__(self, "This game hasn't started yet; nothing changed." if status == "challenge"
                                     else "This game is over already; nothing changed.")
        self.status = status


@dataclass(frozen=True)
class Turn:
    """A seat's turn in the round being played: ``locked`` once it has flipped (or when it does not flip)."""

    round: int
    in_game: bool
    locked: bool


def card_history(match: MatchRecord) -> tuple[list[list[int]], int, list[int]]:
    """The card counts recorded: ``(points, every, rounds)`` -- point ``i`` is after round ``i * every`` (point 0
    the deal); at the end one more point at the final round is added. ``rounds`` gives each point's round."""
    options = match.options
    points = [list(p) for p in options.get("history", [])]
    every = int(options.get("every", 1))
    rounds = [i * every for i in range(len(points))]
    final = options.get("final")
    if final is not None and (not rounds or final[0] != rounds[-1]):
        points.append(list(final[1]))
        rounds.append(final[0])
    return points, every, rounds


def _record(options: dict[str, Any], game: Game, *, final: bool = False) -> None:
    """Each seat's cards after a round (every ``every``-th) or at the end, thinned by halves when too many."""
    history: list[list[int]] = options.setdefault("history", [])
    every = options.setdefault("every", 1)
    counts = list(game.view(None)["card_counts"])
    rounds = game.stats.rounds
    if final:
        options["final"] = [rounds, counts]
        return
    if rounds % every:
        return
    history.append(counts)
    if len(history) > HISTORY_POINTS:
        options["history"] = history[::2]
        options["every"] = every * 2


def _play_out(game: Game, options: dict[str, Any]) -> None:
    """Play to the end without events (instant), recording the counts every ``every``-th round."""
    while not game.is_over:
        every = options.get("every", 1)
        game.play_out(every - game.stats.rounds % every, record=False)
        if game.is_over:
            break
        _record(options, game)


class WarFlow(Flow):
    """See the module docstring."""

    game = "war"
    deadline_kind = TURN
    timeout_event_type = "turn_timeout"
    auto_deadline_kind = ROUND
    auto_kind = "round"

    # --- steps ---------------------------------------------------------------------------------------------
    def step(self, game: Game) -> int:
        return game.stats.rounds

    def due_step(self, stored: int) -> int:
        return stored + 1

    def step_keys(self, step: int) -> dict[str, Any]:
        return {"round": step}

    def waiting_for(self, game: Game) -> list[int]:
        return list(game.view(None)["to_flip"])

    def still_in(self, game: Game) -> list[int]:
        in_game = game.view(None)["in_game"]
        return [seat for seat in range(len(in_game)) if in_game[seat]]

    def settle(self, game: Game, options: dict[str, Any], previous_step: int, *, started: bool) -> list[Event]:
        if started:
            options["history"] = [game.view(None)["card_counts"]]
            options["every"] = 1
        elif game.stats.rounds > previous_step:
            _record(options, game)
        events: list[Event] = []
        if options.get("pace", DEFAULT_PACE) == "instant" and not game.is_over:
            first = game.stats.rounds + 1
            _play_out(game, options)
            events.append({"type": "played_out", "from_round": first, "to_round": game.stats.rounds})
            if game.outcome is not None:
                events.append({"type": "game_over", "round": game.stats.rounds, **game.outcome.to_json()})
        if game.is_over:
            _record(options, game, final=True)
        return events

    def schedule(self, match: MatchRecord, game: Game, options: Mapping[str, Any], *,
                 new_step: bool) -> NextDeadline | None:
        pace = options.get("pace", DEFAULT_PACE)
        if pace == "auto" and (new_step or match.deadline_kind != ROUND):
            return NextDeadline(ROUND, AUTO_ROUND_SECONDS)
        if pace == "flip" and (new_step or match.deadline_kind != TURN):
            return NextDeadline(TURN)
        return None

    def play_auto(self, game: Game) -> list[Event]:
        return game.play_round()  # type: ignore[attr-defined,no-any-return]

    # --- choices: a Flip -----------------------------------------------------------------------------------
    def check_choosing(self, match: MatchRecord) -> None:
        pace = match.options.get("pace")
        if pace != "flip":
            raise errors.NotYourTurn(f"This game is played at the {pace} pace now: the bot flips for everyone.")

    def panel(self, match: MatchRecord, game: Game | None, seat: int) -> Turn:
        if game is None:
            return Turn(self.due_step(match.step), False, True)
        view = game.view(None)
        return Turn(self.due_step(match.step), bool(view["in_game"][seat]), seat not in view["to_flip"])

    def check_phase(self, panel: Turn, *, picking: bool) -> None:
        if not panel.in_game:
            raise errors.AlreadyOut("there's nothing to flip")

    def pick(self, panel: Turn, item: str) -> tuple[Action, str]:
        if item != FLIP:
            raise errors.NotYourTurn("The only thing to do in a round of War is to flip.")
        return {"type": "flip"}, "flip"

    def default(self, game: Game, seat: int) -> tuple[Action, str]:
        return {"type": "flip"}, "auto_flip"

    # --- events ----------------------------------------------------------------------------------------------
    def tag(self, game: Game, events: Sequence[Event], previous_step: int) -> list[Event]:
        queued = []
        for event in events:
            round_number = event.get("round", game.stats.rounds)
            queued.append({**event, "round": round_number, "engagement": round_number})
        return queued

    def step_started(self, game: Game, queued: list[Event], deadline_at: float, seconds: int) -> None:
        round_number = game.stats.rounds + 1
        queued.append({"type": "turn", "round": round_number, "engagement": round_number, "deadline_at": deadline_at,
                       "seats": game.view(None)["to_flip"]})

    def accepted_event(self, match: MatchRecord, event: dict[str, Any]) -> Event:
        return {**event, "pace": match.options.get("pace", DEFAULT_PACE), "rules": dict(match.rules)}

    def timeout_event(self, game: Game, event: dict[str, Any], defaults: list[int]) -> Event:
        return {**event, "auto_flipped": defaults}

    def double_timeout(self, game: Game, reason: str) -> list[Event]:
        return game.draw(reason, "every player still in missed two rounds in a row: a draw")

    # --- the match file: rounds need no moves, only how the match ended -------------------------------------
    def ending_move(self, move: dict[str, Any], step: int) -> dict[str, Any]:
        return {**move, "round": step}

    def ended_panel(self, match: MatchRecord, seat: int, user_id: int, step: int,
                    log: Sequence[ActionRecord]) -> Turn:
        return Turn(step, False, True)

    # --- refusals ------------------------------------------------------------------------------------------
    def stale(self, step: int, current: int) -> Exception:
        return errors.StaleRound(step, current)

    def already_chosen(self, step: int) -> Exception:
        return errors.NotYourTurn(f"You've flipped already in round {step}; waiting for the others.")

    def draft_error(self, message: str) -> Exception:
        return errors.NotYourTurn(message)

    def draft_items(self, panel: Turn) -> tuple[list[str], list[str]]:
        raise errors.NotYourTurn("A round of War is played by pressing Flip.")

    def not_active(self, status: str) -> Exception:
        return WarGameNotActive(status)

    def not_in_match(self, title: str) -> Exception:
        return NotInWarGame()
