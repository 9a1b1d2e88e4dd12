"""Air War's flow for the match kernel: each engagement is a step; each seat drafts an order of its stack in its
panel and locks it in; a seat that misses the deadline plays its stack as drawn. No Discord, no database.

Events, besides the engine's (see :mod:`bot.games.airwar.engine`) and the kernel's: the engine's ``engagement``
events are queued with two more keys, ``deadline_at`` and ``arrange_seconds``; ``arrange_timeout``:
``engagement``, ``seats`` (who missed the deadline), ``user_ids`` (theirs), ``misses`` (per seat, in a row, after
this one), ``as_drawn`` (seats whose stack is played as drawn), ``forfeit`` (seats forfeited by this miss).

An engagement's orders are due ``arrange_seconds`` after its stacks were drawn, plus the time its flips take to
show at the server's flip pace (players do not lose arranging time while the previous engagement is flipped).

Hidden information. What a seat may see of the next engagement (its stacks, what the flips taught about the decks)
is derived from flips: a seat's panel is not opened while any flip of the match is still to be shown in public
(:attr:`AirWarFlow.reveal_events`).

Action log kinds: ``order`` (confirmed by the player), ``as_drawn`` (played as drawn at the deadline), and the
kernel's ``forfeit`` and ``timeout``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from bot.cards import label_of_text
from bot.game import Action, Event, Game
from bot.games.airwar.engine import AirWar, finishing_places
from bot.i18n import N_, Phrase
from bot.match import errors
from bot.match.flow import TIMER_SECONDS_RANGE, Flow, SeatPanel
from bot.registry import game_class
from bot.storage.records import ActionRecord, MatchRecord, QueuedEvent
from bot.storage.settings import GuildSettings

ARRANGE = "arrange"  # the deadline kind of an engagement
#: the seconds the arrangement timer (the match's timer, the challenge's own or the server's) may be set to
ARRANGE_SECONDS_RANGE = TIMER_SECONDS_RANGE
#: Discord allows 5 edits per 5 s per channel: a board's flips (one edit each) must not go faster than 1 per second.
FLIP_PACE_MS_RANGE = (1000, 5000)


@dataclass(frozen=True, kw_only=True)
class Panel(SeatPanel):
    """What a seat's panel shows for the current engagement (besides a :class:`~bot.match.flow.SeatPanel`'s).

    ``stack`` is the seat's stack as drawn; ``draft`` the cards placed so far, in play order (the locked order once
    ``locked``); ``remaining`` the cards not placed yet, in drawn order. ``deadline_at`` is when the orders are due.
    ``view`` is what the panel renders: both stacks, what is known of both decks; ``None`` before accept.

    ``ended`` (the panel of an engagement that is over; ``None`` while it is arranged) says how it ended for this
    seat: ``played`` (both orders were in and it was flipped; ``draft`` is the seat's order), ``as_drawn`` (the seat
    missed the deadline: its stack was played as drawn, ``draft``), ``timeout`` (the seat missed a second deadline
    in a row and forfeited), ``over`` (the game ended before it was played).
    """

    engagement: int
    stack: tuple[str, ...]
    draft: tuple[str, ...]
    remaining: tuple[str, ...]

    @property
    def complete(self) -> bool:
        return bool(self.stack) and len(self.draft) == len(self.stack)


@dataclass(frozen=True)
class PublicBoard:
    """An engagement as the public may see it at event ``up_to`` (:func:`public_board`).

    ``view``: the spectator's view of the engagement as its ``engagement`` event drew it (what the board renders:
    both stacks as drawn, counts, who has locked in by ``up_to``); ``deadline_at``: when its orders are due (moved
    by a later ``deadline_moved`` event up to ``up_to``; while the match is arranging this engagement, the match's
    own deadline, which also moves without an event before anything showed it: ``MatchKernel.step_delivered``'s
    ``unseen``); ``locked`` per seat by ``up_to``; ``played``: it was
    flipped (its ``flip`` events exist); ``events``: every public event of the engagement (the flips' frames are
    rendered from them, up to the flip being shown); ``timed_out``: the seats that missed its deadline by
    ``up_to``."""

    match_id: int
    engagement: int
    view: dict[str, Any]
    deadline_at: float | None
    locked: tuple[bool, ...]
    played: bool
    events: tuple[dict[str, Any], ...]
    timed_out: tuple[int, ...] = ()


def public_board(match: MatchRecord, queued: Sequence[QueuedEvent], up_to_seq: int | None = None) -> PublicBoard | None:
    """An engagement as the public may see it at event ``up_to_seq``, from its events (``queued``, the kernel's
    ``step_record``; default: all of them); ``None`` when the engagement was never drawn."""
    start = next((q.event for q in queued if q.type == "engagement"), None)
    if start is None:
        return None
    limit = queued[-1].seq if up_to_seq is None else up_to_seq
    seats = len(match.seats)
    in_game = list(start.get("in_game") or [True] * seats)  # 3-4 players: a seat that is out waits for nothing
    locked = [not flag for flag in in_game]
    timed_out: list[int] = []
    deadline = start.get("deadline_at")
    for q in queued:
        if q.seq > limit:
            break
        if q.type == "order_locked":
            locked[q.event["seat"]] = True
        elif q.type == "out" and q.event["engagement"] == start["number"] and not any(
                e.type == "flip" and e.seq < q.seq for e in queued):  # out while the stacks were arranged
            locked[q.event["seat"]] = True
            in_game[q.event["seat"]] = False
        elif q.type == "deadline_moved":
            deadline = q.event["deadline_at"]
        elif q.type == "arrange_timeout":
            timed_out += [seat for seat in q.event["seats"] if seat not in timed_out]
    if (match.status == "active" and match.step == start["number"] and match.deadline_kind == ARRANGE
            and match.deadline_at is not None):
        deadline = match.deadline_at
    view = {
        "game": match.game, "seat": None, "rules": dict(match.rules), "engagement": start["number"],
        "phase": "ordering", "stack_size": start["stack_size"], "stacks": [list(s) for s in start["stacks"]],
        "locked": list(locked), "waiting_for": [s for s in range(seats) if not locked[s]], "my_order": None,
        "deck_counts": list(start["deck_counts"]), "discards": [[""] * n for n in start["discard_counts"]],
        "table": [[] for _ in range(seats)], "outcome": None, "stats": {},
    } | ({"in_game": in_game} if "in_game" in start else {})
    return PublicBoard(match.id, start["number"], view, deadline, tuple(locked),
                       any(q.type == "flip" for q in queued), tuple(q.event for q in queued), tuple(timed_out))


class AirWarFlow(Flow):
    """See the module docstring."""

    game = "airwar"
    deadline_kind = ARRANGE
    timeout_event_type = "arrange_timeout"
    choice_kinds = ("order", "as_drawn")
    reveal_events = ("flip",)
    timer_range = ARRANGE_SECONDS_RANGE
    timer_name = N_("arrangement timer")

    def step(self, game: Game) -> int:
        return game.engagement  # type: ignore[attr-defined]

    def waiting_for(self, game: Game) -> list[int]:
        return game.pending_seats()

    def still_in(self, game: Game) -> list[int]:
        return [seat for seat, flag in enumerate(cast(AirWar, game).in_game) if flag]

    def only_action(self, game: Game, seat: int) -> Action | None:
        """A stack has one order only when all its cards are the same (the engine's list of its distinct orders,
        up to 5,040, is not built for it)."""
        stack = cast(AirWar, game).stacks[seat]
        return {"type": "order", "cards": list(stack)} if len(set(stack)) == 1 else None

    def places(self, game: Game) -> list[int] | None:
        air = cast(AirWar, game)
        if air.n == 2:
            return None  # the winner first, the other second (or a draw)
        winner = air.outcome.winner if air.outcome is not None else None
        return finishing_places(winner, air.in_game, air.out_order, air.together)

    def settings_in_force(self, stored: GuildSettings) -> GuildSettings:
        """A flip pace stored before the minimum was raised counts as the minimum."""
        low, high = FLIP_PACE_MS_RANGE
        pace = min(max(stored.flip_pace_ms, low), high)
        return stored if pace == stored.flip_pace_ms else dataclasses.replace(stored, flip_pace_ms=pace)

    def extra_seconds(self, events: Sequence[Event], flip_pace_ms: int) -> float:
        flips = sum(1 for event in events if event.get("type") == "flip")
        return flips * flip_pace_ms / 1000

    # --- panels ----------------------------------------------------------------------------------------------
    def panel(self, match: MatchRecord, game: Game | None, seat: int) -> Panel:
        record = match.seats[seat]
        view: dict[str, Any] | None = None
        if game is None:
            stack: list[str] = []
            locked = opponent_locked = False
            draft: list[str] = []
        else:
            view = cast(AirWar, game).view(seat, history=False)
            stack = list(view["stacks"][seat])
            locked = bool(view["locked"][seat])
            opponent_locked = all(view["locked"][other] for other in self.still_in(game) if other != seat)
            draft = list(view["my_order"]) if locked and view["my_order"] is not None else list(record.draft)
        remaining = list(stack)
        for card in draft:
            if card in remaining:
                remaining.remove(card)
        return Panel(
            match_id=match.id, seat=seat, user_id=record.user_id, engagement=match.step, stack=tuple(stack),
            draft=tuple(draft), remaining=tuple(remaining), locked=locked, opponent_locked=opponent_locked,
            deadline_at=match.deadline_at if match.deadline_kind == ARRANGE else None,
            finished=match.status in ("finished", "cancelled"), view=view,
        )

    def ended_panel(self, match: MatchRecord, seat: int, user_id: int, step: int,
                    log: Sequence[ActionRecord]) -> Panel:
        """The seat's view as the engagement was drawn (replayed from the seed and the action log), the order the
        seat played, both seats locked in when it was flipped, no deadline -- never anything of the engagements
        after it (their stacks, what the flips taught about the decks)."""
        assert match.seed is not None
        game = game_class(match.game).new(match.rules, seed=match.seed)
        mine = None
        others: set[int] = set()
        for action in log:
            if action.step < step and action.kind in self.choice_kinds:
                game.apply(action.seat, action.action)
            elif action.step == step and action.seat == seat:
                mine = action
            elif action.step == step and action.kind in self.choice_kinds:
                others.add(action.seat)
        if game.is_over or self.step(game) != step:  # a log that does not lead here: show nothing of it
            raise self.stale(step, match.step)
        order: list[str] = []
        if mine is not None and mine.kind in self.choice_kinds:
            order = list(mine.action["cards"])
            game.apply(seat, mine.action)
        view = game.view(seat)
        for other in others:
            view["locked"][other] = True
        playing = self.still_in(game)
        view["waiting_for"] = [s for s in playing if not view["locked"][s]]
        played = bool(order) and not view["waiting_for"]
        kind = None if mine is None else mine.kind
        ended = {"timeout": "timeout", "as_drawn": "as_drawn"}.get(kind or "", "played" if played else "over")
        stack = list(view["stacks"][seat])
        return Panel(
            match_id=match.id, seat=seat, user_id=user_id, engagement=step, stack=tuple(stack),
            draft=tuple(order), remaining=tuple(card for card in stack if card not in order), locked=bool(order),
            opponent_locked=all(view["locked"][s] for s in playing if s != seat), deadline_at=None,
            finished=match.status in ("finished", "cancelled"), view=view, ended=ended,
        )

    def draft_items(self, panel: Panel) -> tuple[list[str], list[str]]:
        return list(panel.stack), list(panel.draft)

    # --- choices -------------------------------------------------------------------------------------------
    def lock_draft(self, panel: Panel) -> tuple[Action, str]:
        if not panel.complete:
            raise errors.OrderIncomplete(len(panel.draft), len(panel.stack))
        return {"type": "order", "cards": list(panel.draft)}, "order"

    def default(self, game: Game, seat: int) -> tuple[Action, str]:
        return {"type": "order", "cards": list(game.view(None)["stacks"][seat])}, "as_drawn"

    # --- events ----------------------------------------------------------------------------------------------
    def step_started(self, game: Game, queued: list[Event], deadline_at: float, seconds: int) -> None:
        for event in queued:
            if event.get("type") == "engagement" and event.get("number") == self.step(game):
                event |= {"deadline_at": deadline_at, "arrange_seconds": seconds}

    def timeout_event(self, game: Game, event: dict[str, Any], defaults: list[int]) -> Event:
        return {**event, "as_drawn": defaults}

    def double_timeout(self, game: Game, reason: str) -> list[Event]:
        if game.num_players == 2:
            events = super().double_timeout(game, reason)
        else:
            events = game.draw(reason, "everyone still in missed two deadlines in a row: a draw")
        view = game.view(None)
        events[-1].update(engagement=view["engagement"], deck_counts=view.get("deck_counts"))
        return events

    # --- the match file ----------------------------------------------------------------------------------
    def export_move(self, choices: Sequence[Action | None]) -> dict[str, Any]:
        """``{"orders": [...]}``, one order per seat (``None``: a seat out of the game, 3 or 4 players)."""
        return {"orders": [None if choice is None else list(choice["cards"]) for choice in choices]}

    # --- refusals ------------------------------------------------------------------------------------------
    def stale(self, step: int, current: int) -> Exception:
        return errors.StalePanel(step, current)

    def already_chosen(self, step: int) -> Exception:
        return errors.AlreadyLocked(step)

    def draft_error(self, message: str | Phrase) -> Exception:
        """A tap the draft refuses: the card is not in the stack (:meth:`not_yours`), or placed already."""
        return errors.DraftError(message)

    def item_label(self, item: str) -> str:
        return label_of_text(item)

    def not_yours(self, item: str) -> Phrase:
        return Phrase(N_("{card} is not in your stack."), card=item)


