"""High Card's flow: every round is a step in which each seat picks one card at once (no draft); a missed deadline
plays the seat's lowest card."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.cards import STANDARD_RANKS, rank_of
from bot.game import Action, Event, Game
from bot.match import errors
from bot.match.flow import Flow
from bot.storage.records import ActionRecord, MatchRecord

TURN = "turn"


@dataclass(frozen=True)
class HighCardPanel:
    match_id: int
    seat: int
    step: int
    hand: tuple[str, ...]
    chosen: str | None
    locked: bool
    deadline_at: float | None
    finished: bool
    ended: str | None = None


def lowest(hand: Sequence[str]) -> str:
    return min(hand, key=lambda card: STANDARD_RANKS.index(rank_of(card)))


class HighCardFlow(Flow):
    game = "highcard"
    deadline_kind = TURN
    timeout_event_type = "turn_timeout"
    choice_kinds = ("pick", "pick_default")

    def step(self, game: Game) -> int:
        return game.stats.rounds + 1

    def waiting_for(self, game: Game) -> list[int]:
        picked = game.view(None)["picked"]
        return [seat for seat in range(2) if not picked[seat]]

    def panel(self, match: MatchRecord, game: Game | None, seat: int) -> HighCardPanel:
        if game is None:
            raise errors.MatchNotActive(match.status)
        view = game.view(seat)
        return HighCardPanel(match.id, seat, match.step, tuple(view["hand"]), view["my_pick"],
                             view["my_pick"] is not None, match.deadline_at if match.deadline_kind == TURN else None,
                             match.status in ("finished", "cancelled"))

    def ended_panel(self, match: MatchRecord, seat: int, user_id: int, step: int,
                    log: Sequence[ActionRecord]) -> HighCardPanel:
        mine = next((a for a in log if a.step == step and a.seat == seat and a.kind in self.choice_kinds), None)
        chosen = None if mine is None else mine.action["card"]
        ended = "over" if mine is None else ("default" if mine.kind == "pick_default" else "played")
        return HighCardPanel(match.id, seat, step, (), chosen, mine is not None, None,
                             match.status in ("finished", "cancelled"), ended)

    def draft_items(self, panel: HighCardPanel) -> tuple[list[str], list[str]]:
        raise self.draft_error("Pick a card: High Card has no order to build.")

    def lock_draft(self, panel: HighCardPanel) -> tuple[Action, str]:
        raise self.draft_error("Pick a card: High Card has no order to build.")

    def pick(self, panel: HighCardPanel, item: str) -> tuple[Action, str]:
        if item not in panel.hand:
            raise self.draft_error(f"{item} is not in your hand.")
        return {"type": "pick", "card": item}, "pick"

    def default(self, game: Game, seat: int) -> tuple[Action, str]:
        return {"type": "pick", "card": lowest(game.view(seat)["hand"])}, "pick_default"

    def tag(self, game: Game, events: Sequence[Event], previous_step: int) -> list[Event]:
        return [{**event, "engagement": previous_step} for event in events]

    def step_started(self, game: Game, queued: list[Event], deadline_at: float, seconds: int) -> None:
        queued.append({"type": "turn", "engagement": self.step(game), "deadline_at": deadline_at})

    def export_move(self, choices: Sequence[Action]) -> dict[str, Any]:
        return {"picks": [choice["card"] for choice in choices]}

    def stale(self, step: int, current: int) -> Exception:
        return errors.ServiceError(f"That was round {step}; round {current} is being played.")

    def already_chosen(self, step: int) -> Exception:
        return errors.ServiceError("You picked your card for this round already.")

    def draft_error(self, message: str) -> Exception:
        return errors.DraftError(message)
