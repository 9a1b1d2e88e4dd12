"""Speed War's flow for the match kernel: one step per round. Both cards are up at once; a press is applied at
once (never shown until the round is settled); the round is settled when both have pressed, or by an auto-played
step once the first press's window has passed (a press a little later but faster by Discord's clock still
counts: the window is for the bot's lag, not the players'). A round nobody presses by its deadline is a missed
round for both (the kernel's default: no press; two in a row forfeit).

Action log kinds: ``press`` (a player's), ``absent`` (the deadline's default), ``settle`` (the window's auto step),
``forfeit``, ``timeout``. The match file holds each press as a move of its own and each window's settling.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.game import Action, Event, Game
from bot.i18n import N_
from bot.match import errors
from bot.match.flow import Flow, NextDeadline, SeatPanel
from bot.storage.records import ActionRecord, MatchRecord

GAME = "speedwar"
ROUND = "round"  # the deadline kind of a round waiting for presses
WINDOW = "window"  # the deadline kind of a round with a press, settled when it passes
#: seconds a round waits for a first press (then it is settled as missed by both)
ROUND_SECONDS = 20.0
#: seconds after the first press before the round is settled without the other's press
WINDOW_SECONDS = 0.6


STALE = N_("Round {step} is over (round {current} is on): press the buttons of the newest round.")
ALREADY = N_("You pressed already in round {step}: one press a round.")
BUTTONS_ONLY = N_("Speed War is played with the round's buttons.")


class StaleRound(errors.ServiceError):
    def __init__(self, step: int, current: int) -> None:
        super().__init__(STALE.format(step=step, current=current), template=STALE, step=step, current=current)


class AlreadyPressed(errors.ServiceError):
    def __init__(self, step: int) -> None:
        super().__init__(ALREADY.format(step=step), template=ALREADY, step=step)


class PressError(errors.ServiceError):
    pass


def buttons_only() -> PressError:
    return PressError(BUTTONS_ONLY, template=BUTTONS_ONLY)


class SpeedWarFlow(Flow):
    game = GAME
    deadline_kind = ROUND
    timeout_event_type = "round_timeout"
    choice_kinds = ("press", "absent", "settle")
    auto_deadline_kind = WINDOW
    auto_kind = "settle"

    def step(self, game: Game) -> int:
        return game.round  # type: ignore[attr-defined]

    def waiting_for(self, game: Game) -> list[int]:
        return game.pending_seats()

    def schedule(self, match: MatchRecord, game: Game, options: Mapping[str, Any], *,
                 new_step: bool) -> NextDeadline | None:
        if new_step:
            return NextDeadline(ROUND, ROUND_SECONDS)
        if len(game.pending_seats()) == 1:  # the first press: the other has the window to be faster
            return NextDeadline(WINDOW, WINDOW_SECONDS)
        return None

    def play_auto(self, game: Game) -> list[Event]:
        return game.settle_round()  # type: ignore[attr-defined]

    def panel(self, match: MatchRecord, game: Game | None, seat: int) -> SeatPanel:
        pending = [] if game is None else game.pending_seats()
        return SeatPanel(match_id=match.id, seat=seat, user_id=match.seats[seat].user_id,
                         locked=game is not None and seat not in pending,
                         opponent_locked=game is not None and (1 - seat) not in pending,
                         deadline_at=match.deadline_at, finished=match.status == "finished",
                         view=None if game is None else game.view(seat))

    def ended_panel(self, match: MatchRecord, seat: int, user_id: int, step: int,
                    log: list[ActionRecord]) -> SeatPanel:
        return SeatPanel(match_id=match.id, seat=seat, user_id=user_id, locked=True, opponent_locked=True,
                         deadline_at=None, finished=match.status == "finished", ended="over")

    def draft_items(self, panel: Any) -> tuple[list[str], list[str]]:
        raise buttons_only()

    def lock_draft(self, panel: Any) -> tuple[Action, str]:
        raise buttons_only()

    def default(self, game: Game, seat: int) -> tuple[Action, str]:
        return {"type": "press", "choice": None, "ms": None}, "absent"

    def kind_of(self, action: Action) -> str:
        return "press"

    def export_choice(self, seat: int, action: Action) -> dict[str, Any] | None:
        if action.get("type") == "settle":
            return {"settle": True}
        return {"seat": seat, "press": dict(action)}

    def export_move(self, choices: Any) -> dict[str, Any]:  # every choice is a move of its own
        raise NotImplementedError

    def double_timeout(self, game: Game, reason: str) -> list[Event]:
        return game.draw(reason, "both players missed two rounds in a row: a draw")

    def stale(self, step: int, current: int) -> Exception:
        return StaleRound(step, current)

    def already_chosen(self, step: int) -> Exception:
        return AlreadyPressed(step)

    def draft_error(self, message: str) -> Exception:
        return PressError(message)
