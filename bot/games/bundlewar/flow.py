"""Bundle War's flow for the match kernel: every step, the players who look at a card choose in private to play it
or to steal with it (picked at once from their panel); the winner of a round picks the top card of their pile. A
missed deadline plays the card (or puts the highest won card on top); a second miss in a row forfeits.

Action log kinds: ``choice`` (a player's), ``default`` (the deadline's), ``forfeit``, ``timeout``. The match file
holds each choice as a move of its own: ``{"seat": s, "choice": {...}}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.cards import card_label
from bot.game import Action, Game
from bot.i18n import N_
from bot.match import errors
from bot.match.flow import Flow, SeatPanel
from bot.match.ratings import places_by_count
from bot.storage.records import ActionRecord, MatchRecord

GAME = "bundlewar"
TURN = "turn"


STALE = N_("Step {step} is over (step {current} is on): use your newest panel.")
ALREADY = N_("You have chosen already in step {step}.")
BUTTONS_ONLY = N_("Pick one of your panel's buttons.")
NOT_OPEN = N_("That choice is not open to you now.")


class StaleStep(errors.ServiceError):
    def __init__(self, step: int, current: int) -> None:
        super().__init__(STALE.format(step=step, current=current), template=STALE, step=step, current=current)


class AlreadyChosen(errors.ServiceError):
    def __init__(self, step: int) -> None:
        super().__init__(ALREADY.format(step=step), template=ALREADY, step=step)


class ChoiceError(errors.ServiceError):
    pass


def choice_error(template: str) -> ChoiceError:
    """A refusal of the flow's own (``template`` marked with :func:`~bot.i18n.N_`)."""
    return ChoiceError(template, template=template)


@dataclass(frozen=True, kw_only=True)
class BundlePanel(SeatPanel):
    """A seat's panel of a step: ``step``; ``choices``: what it may pick now (item keys: ``play``, ``steal:<seat>``,
    ``top:<card>``), empty when it has nothing to choose."""

    step: int
    choices: tuple[str, ...] = ()


def item_of(action: Action) -> str:
    if action["type"] == "steal":
        return f"steal:{action['victim']}"
    if action["type"] == "top":
        return f"top:{action['card']}"
    return "play"


def action_of(item: str) -> Action:
    kind, _, value = item.partition(":")
    if kind == "steal":
        return {"type": "steal", "victim": int(value)}
    if kind == "top":
        return {"type": "top", "card": value}
    return {"type": "play"}


class BundleWarFlow(Flow):
    game = GAME
    deadline_kind = TURN
    timeout_event_type = "turn_timeout"
    choice_kinds = ("choice", "default")

    def step(self, game: Game) -> int:
        return game.step  # type: ignore[attr-defined]

    def places(self, game: Game) -> list[int] | None:
        """Three or four players: the winner, then the others by the cards they end with (the players who ran out
        share the last place)."""
        outcome = game.outcome
        return places_by_count(None if outcome is None else outcome.winner, game.counts())  # type: ignore[attr-defined]

    def waiting_for(self, game: Game) -> list[int]:
        return game.pending_seats()

    def still_in(self, game: Game) -> list[int]:
        return [seat for seat, flag in enumerate(game.playing) if flag]  # type: ignore[attr-defined]

    def panel(self, match: MatchRecord, game: Game | None, seat: int) -> BundlePanel:
        view = None if game is None else game.view(seat)
        legal = [] if game is None else game.legal_actions(seat)
        return BundlePanel(match_id=match.id, seat=seat, user_id=match.seats[seat].user_id,
                           locked=game is not None and seat in game.deciders and not legal,  # type: ignore[attr-defined]
                           opponent_locked=False, deadline_at=match.deadline_at,
                           finished=match.status == "finished", view=view, step=match.step,
                           choices=tuple(item_of(action) for action in legal))

    def ended_panel(self, match: MatchRecord, seat: int, user_id: int, step: int,
                    log: Sequence[ActionRecord]) -> BundlePanel:
        return BundlePanel(match_id=match.id, seat=seat, user_id=user_id, locked=True, opponent_locked=True,
                           deadline_at=None, finished=match.status == "finished", step=step, ended="played")

    def locked(self, panel: Any) -> bool:
        return not panel.choices

    def draft_items(self, panel: Any) -> tuple[list[str], list[str]]:
        raise choice_error(BUTTONS_ONLY)

    def lock_draft(self, panel: Any) -> tuple[Action, str]:
        raise choice_error(BUTTONS_ONLY)

    def pick(self, panel: Any, item: str) -> tuple[Action, str]:
        if item not in panel.choices:
            raise choice_error(NOT_OPEN)
        return action_of(item), "choice"

    def default(self, game: Game, seat: int) -> tuple[Action, str]:
        return game.default(seat), "default"  # type: ignore[attr-defined]

    def kind_of(self, action: Action) -> str:
        return "choice"

    def export_choice(self, seat: int, action: Action) -> dict[str, Any] | None:
        return {"seat": seat, "choice": dict(action)}

    def export_move(self, choices: Any) -> dict[str, Any]:  # every choice is a move of its own
        raise NotImplementedError

    def item_label(self, item: str) -> str:
        return card_label(item.removeprefix("top:")) if item.startswith("top:") else item

    def stale(self, step: int, current: int) -> Exception:
        return StaleStep(step, current)

    def already_chosen(self, step: int) -> Exception:
        return AlreadyChosen(step)

    def draft_error(self, message: str) -> Exception:
        return ChoiceError(message)
