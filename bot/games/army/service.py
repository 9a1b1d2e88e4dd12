"""The Army match service: the shared match machinery (:class:`~bot.services.matches.MatchService`) for Army.

Challenges, accept/decline/withdraw/expiry, forfeits, results and ratings are the base class's; this module adds
what Army plays: the arrangement of each seat's three armies (a draft built in the DM panel, then confirmed) and
one secret fighting card per seat and round. No Discord here; every change runs load -> validate -> apply ->
persist in one transaction under the match's lock, as in the base class.

Steps. ``matches.engagement`` holds the step being played: 1 is the arrangement, step ``n + 1`` is round ``n``
(:func:`step_of`). Each step has one deadline (kind ``turn``): the match's timer (the challenge's ``timer`` option,
else the server's ``arrange_seconds``) after the step began.

Events (queued per match, each tagged with ``engagement`` = the step it belongs to): the engine's (see
:mod:`bot.games.army.engine`) and the service's own, besides the base class's ``challenge``, ``accepted``,
``declined``, ``withdrawn``, ``expired`` and ``result``:

* ``turn``: a step begins: ``phase`` (``arrange`` or ``play``), ``round`` (the round to fight; 0 while arranging),
  ``deadline_at``, ``seconds`` and the spectator's facts at that moment: ``players`` (per seat ``front``,
  ``armies_left``, ``hand_size``), ``fighting_pile``, ``fighting_graveyard``, ``army_graveyard``;
* ``turn_timeout``: ``phase``, ``seats`` (who missed the deadline), ``user_ids``, ``misses`` (per seat, in a row,
  after this one), ``defaults`` (seats given the default: the armies as dealt, or their lowest card), ``forfeit``
  (seats forfeited by this second miss in a row; both at once: a draw, reason ``double_timeout``);
* ``deadline_moved``: ``deadline_at``, ``reason`` ``bot_away`` (:meth:`ArmyService.resume_deadlines`).

Hidden information: an event holds only public facts (the engine's events are spectator-safe; ``turn`` is built
from the spectator's view). A seat's hand, army order and chosen card are only in :class:`ArmyPanel` (its own).

Action log kinds: ``arrange`` and ``play`` (the player's), ``arrange_default`` and ``play_default`` (the deadline's
default), ``forfeit``, ``timeout`` (forfeited by a second miss).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.games import game_class
from bot.games.army.engine import fighting_value
from bot.games.base import Event, Game
from bot.services import errors
from bot.services.matches import (
    DEADLINE,
    DOUBLE_TIMEOUT,
    DRAFT,
    ENGAGEMENT,
    FORFEIT,
    LOCKED,
    MISSES_TO_FORFEIT,
    TIMEOUT,
    MatchService,
    MatchUpdate,
    _Work,
)
from bot.storage import matches as store
from bot.storage.records import MatchRecord, QueuedEvent
from bot.storage.settings import GuildSettings

GAME = "army"
TITLE = "Army"
TURN = "turn"  # the deadline kind of every Army step
ARRANGE_STEP = 1


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


class StaleStep(errors.ServiceError):
    """A button of a step that is over (an old panel)."""

    def __init__(self, step: int, current: int) -> None:
        super().__init__(f"This panel is for {step_name(step)}, which is over; use the panel for "
                         f"{step_name(current)}.")
        self.step = step
        self.current = current


class AlreadyChosen(errors.ServiceError):
    def __init__(self, step: int) -> None:
        what = "your army order is" if step == ARRANGE_STEP else f"your card for {step_name(step)} is"
        super().__init__(f"Already done: {what} locked in.")
        self.step = step


class ArmyDraftError(errors.ServiceError):
    """A tap on an army that is not yours or is placed already, a confirm before all three are placed."""


class WrongPhase(errors.ServiceError):
    """A button of the other phase (an army tap while cards are played, a card while armies are set)."""


def step_name(step: int) -> str:
    return "the army order" if step == ARRANGE_STEP else f"round {round_of(step)}"


# --- what a seat sees --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ArmyPanel:
    """A seat's DM panel for one step.

    ``phase``: ``arrange`` or ``play`` (``over`` once the game ended); ``dealt``: the seat's armies as dealt
    (arrangement) or in fighting order (play); ``draft``: the armies placed so far (the confirmed order once
    ``locked``); ``hand``: the fighting cards in hand; ``chosen``: the card locked in for this round; ``locked``:
    this step's choice is in; ``opponent_locked``: the other seat's is; ``deadline_at`` while the step runs;
    ``view``: the engine's view for this seat (never the opponent's secrets); ``ended`` (a step that is over, see
    :meth:`ArmyService.panel_for`): ``played`` (both choices were in), ``default`` (the seat missed the deadline:
    the default was played, ``chosen``/``draft``), ``timeout`` (a second miss: forfeited), ``over`` (the game ended
    before the step was played)."""

    match_id: int
    seat: int
    user_id: int
    step: int
    phase: str
    dealt: tuple[str, ...]
    draft: tuple[str, ...]
    hand: tuple[str, ...]
    chosen: str | None
    locked: bool
    opponent_locked: bool
    deadline_at: float | None
    finished: bool
    view: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    ended: str | None = None

    @property
    def round(self) -> int:
        return round_of(self.step)

    @property
    def remaining(self) -> tuple[str, ...]:
        return tuple(army for army in self.dealt if army not in self.draft)


@dataclass(frozen=True)
class ArmyStatus:
    """``/army status``: the user's open match, seat, the engine's view for the seat (``None`` while a challenge)
    and the seat's panel (``None`` while a challenge)."""

    match: MatchRecord
    seat: int
    view: dict[str, Any] | None
    panel: ArmyPanel | None


class ArmyService(MatchService):
    """See the module docstring. Construct it like :class:`MatchService` (database, clock, seed source)."""

    game = GAME

    @staticmethod
    def _step(game: Game) -> int:
        return step_of(game)

    # --- panels ----------------------------------------------------------------------------------------------
    def _army_panel(self, match: MatchRecord, game: Game, seat: int) -> ArmyPanel:
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
            match_id=match.id, seat=seat, user_id=match.seats[seat].user_id, step=match.engagement, phase=phase,
            dealt=armies, draft=draft, hand=tuple(you["hand"]), chosen=you["chosen"], locked=locked,
            opponent_locked=bool(other["chosen"]) if phase != "over" else False,
            deadline_at=match.deadline_at if match.deadline_kind == TURN else None,
            finished=match.status in ("finished", "cancelled"), view=view,
        )

    async def panel(self, match_id: int, user_id: int) -> ArmyPanel:  # type: ignore[override]
        """The user's panel of the step being played."""
        async with self.db.read() as conn:
            match = await store.load_match(conn, match_id)
            if match is None:
                raise errors.MatchNotFound(match_id)
            seat = self._seat(match, user_id)
            state = await store.load_state(conn, match_id)
        if state is None:
            raise errors.MatchNotActive(match.status)
        return self._army_panel(match, game_class(match.game).from_json(state), seat)

    async def open_panel(self, match_id: int, user_id: int, step: int) -> ArmyPanel:  # type: ignore[override]
        """"Open my panel" (closed DMs): the user's panel of the step being played; refuses a match not being
        played and a button of a step that is over."""
        async with self.db.read() as conn:
            match = await store.load_match(conn, match_id)
            if match is None:
                raise errors.MatchNotFound(match_id)
            seat = self._seat(match, user_id)
            self._check_active(match)
            if step != match.engagement:
                raise StaleStep(step, match.engagement)
            state = await store.load_state(conn, match_id)
        assert state is not None
        return self._army_panel(match, game_class(match.game).from_json(state), seat)

    async def panel_for(self, match_id: int, user_id: int, step: int) -> ArmyPanel:  # type: ignore[override]
        """The user's panel of ``step`` as its message may show it now: the current step as it stands; a step that
        is over as it ended for the seat (``ended``), from the action log: what the seat chose (its own secret),
        nothing of later steps."""
        async with self.db.read() as conn:
            match = await store.load_match(conn, match_id)
            if match is None:
                raise errors.MatchNotFound(match_id)
            seat = self._seat(match, user_id)
            state = await store.load_state(conn, match_id)
            current = match.status == "active" and step == match.engagement
            log = [] if current else await store.actions(conn, match_id)
        if state is None:
            raise errors.MatchNotActive(match.status)
        if current:
            return self._army_panel(match, game_class(match.game).from_json(state), seat)
        if not 1 <= step <= match.engagement:
            raise StaleStep(step, match.engagement)
        mine = [a for a in log if a.engagement == step and a.seat == seat]
        others = [a for a in log if a.engagement == step and a.seat != seat and a.kind in _CHOICES]
        action = next((a for a in mine if a.kind in _CHOICES), None)
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

    # --- arranging the armies ------------------------------------------------------------------------------
    async def _army_draft(self, match_id: int, user_id: int, step: int,
                          change: Callable[[list[str], list[str]], list[str]]) -> MatchUpdate:
        async with self._work(match_id) as work:
            match = work.match
            seat = self._seat(match, user_id)
            self._check_active(match)
            self._check_step(match, step)
            game = await self._game(work)
            panel = self._army_panel(match, game, seat)
            if panel.phase != "arrange":
                raise WrongPhase("The armies are set; now pick a fighting card.")
            if panel.locked:
                raise AlreadyChosen(step)
            draft = change(list(panel.dealt), list(panel.draft))
            if tuple(draft) != panel.draft:
                await store.update_seat(work.conn, match.id, seat, draft=draft)
                work.changes.add(DRAFT)
                work.match = await self._reload(work)
            return await work.result()

    async def place_army(self, match_id: int, user_id: int, step: int, army: str) -> MatchUpdate:
        """Place ``army`` (one of the seat's armies not placed yet) next in the fighting order."""

        def change(dealt: list[str], draft: list[str]) -> list[str]:
            if army not in dealt:
                raise ArmyDraftError(f"{army} is not one of your armies.")
            if army in draft:
                raise ArmyDraftError(f"{army} is already placed.")
            return [*draft, army]

        return await self._army_draft(match_id, user_id, step, change)

    async def undo_army(self, match_id: int, user_id: int, step: int) -> MatchUpdate:
        return await self._army_draft(match_id, user_id, step, lambda dealt, draft: draft[:-1])

    async def reset_armies(self, match_id: int, user_id: int, step: int) -> MatchUpdate:
        return await self._army_draft(match_id, user_id, step, lambda dealt, draft: [])

    async def armies_as_dealt(self, match_id: int, user_id: int, step: int) -> MatchUpdate:
        return await self._army_draft(match_id, user_id, step, lambda dealt, draft: list(dealt))

    async def confirm_armies(self, match_id: int, user_id: int, step: int) -> MatchUpdate:
        """Lock in the drafted order (all three placed). Events: ``chosen``; the second one also ``armies_set``
        and the ``turn`` of round 1."""
        async with self._work(match_id) as work:
            match = work.match
            seat = self._seat(match, user_id)
            self._check_active(match)
            self._check_step(match, step)
            game = await self._game(work)
            panel = self._army_panel(match, game, seat)
            if panel.phase != "arrange":
                raise WrongPhase("The armies are set; now pick a fighting card.")
            if panel.locked:
                raise AlreadyChosen(step)
            if len(panel.draft) != len(panel.dealt):
                raise ArmyDraftError(f"Place all {len(panel.dealt)} armies before you confirm "
                                     f"({len(panel.draft)} placed so far).")
            action = {"type": "arrange", "armies": list(panel.draft)}
            return await self._act(work, game, seat, action, "arrange")

    # --- fighting ----------------------------------------------------------------------------------------
    async def play_card(self, match_id: int, user_id: int, step: int, card: str) -> MatchUpdate:
        """Lock in ``card`` (from the seat's hand) for the round. Events: ``chosen``; the second one also the
        round: ``reveal`` (and ``army_fallen``, ``reshuffle``, ``draw``), then the next ``turn`` or the end."""
        async with self._work(match_id) as work:
            match = work.match
            seat = self._seat(match, user_id)
            self._check_active(match)
            self._check_step(match, step)
            game = await self._game(work)
            panel = self._army_panel(match, game, seat)
            if panel.phase != "play":
                raise WrongPhase("Set the order of your armies first; the fighting starts when both have.")
            if panel.locked:
                raise AlreadyChosen(step)
            if card not in panel.hand:
                raise ArmyDraftError(f"{card} is not in your hand.")
            return await self._act(work, game, seat, {"type": "play", "card": card}, "play")

    async def _act(self, work: _Work, game: Game, seat: int, action: dict[str, Any], kind: str) -> MatchUpdate:
        match = work.match
        events = game.apply(seat, action)
        await store.append_action(work.conn, match.id, seat=seat, engagement=match.engagement, kind=kind,
                                  action=action, now=work.now)
        await store.update_seat(work.conn, match.id, seat, misses=0)
        work.changes.add(LOCKED)
        await self._after_play(work, game, events, previous_engagement=match.engagement)
        return await work.result()

    @staticmethod
    def _check_step(match: MatchRecord, step: int) -> None:
        if step != match.engagement:
            raise StaleStep(step, match.engagement)

    # --- deadlines -------------------------------------------------------------------------------------------
    async def deadline_due(self, match_id: int) -> MatchUpdate | None:
        async with self.db.read() as conn:
            match = await store.load_match(conn, match_id)
        if match is None or match.game not in self.games or match.deadline_kind is None:
            return None
        if match.deadline_kind == "challenge":
            return await self.expire(match_id)
        if match.deadline_kind == TURN:
            return await self.turn_timeout(match_id, match.engagement)
        return None

    async def arrange_timeout(self, match_id: int, engagement: int) -> MatchUpdate | None:
        return await self.turn_timeout(match_id, engagement)

    async def turn_timeout(self, match_id: int, step: int) -> MatchUpdate | None:
        """The deadline of ``step``, only if the match is still at that step and the deadline has passed (else
        ``None``; idempotent). Seats without a choice missed it: they get the default (armies as dealt, or their
        lowest card), or, on a second miss in a row, forfeit (both at once: a draw)."""
        async with self._work(match_id) as work:
            match = work.match
            if (match.status != "active" or match.deadline_kind != TURN or match.engagement != step
                    or match.deadline_at is None or work.now < match.deadline_at):
                return None
            game = await self._game(work)
            view = game.view(None)
            missed = [seat for seat in range(len(match.seats)) if not view["players"][seat]["chosen"]]
            if not missed:
                return None
            misses = [seat.misses + (1 if seat.seat in missed else 0) for seat in match.seats]
            forfeit = [seat for seat in missed if misses[seat] >= MISSES_TO_FORFEIT]
            defaults = [] if forfeit else missed
            for seat in missed:
                await store.update_seat(work.conn, match.id, seat, misses=misses[seat])
            phase = view["phase"]
            await work.queue([{
                "type": "turn_timeout", "engagement": step, "phase": phase, "seats": missed,
                "user_ids": [match.seats[seat].user_id for seat in missed], "misses": misses, "defaults": defaults,
                "forfeit": forfeit,
            }])
            work.changes.add(TIMEOUT)
            work.timed_out = tuple(missed)
            events: list[Event] = []
            if len(forfeit) == len(match.seats):
                events = game.draw(DOUBLE_TIMEOUT, "both players missed two deadlines in a row: a draw")
            elif forfeit:
                events = game.forfeit(forfeit[0], reason="timeout")
            for seat in forfeit:
                await store.append_action(work.conn, match.id, seat=seat, engagement=step, kind="timeout",
                                          action={"type": "timeout"}, now=work.now)
            if forfeit:
                work.changes.add(FORFEIT)
                work.forfeited = tuple(forfeit)
            for seat in defaults:
                mine = game.view(seat)["you"]
                if phase == "arrange":
                    action, kind = {"type": "arrange", "armies": [a["army"] for a in mine["armies"]]}, "arrange"
                else:
                    action, kind = {"type": "play", "card": lowest_card(mine["hand"])}, "play"
                events += game.apply(seat, action)
                await store.append_action(work.conn, match.id, seat=seat, engagement=step, kind=f"{kind}_default",
                                          action=action, now=work.now)
            work.match = await self._reload(work)
            await self._after_play(work, game, events, previous_engagement=step)
            return await work.result()

    async def resume_deadlines(self) -> list[MatchUpdate]:
        """After the bot was away: a step's deadline that passed meanwhile moves to now + the match's timer (nobody
        could click, so nobody missed it). Event ``deadline_moved``. Call it before the timers are armed again."""
        now = self.clock()
        overdue = [match.id for match in await self.open_matches()
                   if match.status == "active" and match.deadline_kind == TURN and match.deadline_at is not None
                   and match.deadline_at <= now]
        updates = []
        for match_id in overdue:
            update = await self._move_turn_deadline(match_id)
            if update is not None:
                updates.append(update)
        return updates

    async def _move_turn_deadline(self, match_id: int) -> MatchUpdate | None:
        async with self._work(match_id) as work:
            match = work.match
            if (match.status != "active" or match.deadline_kind != TURN or match.deadline_at is None
                    or match.deadline_at > work.now):
                return None
            settings = await self._settings(work.conn, match.guild_id)
            deadline = work.now + (match.arrange_seconds or settings.arrange_seconds)
            await work.update(deadline_at=deadline)
            await work.queue([{"type": "deadline_moved", "engagement": match.engagement, "deadline_at": deadline,
                               "reason": "bot_away"}])
            work.changes.add(DEADLINE)
            return await work.result()

    # --- after every engine call ---------------------------------------------------------------------------
    async def _after_play(self, work: _Work, game: Game, events: list[Event], *, previous_engagement: int,
                          settings: GuildSettings | None = None) -> None:
        """Store the game, queue its events (tagged with the step they belong to), start the next step's deadline
        (a ``turn`` event) or finish the match. ``settings``: the server's, if the caller read them already."""
        match = work.match
        step = self._step(game)
        fields: dict[str, Any] = {"state": game.to_json(), "engagement": step}
        queued = [{**event, "engagement": previous_engagement} for event in events]
        if not game.is_over and step != previous_engagement:
            if settings is None:
                settings = await self._settings(work.conn, match.guild_id)
            seconds = match.arrange_seconds or settings.arrange_seconds
            deadline = work.now + seconds
            fields |= {"deadline_at": deadline, "deadline_kind": TURN}
            public = game.view(None)
            queued.append({
                "type": "turn", "engagement": step, "phase": public["phase"], "round": round_of(step),
                "deadline_at": deadline, "seconds": seconds,
                "players": [{key: player[key] for key in ("seat", "front", "armies_left", "hand_size")}
                            for player in public["players"]],
                "fighting_pile": public["fighting_pile"], "fighting_graveyard": public["fighting_graveyard"],
                "army_graveyard": public["army_graveyard"],
            })
            await store.reset_drafts(work.conn, match.id)
            work.changes |= {ENGAGEMENT, DEADLINE}
        await work.update(**fields)
        await work.queue(queued)
        if game.is_over:
            await self._finish(work, game)
        work.match = await self._reload(work)

    # --- reading -----------------------------------------------------------------------------------------
    async def open_matches(self) -> list[MatchRecord]:
        """The open matches of this service's games (after a restart: re-arm their timers)."""
        return [match for match in await super().open_matches() if match.game in self.games]

    async def matches_with_unshown_events(self) -> list[int]:
        """Match ids of this service's games with events still to show."""
        async with self.db.read() as conn:
            ids = await store.match_ids_with_unshown_events(conn)
            matches = await store.load_matches(conn, ids)
        return [match.id for match in matches if match.game in self.games]

    async def army_status(self, user_id: int) -> ArmyStatus:
        """``/army status``: the user's open Army match (NotInMatch when none)."""
        async with self.db.read() as conn:
            match_id = await store.open_match_id_for_user(conn, user_id, GAME)
            match = None if match_id is None else await store.load_match(conn, match_id)
            state = None if match_id is None else await store.load_state(conn, match_id)
        if match is None:
            raise errors.NotInMatch(TITLE)
        seat = self._seat(match, user_id)
        if state is None:
            return ArmyStatus(match, seat, None, None)
        game = game_class(match.game).from_json(state)
        return ArmyStatus(match, seat, game.view(seat), self._army_panel(match, game, seat))

    async def step_events(self, match_id: int, step: int) -> list[QueuedEvent]:
        """Every event of one step, shown or not, in order."""
        return await self.events(match_id, engagement=step)

    async def export(self, match_id: int, *, allow_open: bool = False) -> dict[str, Any]:
        """The match as a match file for ``python -m bot replay``: ``{"armies": [...]}`` once both orders are in,
        one ``{"plays": [card, card]}`` per round fought, then the forfeit or draw that ended it. Only for finished
        matches unless ``allow_open``; a choice whose step was never resolved stays out (nobody saw it)."""
        async with self.db.read() as conn:
            match = await store.load_match(conn, match_id)
            if match is None:
                raise errors.MatchNotFound(match_id)
            log = await store.actions(conn, match_id)
        if match.seed is None:
            raise errors.MatchNotActive(match.status)
        if match.status != "finished" and not allow_open:
            raise errors.ServiceError("The match file is available once the match is over.")
        choices: dict[int, list[Any]] = {}
        moves: list[dict[str, Any]] = []
        timeouts = [action for action in log if action.kind == "timeout"]
        for action in log:
            if action.kind in _CHOICES:
                step = choices.setdefault(action.engagement, [None, None])
                arrange = action.kind.startswith("arrange")
                step[action.seat] = list(action.action["armies"]) if arrange else action.action["card"]
                if all(choice is not None for choice in step):
                    moves.append({"armies": step} if arrange else {"plays": step})
            elif action.kind == "forfeit":
                moves.append({"forfeit": action.seat, "reason": "forfeit"})
            elif action.kind == "timeout":
                together = [t for t in timeouts if t.engagement == action.engagement]
                if len(together) == len(match.seats):
                    if action is together[0]:
                        moves.append({"draw": DOUBLE_TIMEOUT})
                else:
                    moves.append({"forfeit": action.seat, "reason": "timeout"})
        return {"game": match.game, "rules": dict(match.rules), "seed": match.seed, "moves": moves}


_CHOICES = ("arrange", "play", "arrange_default", "play_default")
