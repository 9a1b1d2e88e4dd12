"""Casino War's flow for the match kernel: a table of one to four seats against the house, for the server's chips.

Steps. ``matches.step`` is the engine's ``step``: each hand's betting is a step, and a hand with ties adds one for
the tied seats' decisions (surrender or war). Every step has one deadline (kind ``turn``, the match's timer): a seat
that misses the betting sits the hand out (it costs nothing) and a tied seat that misses its decision surrenders;
a second miss in a row stands the seat up (the kernel's forfeit), so a table nobody plays at closes by itself.

Chips. The table is dealt with each seat's balance (:meth:`CasinoWarFlow.with_balances`; a new player gets the
rules' ``stake``, one below it the daily top-up) and every ``chips`` event of the engine is a movement the kernel
writes to the ledger in the step's own transaction (:meth:`CasinoWarFlow.chip_moves`). Not rated: each seat's
outcome is its net (win above zero, loss below, draw at zero); no tournaments.

Events, besides the engine's (:mod:`bot.games.casinowar.engine`) and the kernel's: ``turn`` {engagement, hand,
phase, deadline_at, seats} (a step begins: who is to choose until when), ``turn_timeout`` {..., defaults}.

The match file: each choice is a move of its own, ``{"seat": seat, "action": {...}}`` (the defaults too), and a
seat's leaving ``{"forfeit": seat, "reason": ...}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.game import Action, Event, Game
from bot.games.casinowar.engine import BET, DECIDE
from bot.i18n import COMMAND_NAME, DEFAULT_LANGUAGE, N_, Texts, texts
from bot.match import errors
from bot.match.flow import ChipMove, ChipTerms, Flow, SeatPanel
from bot.storage.records import ActionRecord, MatchRecord

GAME = "casinowar"
TURN = "turn"
CHOICE_KINDS = ("bet", "sit_out", "war", "surrender", "sit_out_default", "surrender_default")
#: what a panel's buttons pick: ``bet:<amount>``, ``tie:<amount>`` (the bet with the tie bet), ``sit``, ``war``,
#: ``surrender``
SIT, WAR, SURRENDER = "sit", "war", "surrender"
STALE = N_("That choice was for a part of the hand that is over; nothing changed. Use the newest panel.")
NOT_AT_TABLE = N_("You're not at a Casino War table. Open one with {command}.")


class Refusal(errors.NotYourTurn):
    """A choice the table refuses (a button of another phase, a bet or a war the chips don't cover): its message a
    template (:func:`~bot.i18n.N_`) whose whole-number params are chip amounts, written in the user's language's
    way."""

    def __init__(self, template: str, /, **params: Any) -> None:
        super().__init__(self._filled(texts(DEFAULT_LANGUAGE), template, params), template=template, **params)

    @staticmethod
    def _filled(say: Texts, template: str, params: Mapping[str, Any]) -> str:
        return say(template, **{key: say.number(value) if isinstance(value, int) else value
                                for key, value in params.items()})

    def said(self, say: Texts) -> str:
        assert self.template is not None
        return self._filled(say, self.template, self.params)


class StaleStep(errors.StaleRound):
    def __init__(self, step: int, current: int) -> None:
        errors.ServiceError.__init__(self, STALE, template=STALE)
        self.button_round = step
        self.current_round = current


class NotAtTable(errors.NotInMatch):
    """``/casinowar status`` or ``leave`` without a table: the command to open one is named as the user's Discord
    shows it (its name in their language)."""

    def __init__(self) -> None:
        command = "`/casinowar table`"
        errors.ServiceError.__init__(self, NOT_AT_TABLE.format(command=command), template=NOT_AT_TABLE,
                                     command=command)

    def said(self, say: Texts) -> str:
        command = "/" + " ".join(say.pgettext(COMMAND_NAME, part) for part in ("casinowar", "table"))
        return say(NOT_AT_TABLE, command=f"`{command}`")


class TableNotActive(errors.MatchNotActive):
    def __init__(self, status: str) -> None:
        template = N_("The table hasn't opened yet; nothing changed.") if status == "challenge" else \
            N_("This table is closed; nothing changed.")
        errors.ServiceError.__init__(self, template, template=template)
        self.status = status


class LeftTable(errors.AlreadyOut):
    def __init__(self) -> None:
        template = N_("You have left this table; the others play on without you.")
        errors.ServiceError.__init__(self, template, template=template)


@dataclass(frozen=True, kw_only=True)
class CasinoPanel(SeatPanel):
    """A seat's panel for one step (besides a :class:`SeatPanel`'s fields). ``phase``: ``bet``, ``decide`` or
    ``over``; ``amounts``: the bets the seat can make (``tie_bet``: the tie bet they may add, 0 for none);
    ``choice`` / ``decision``: the seat's own, once in; ``tied``: the seat decides in this step; ``bet``: its main
    bet on the table; ``ended`` (a step that is over): ``chosen``, ``default``, ``timeout`` or ``over``."""

    step: int
    phase: str
    hand: int
    hands: int
    stack: int
    amounts: tuple[int, ...] = ()
    tie_bet: int = 0
    tie_amounts: tuple[int, ...] = ()
    choice: dict[str, Any] | None = None
    decision: str | None = None
    tied: bool = False
    can_war: bool = False
    bet: int | None = None
    seated: bool = True


def outcome_of(net: int) -> str:
    return "win" if net > 0 else "loss" if net < 0 else "draw"


def action_of(item: str) -> Action:
    """The engine action a panel's button picks (raise ValueError for one that names none)."""
    if item == SIT:
        return {"type": "sit_out"}
    if item in (WAR, SURRENDER):
        return {"type": item}
    kind, _, amount = item.partition(":")
    if kind not in ("bet", "tie") or not amount.isdigit():
        raise ValueError(item)
    return {"type": "bet", "amount": int(amount), "tie": -1 if kind == "tie" else 0}


class CasinoWarFlow(Flow):
    """See the module docstring."""

    game = GAME
    deadline_kind = TURN
    timeout_event_type = "turn_timeout"
    choice_kinds = CHOICE_KINDS
    rated = False
    tournaments = False
    host_starts = N_("Only the host deals.")
    host_cancels = N_("Only the host can close this table.")
    host_leaves = N_("You're the host: use Cancel to close the table.")

    # --- steps ---------------------------------------------------------------------------------------------
    def step(self, game: Game) -> int:
        return int(game.view(None)["step"])

    def waiting_for(self, game: Game) -> list[int]:
        return list(game.view(None)["waiting"])

    def still_in(self, game: Game) -> list[int]:
        return [seat for seat, seated in enumerate(game.view(None)["seated"]) if seated]

    # --- panels ----------------------------------------------------------------------------------------------
    def panel(self, match: MatchRecord, game: Game | None, seat: int) -> CasinoPanel:
        if game is None:
            raise self.not_active(match.status)
        view = game.view(seat)
        you = view["you"]
        actions = you["actions"]
        stack = view["stacks"][seat]
        bet = view["bets"][seat]
        return CasinoPanel(
            match_id=match.id, seat=seat, user_id=match.seats[seat].user_id, step=match.step, phase=view["phase"],
            hand=view["hand"], hands=view["hands"], stack=stack,
            amounts=tuple(a["amount"] for a in actions if a["type"] == "bet" and not a["tie"]),
            tie_bet=view["tie_bet"],
            tie_amounts=tuple(a["amount"] for a in actions if a["type"] == "bet" and a["tie"]),
            choice=you["choice"], decision=you["decision"], tied=seat in view["tied"],
            can_war={"type": "war"} in actions, bet=None if bet is None else bet["main"],
            seated=view["seated"][seat], locked=seat not in view["waiting"],
            opponent_locked=all(view["chosen"][other] for other in view["waiting"] if other != seat),
            deadline_at=match.deadline_at if match.deadline_kind == TURN else None,
            finished=match.status in ("finished", "cancelled"), view=view,
        )

    def ended_panel(self, match: MatchRecord, seat: int, user_id: int, step: int,
                    log: Sequence[ActionRecord]) -> CasinoPanel:
        mine = [a for a in log if a.step == step and a.seat == seat]
        action = next((a for a in mine if a.kind in self.choice_kinds), None)
        if any(a.kind == "timeout" for a in mine):
            ended = "timeout"
        elif action is not None:
            ended = "default" if action.kind.endswith("_default") else "chosen"
        else:
            ended = "over"
        chosen = None if action is None else action.action
        decided = chosen is not None and chosen["type"] in (WAR, SURRENDER)
        return CasinoPanel(
            match_id=match.id, seat=seat, user_id=user_id, step=step, phase=DECIDE if decided else BET, hand=0,
            hands=int(match.rules.get("hands", 0)), stack=0, choice=None if decided else chosen,
            decision=chosen["type"] if decided and chosen is not None else None, locked=True,
            opponent_locked=True, deadline_at=None, finished=match.status in ("finished", "cancelled"),
            ended=ended,
        )

    def check_phase(self, panel: CasinoPanel, *, picking: bool) -> None:
        if not panel.seated:
            raise LeftTable()

    def draft_items(self, panel: CasinoPanel) -> tuple[list[str], list[str]]:
        raise Refusal(N_("Casino War is played with the panel's buttons."))

    # --- choices -------------------------------------------------------------------------------------------
    def pick(self, panel: CasinoPanel, item: str) -> tuple[Action, str]:
        try:
            action = action_of(item)
        except ValueError:
            raise Refusal(N_("That button means nothing at this table.")) from None
        if panel.phase == DECIDE and action["type"] not in (WAR, SURRENDER):
            raise Refusal(N_("The bets are down: a tied hand goes to war or surrenders."))
        if panel.phase == BET and action["type"] in (WAR, SURRENDER):
            raise Refusal(N_("There is no tie to settle: place a bet or sit this hand out."))
        if action.get("tie") == -1:
            action["tie"] = panel.tie_bet
        if action["type"] == "bet" and action["amount"] not in (panel.tie_amounts if action["tie"] else
                                                                panel.amounts):
            raise Refusal(N_("You can't bet {amount} now: you have {chips} in chips."), amount=action["amount"],
                          chips=panel.stack)
        if action["type"] == WAR and not panel.can_war:
            raise Refusal(N_("Going to war raises {bet} more and you have {chips} in chips: you can only surrender."),
                          bet=panel.bet, chips=panel.stack)
        return action, str(action["type"])

    def default(self, game: Game, seat: int) -> tuple[Action, str]:
        if game.view(None)["phase"] == DECIDE:
            return {"type": SURRENDER}, "surrender_default"
        return {"type": "sit_out"}, "sit_out_default"

    # --- events ----------------------------------------------------------------------------------------------
    def tag(self, game: Game, events: Sequence[Event], previous_step: int) -> list[Event]:
        return [{**event, "engagement": previous_step} for event in events]

    def step_started(self, game: Game, queued: list[Event], deadline_at: float, seconds: int) -> None:
        view = game.view(None)
        queued.append({"type": "turn", "engagement": view["step"], "hand": view["hand"], "phase": view["phase"],
                       "deadline_at": deadline_at, "seats": view["waiting"], "stacks": view["stacks"],
                       "seated": view["seated"]})

    def timeout_event(self, game: Game, event: dict[str, Any], defaults: list[int]) -> Event:
        return {**event, "phase": game.view(None)["phase"], "defaults": defaults}

    def double_timeout(self, game: Game, reason: str) -> list[Event]:
        return game.draw(reason, "every player still seated missed two turns in a row: the table closed")

    def export_choice(self, seat: int, action: Action) -> dict[str, Any] | None:
        return {"seat": seat, "action": dict(action)}

    # --- chips and results -----------------------------------------------------------------------------------
    def chip_terms(self, rules: Mapping[str, Any]) -> ChipTerms | None:
        return ChipTerms(int(rules["stake"]), int(rules["daily_topup"]))

    def with_balances(self, rules: Mapping[str, Any], balances: Sequence[int]) -> dict[str, Any]:
        return {**rules, "stacks": list(balances)}

    def chip_moves(self, events: Sequence[Event]) -> list[ChipMove]:
        return [ChipMove(int(e["hand"]), int(e["seat"]), str(e["kind"]), int(e["amount"]))
                for e in events if e.get("type") == "chips"]

    def outcomes(self, game: Game) -> list[str] | None:
        return [outcome_of(net) for net in game.view(None)["net"]]

    # --- refusals ------------------------------------------------------------------------------------------
    def stale(self, step: int, current: int) -> Exception:
        return StaleStep(step, current)

    def already_chosen(self, step: int) -> Exception:
        return Refusal(N_("Your choice is in (or you have none to make now); waiting for the others."))

    def draft_error(self, message: str) -> Exception:
        return errors.NotYourTurn(message)

    def not_active(self, status: str) -> Exception:
        return TableNotActive(status)

    def not_in_match(self, title: str) -> Exception:
        return NotAtTable()
