"""War's flow for the match kernel: War and its variants for 2-4 players, played at a pace.

A step is a round; the stored step (``matches.step``) is the number of rounds played, so the round being
played, the one players' buttons carry, is one more (:meth:`WarFlow.due_step`).

Paces (``matches.options["pace"]``, slowest first: :data:`PACES`):

* ``flip``: every player still in presses Flip each round (the kernel's ``pick`` of :data:`FLIP`); the round
  resolves on the last flip. A turn deadline (kind ``turn``, the match's timer) runs per round: who has not flipped
  by then is flipped for; a second miss in a row forfeits (everyone still in missing twice at once: a draw).
* ``auto``: the bot plays the rounds (deadline kind ``round``, the kernel's ``auto_step``), so that a game reads in
  a sitting (a default game in about 2-3 minutes) while every war is still shown: each step plays a run of rounds
  at once, stopping after a round with a war or a player going out, else after :func:`run_rounds` rounds (one at
  the start, longer as the game goes on); the pause that shows it is :data:`PLAIN_SECONDS`, or longer after a war
  (:func:`pause_after`: the early wars longest).
* ``instant``: played out at once, when the game starts or switches to it.

Players vote for a faster pace (the kernel's ``vote``); once every player still in wants a pace at least that fast,
the game switches. :data:`NEXT_WAR` is a pace between ``flip`` and ``auto`` that never stays: once every player
still in votes for it, the rounds are played up to and including the next war (or a player going out), and the game
is back at ``flip``; the votes start again.

Events, besides the engine's (see :mod:`bot.games.war.engine`) and the kernel's (``challenge``, ``lobby``,
``joined``, ``left``, ``accepted`` with ``pace`` and ``rules``, ``vote``, ``pace``, ``deadline_moved``,
``game_over``, ``result``); every event carries the ``round`` it belongs to (as its ``engagement`` too):

* ``turn`` {round, deadline_at, seats}: round ``round`` waits for the seats' flips until ``deadline_at``;
* ``turn_timeout`` {round, seats, user_ids, misses, auto_flipped, forfeit};
* ``played_out`` {from_round, to_round}: rounds played at once (instant), their events not listed.

In flip and auto pace (and a run to the next war) each round's events are queued, in instant pace only
``played_out`` and ``game_over``.

Per-match options it keeps: ``history`` (each seat's cards at the start and after every ``every``-th round; thinned
by halves past :data:`HISTORY_POINTS`), ``final`` (the last round and the counts at the end); read them with
:func:`card_history`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.game import Action, Event, Game
from bot.i18n import N_, Phrase
from bot.match import errors
from bot.match.flow import Flow, NextDeadline
from bot.match.ratings import places_by_count
from bot.storage.records import ActionRecord, MatchRecord

#: a pace players vote for at flip pace: the rounds up to the next war are played at once, then back to flip
NEXT_WAR = "next_war"
#: how a match's cards are flipped, slowest first
PACES = ("flip", NEXT_WAR, "auto", "instant")
DEFAULT_PACE = "auto"
#: auto pace: a run of plain rounds is one round, and one more for every this many rounds played before it
RUN_GROWTH_ROUNDS = 15
#: auto pace: the pause that shows a run of plain rounds
PLAIN_SECONDS = 2.0
#: auto pace: the pause that shows the first war; the pause for a war after ``k`` wars is
#: ``WAR_SECONDS * WAR_EASING / (WAR_EASING + k)``, never under ``WAR_FLOOR_SECONDS``; each further war of a chain
#: adds ``CHAINED_WAR_SECONDS`` (two at most)
WAR_SECONDS = 5.0
WAR_EASING = 10
WAR_FLOOR_SECONDS = 1.5
CHAINED_WAR_SECONDS = 1.0
HISTORY_POINTS = 1000
#: what a Flip button picks
FLIP = "flip"
TURN = "turn"  # the deadline kind of a round's flips
ROUND = "round"  # the deadline kind of an auto-played round


class NotInWarGame(errors.NotInMatch):
    """``/war forfeit`` or ``/war status`` by a user without an open game of the War family."""

    def __init__(self) -> None:
        from bot.howto import FamilyTitles  # (the registry this module's package is part of)

        errors.ServiceError.__init__(self, N_("You're not in a game of {games}. Start one with `/war challenge` or "
                                              "`/war lobby`."), games=FamilyTitles("war"))


class WarGameNotActive(errors.MatchNotActive):
    """A play button, a vote or a forfeit on a game that is not being played (not started yet, or over)."""

    def __init__(self, status: str) -> None:
        text = (N_("This game hasn't started yet; nothing changed.") if status == "challenge"
                else N_("This game is over already; nothing changed."))
        errors.ServiceError.__init__(self, text, template=text)
        self.status = status


class RoundOver(errors.StaleRound):
    """A Flip (or a vote to go to the next war) meant for a round that is over: made on a table that still showed
    round ``meant`` while round ``current`` was being played."""

    def __init__(self, meant: int, current: int) -> None:
        template = N_("Round {meant} was over before your click arrived; nothing changed. Round {current} is on now: "
                      "press the button again to play it.")
        errors.ServiceError.__init__(self, template.format(meant=meant, current=current), template=template,
                                     meant=meant, current=current)
        self.button_round = meant
        self.current_round = current


class OutOfGame(errors.AlreadyOut):
    """A Flip by a player who is out of the game already."""

    def __init__(self) -> None:
        text = N_("You're out of this game already, so there's nothing to flip; the others play on without you.")
        errors.ServiceError.__init__(self, text, template=text)


#: a Flip at a pace where nobody flips, by the pace
NO_FLIPS = {"auto": N_("This game is played at the auto pace now: the bot flips for everyone."),
            "instant": N_("This game is played at the instant pace now: the bot flips for everyone.")}


def refusal(template: str, **params: Any) -> errors.NotYourTurn:
    """A Flip that can't count, its message marked for the catalogues."""
    return errors.NotYourTurn(template.format(**params) if params else template, template=template, **params)


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


def _shows_a_pause(events: Sequence[Event]) -> bool:
    """A round the bot stops at to show it: a war was fought, or a player went out."""
    return any(event.get("type") in ("war", "out") for event in events)


def _chain(events: Sequence[Event]) -> int:
    """The wars fought in one round's events (a chain of ties counts each)."""
    return sum(1 for event in events if event.get("type") == "war")


def run_rounds(played: int) -> int:
    """Auto pace: the most rounds a run plays when ``played`` rounds were played before it."""
    return 1 + played // RUN_GROWTH_ROUNDS


def pause_after(game: Game) -> float:
    """Auto pace: how long the table shows the last run before the next one is played: :data:`PLAIN_SECONDS`, or
    for a run that ended in a war (or a player going out) a pause that shortens as more wars have been shown."""
    view = game.view(None)
    last = view["last_events"]
    if not _shows_a_pause(last):
        return PLAIN_SECONDS
    chain = _chain(last)
    before = view["stats"]["wars"] - chain
    return (max(WAR_FLOOR_SECONDS, WAR_SECONDS * WAR_EASING / (WAR_EASING + before))
            + CHAINED_WAR_SECONDS * min(max(chain - 1, 0), 2))


def _play_on(game: Game, options: dict[str, Any], *, limit: int | None) -> list[Event]:
    """Play rounds (each recorded) until one with a war or a player going out, the game's end or ``limit`` rounds
    (``None``: no limit); their events."""
    events: list[Event] = []
    played = 0
    while not game.is_over and (limit is None or played < limit):
        round_events = game.play_round()  # type: ignore[attr-defined]
        events += round_events
        played += 1
        _record(options, game)
        if _shows_a_pause(round_events):
            break
    return events


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
    #: Flip is every seat's one action in every round, and pressing it is how War is played at the flip pace (the
    #: auto and instant paces are how players let the bot flip): a Flip is asked, never played for the seat
    only_choices_play_themselves = False

    # --- steps ---------------------------------------------------------------------------------------------
    def step(self, game: Game) -> int:
        return game.stats.rounds

    def places(self, game: Game) -> list[int] | None:
        """Three or four players: the winner, then the others by the cards they end with (the players who ran out
        share the last place)."""
        outcome = game.outcome
        return places_by_count(None if outcome is None else outcome.winner, game.view(None)["card_counts"])

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
        pace = options.get("pace", DEFAULT_PACE)
        played = game.stats.rounds - previous_step
        if pace == "auto" and played > 0 and not started and not game.is_over and not _shows_a_pause(
                game.view(None)["last_events"]):
            # the auto step played one round: the run goes on to a war, or its most rounds
            events += _play_on(game, options, limit=run_rounds(previous_step) - played)
        elif pace == NEXT_WAR:
            if not game.is_over:
                events += _play_on(game, options, limit=None)
            options["pace"] = "flip"
        if pace == "instant" and not game.is_over:
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
            return NextDeadline(ROUND, pause_after(game))
        if pace == "flip" and (new_step or match.deadline_kind != TURN):
            return NextDeadline(TURN)
        return None

    def play_auto(self, game: Game) -> list[Event]:
        return game.play_round()  # type: ignore[attr-defined,no-any-return]

    # --- choices: a Flip -----------------------------------------------------------------------------------
    def check_choosing(self, match: MatchRecord) -> None:
        pace = match.options.get("pace")
        if pace != "flip":
            raise refusal(NO_FLIPS.get(str(pace), NO_FLIPS["auto"]))

    def panel(self, match: MatchRecord, game: Game | None, seat: int) -> Turn:
        if game is None:
            return Turn(self.due_step(match.step), False, True)
        view = game.view(None)
        return Turn(self.due_step(match.step), bool(view["in_game"][seat]), seat not in view["to_flip"])

    def check_phase(self, panel: Turn, *, picking: bool) -> None:
        if not panel.in_game:
            raise OutOfGame()

    def pick(self, panel: Turn, item: str) -> tuple[Action, str]:
        if item != FLIP:
            raise refusal(N_("The only thing to do in a round of War is to flip."))
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
        return RoundOver(step, current)

    def already_chosen(self, step: int) -> Exception:
        return refusal(N_("You've flipped already in round {round}; waiting for the others."), round=step)

    def draft_error(self, message: str | Phrase) -> Exception:
        return errors.NotYourTurn(message)

    def pace_words(self, pace: str) -> str | Phrase:
        from bot.games.war.render import PACE_NAMES  # (not at the top: the render module loads the registry)

        return Phrase(PACE_NAMES[pace]) if pace in PACE_NAMES else pace

    def draft_items(self, panel: Turn) -> tuple[list[str], list[str]]:
        raise refusal(N_("A round of War is played by pressing Flip."))

    def not_active(self, status: str) -> Exception:
        return WarGameNotActive(status)

    def not_in_match(self, title: str) -> Exception:
        return NotInWarGame()
