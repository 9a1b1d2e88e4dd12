"""Army's flow for the match kernel: the arrangement of each seat's three armies (a draft built in the panel, then
confirmed) and one secret fighting card per seat and round (picked at once). No Discord, no database.

Steps. ``matches.step`` holds the step being played: 1 is the arrangement, step ``n + 1`` is round ``n``
(:func:`step_of`). Each step has one deadline (kind ``turn``): the match's timer (the challenge's ``timer`` option,
else the server's ``arrange_seconds``) after the step began.

Events (queued per match, each tagged with ``engagement`` = the step it belongs to): the engine's (see
:mod:`bot.games.army.engine`) and the kernel's own, besides ``challenge``, ``accepted``, ``declined``,
``withdrawn``, ``expired`` and ``result``:

* ``turn``: a step begins: ``phase`` (``arrange`` or ``play``), ``round`` (the round to fight; 0 while arranging),
  ``deadline_at``, ``seconds`` and the spectator's facts at that moment: ``players`` (per seat ``front``,
  ``armies_left``, ``hand_size``), ``fighting_pile``, ``fighting_graveyard``, ``army_graveyard``;
* ``turn_timeout``: ``phase``, ``seats`` (who missed the deadline), ``user_ids``, ``misses`` (per seat, in a row,
  after this one), ``defaults`` (seats given the default: the armies as dealt, or their lowest card), ``forfeit``
  (seats forfeited by this second miss in a row; both at once: a draw, reason ``double_timeout``);
* ``deadline_moved``: ``deadline_at``, ``reason`` ``bot_away`` (the kernel's ``resume_deadlines``).

Hidden information: an event holds only public facts (the engine's events are spectator-safe; ``turn`` is built
from the spectator's view). A seat's hand, army order and chosen card are only in :class:`ArmyPanel` (its own).

Action log kinds: ``arrange`` and ``play`` (the player's), ``arrange_default`` and ``play_default`` (the deadline's
default), ``forfeit``, ``timeout`` (forfeited by a second miss).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.cards import label_of_text
from bot.game import Action, Event, Game
from bot.games.army.engine import fighting_value
from bot.i18n import N_, Phrase
from bot.match import errors
from bot.match.flow import Flow, SeatPanel
from bot.storage.records import ActionRecord, MatchRecord

GAME = "army"
TITLE = N_("Army")
TURN = "turn"  # the deadline kind of every Army step
ARRANGE_STEP = 1
#: the action log kinds of a seat's choice: the player's and the deadline's defaults
_CHOICES = ("arrange", "play", "arrange_default", "play_default")


def step_of(game: Game) -> int:
    """The step a game of Army is at: 1 while the armies are set, ``n + 1`` while round ``n`` is fought."""
    if game.phase == "arrange":  # type: ignore[attr-defined]
        return ARRANGE_STEP
    return game.stats.rounds + 2


def round_of(step: int) -> int:
    """The round a step fights (0: the arrangement)."""
    return max(0, step - 1)


def lowest_card(hand: list[str]) -> str:
    """The default card of a seat that missed the deadline: its lowest number, the first such in the hand."""
    return min(hand, key=fighting_value)


# --- refusals with Army's words ------------------------------------------------------------------------------


class ArmyRefusal(errors.ServiceError):
    """A refusal in Army's words: ``str()`` in English, ``said`` in the player's language (the message marked with
    ``N_`` and its params)."""


class StaleStep(ArmyRefusal):
    """A button of a step that is over (an old panel)."""

    def __init__(self, step: int, current: int) -> None:
        if current == ARRANGE_STEP:
            super().__init__(N_("This panel is for round {round}, which is not being fought; use the panel for the "
                                "army order."), round=round_of(step))
        elif step == ARRANGE_STEP:
            super().__init__(N_("This panel is for the army order, which is over; use the panel for round "
                                "{current}."), current=round_of(current))
        else:
            super().__init__(N_("This panel is for round {round}, which is over; use the panel for round "
                                "{current}."), round=round_of(step), current=round_of(current))
        self.step = step
        self.current = current


class AlreadyChosen(ArmyRefusal):
    def __init__(self, step: int) -> None:
        if step == ARRANGE_STEP:
            super().__init__(N_("Already done: your army order is locked in."))
        else:
            super().__init__(N_("Already done: your card for round {round} is locked in."), round=round_of(step))
        self.step = step


class ArmyDraftError(ArmyRefusal):
    """A tap on an army that is not yours or is placed already, a confirm before all three are placed."""


class WrongPhase(ArmyRefusal):
    """A button of the other phase (an army tap while cards are played, a card while armies are set)."""


def step_name(step: int) -> str:
    """The step in English words (logs)."""
    return "the army order" if step == ARRANGE_STEP else f"round {round_of(step)}"


# --- what a seat sees --------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ArmyPanel(SeatPanel):
    """A seat's DM panel for one step (besides a :class:`~bot.match.flow.SeatPanel`'s fields).

    ``phase``: ``arrange`` or ``play`` (``over`` once the game ended); ``dealt``: the seat's armies as dealt
    (arrangement) or in fighting order (play); ``draft``: the armies placed so far (the confirmed order once
    ``locked``); ``hand``: the fighting cards in hand; ``chosen``: the card locked in for this round; ``ended`` (a
    step that is over, see :meth:`ArmyFlow.ended_panel`): ``played`` (both choices were in), ``default`` (the seat
    missed the deadline: the default was played, ``chosen``/``draft``), ``timeout`` (a second miss: forfeited),
    ``over`` (the game ended before the step was played)."""

    step: int
    phase: str
    dealt: tuple[str, ...]
    draft: tuple[str, ...]
    hand: tuple[str, ...]
    chosen: str | None

    @property
    def round(self) -> int:
        return round_of(self.step)

    @property
    def remaining(self) -> tuple[str, ...]:
        return tuple(army for army in self.dealt if army not in self.draft)


class ArmyFlow(Flow):
    """Army's steps for the match kernel: the arrangement (a drafted order of the three armies), then one card per
    seat and round, picked at once. A missed deadline plays the armies as dealt, or the lowest card."""

    game = GAME
    deadline_kind = TURN
    timeout_event_type = "turn_timeout"
    choice_kinds = _CHOICES
    timer_name = N_("arrangement timer")

    def step(self, game: Game) -> int:
        return step_of(game)

    def waiting_for(self, game: Game) -> list[int]:
        players = game.view(None)["players"]
        return [seat for seat in range(len(players)) if not players[seat]["chosen"]]

    # --- panels ----------------------------------------------------------------------------------------------
    def panel(self, match: MatchRecord, game: Game | None, seat: int) -> ArmyPanel:
        if game is None:
            raise errors.MatchNotActive(match.status)
        view = game.view(seat)
        you = view["you"]
        phase = view["phase"]
        armies = tuple(entry["army"] for entry in you["armies"])
        if phase == "arrange":
            locked = bool(you["arranged"])
            draft = armies if locked else tuple(match.seats[seat].draft)
        else:
            locked = you["chosen"] is not None
            draft = armies
        other = view["players"][1 - seat]
        return ArmyPanel(
            match_id=match.id, seat=seat, user_id=match.seats[seat].user_id, step=match.step, phase=phase,
            dealt=armies, draft=draft, hand=tuple(you["hand"]), chosen=you["chosen"], locked=locked,
            opponent_locked=bool(other["chosen"]) if phase != "over" else False,
            deadline_at=match.deadline_at if match.deadline_kind == TURN else None,
            finished=match.status in ("finished", "cancelled"), view=view,
        )

    def ended_panel(self, match: MatchRecord, seat: int, user_id: int, step: int,
                    log: Sequence[ActionRecord]) -> ArmyPanel:
        mine = [a for a in log if a.step == step and a.seat == seat]
        others = [a for a in log if a.step == step and a.seat != seat and a.kind in self.choice_kinds]
        action = next((a for a in mine if a.kind in self.choice_kinds), None)
        timed_out = any(a.kind == "timeout" for a in mine)
        phase = "arrange" if step == ARRANGE_STEP else "play"
        draft: tuple[str, ...] = ()
        chosen = None
        if action is not None and phase == "arrange":
            draft = tuple(action.action["armies"])
        elif action is not None:
            chosen = action.action["card"]
        if timed_out:
            ended = "timeout"
        elif action is not None and action.kind.endswith("_default"):
            ended = "default"
        elif action is not None and others:
            ended = "played"
        else:
            ended = "over"
        return ArmyPanel(
            match_id=match.id, seat=seat, user_id=user_id, step=step, phase=phase, dealt=draft, draft=draft, hand=(),
            chosen=chosen, locked=action is not None, opponent_locked=bool(others), deadline_at=None,
            finished=match.status in ("finished", "cancelled"), view=None, ended=ended,
        )

    def draft_items(self, panel: ArmyPanel) -> tuple[list[str], list[str]]:
        self.check_phase(panel, picking=False)
        return list(panel.dealt), list(panel.draft)

    def check_phase(self, panel: ArmyPanel, *, picking: bool) -> None:
        if picking and panel.phase != "play":
            raise WrongPhase(N_("Set the order of your armies first; the fighting starts when both have."))
        if not picking and panel.phase != "arrange":
            raise WrongPhase(N_("The armies are set; now pick a fighting card."))

    # --- choices -------------------------------------------------------------------------------------------
    def lock_draft(self, panel: ArmyPanel) -> tuple[Action, str]:
        if len(panel.draft) != len(panel.dealt):
            raise ArmyDraftError(N_("Place all 3 armies before you confirm ({placed} placed so far)."),
                                 placed=len(panel.draft))
        return {"type": "arrange", "armies": list(panel.draft)}, "arrange"

    def pick(self, panel: ArmyPanel, item: str) -> tuple[Action, str]:
        if item not in panel.hand:
            raise ArmyDraftError(N_("{card} is not in your hand."), card=label_of_text(item))
        return {"type": "play", "card": item}, "play"

    def default(self, game: Game, seat: int) -> tuple[Action, str]:
        mine = game.view(seat)["you"]
        if game.view(None)["phase"] == "arrange":
            return {"type": "arrange", "armies": [a["army"] for a in mine["armies"]]}, "arrange_default"
        return {"type": "play", "card": lowest_card(mine["hand"])}, "play_default"

    # --- events ----------------------------------------------------------------------------------------------
    def tag(self, game: Game, events: Sequence[Event], previous_step: int) -> list[Event]:
        return [{**event, "engagement": previous_step} for event in events]

    def step_started(self, game: Game, queued: list[Event], deadline_at: float, seconds: int) -> None:
        public = game.view(None)
        step = step_of(game)
        queued.append({
            "type": "turn", "engagement": step, "phase": public["phase"], "round": round_of(step),
            "deadline_at": deadline_at, "seconds": seconds,
            "players": [{key: player[key] for key in ("seat", "front", "armies_left", "hand_size")}
                        for player in public["players"]],
            "fighting_pile": public["fighting_pile"], "fighting_graveyard": public["fighting_graveyard"],
            "army_graveyard": public["army_graveyard"],
        })

    def timeout_event(self, game: Game, event: dict[str, Any], defaults: list[int]) -> Event:
        return {**event, "phase": game.view(None)["phase"], "defaults": defaults}

    # --- the match file ----------------------------------------------------------------------------------
    def export_move(self, choices: Sequence[Action]) -> dict[str, Any]:
        if choices[0]["type"] == "arrange":
            return {"armies": [list(choice["armies"]) for choice in choices]}
        return {"plays": [choice["card"] for choice in choices]}

    # --- refusals ------------------------------------------------------------------------------------------
    def stale(self, step: int, current: int) -> Exception:
        return StaleStep(step, current)

    def already_chosen(self, step: int) -> Exception:
        return AlreadyChosen(step)

    def draft_error(self, message: str | Phrase) -> Exception:
        return ArmyDraftError(message)

    def item_label(self, item: str) -> str:
        return label_of_text(item)

    def not_yours(self, item: str) -> Phrase:
        return Phrase(N_("{army} is not one of your armies."), army=item)
