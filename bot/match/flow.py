"""What a game plugs into the match kernel: its flow.

The kernel (:class:`bot.match.kernel.MatchKernel`) runs every match the same way: a challenge, an accept that
deals the game, then steps. In a step of a *secret-choice* game (Air War's engagement, Army's arrangement and each
of its rounds) every seat makes one choice in private, from a draft built in its panel or picked at once; the step
has a deadline; a seat that misses it gets the flow's default, and a second miss in a row forfeits (both seats at
once: a draw). The kernel stores, locks, times and replays all of it; the flow says, for its game:

* what a step is (:meth:`Flow.step`) and who still has to choose (:meth:`Flow.waiting_for`);
* what a seat's panel holds (:meth:`Flow.panel`, :meth:`Flow.ended_panel`) and what can be drafted from it
  (:meth:`Flow.draft_items`);
* the action a locked draft or a picked item is (:meth:`Flow.lock_draft`, :meth:`Flow.pick`) and the default at a
  missed deadline (:meth:`Flow.default`), each with the kind the action log stores it under;
* the events a step adds to the engine's (:meth:`Flow.tag`, :meth:`Flow.step_started`, :meth:`Flow.timeout_event`)
  and how long a step lasts beyond the match's timer (:meth:`Flow.extra_seconds`);
* a step's move in the match file (:meth:`Flow.export_move`);
* its refusals, in its own words (:meth:`Flow.stale`, :meth:`Flow.already_chosen`, :meth:`Flow.draft_error`,
  :meth:`Flow.not_active`, :meth:`Flow.not_in_match`).

Steps can also play themselves (War): after every engine call the flow may settle what needs no decision
(:meth:`Flow.settle`, War's instant pace plays the game out there) and says which deadline comes next
(:meth:`Flow.schedule`): a step of choices with the match's timer, or an auto-played step (:meth:`Flow.play_auto`)
after a fixed pause. A match's pace (``matches.options["pace"]``, from the plugin's ``paces``) is the flow's to
read; the kernel stores it, counts the votes to change it and calls the flow again when it changes.

A step where a seat has exactly one legal action asks nothing: the kernel plays that action for the seat (human or
bot) in the transaction that made the seat wait, logs it under :attr:`Flow.only_kind` (every flow's
``choice_kinds`` include it, so the match file holds it like the game's other choices) and, when every seat the step
waits for played itself, goes on at once (:meth:`Flow.only_action` says what the one action is). A game whose one
action *is* the play (War's Flip) turns it off: :attr:`Flow.only_choices_play_themselves`.

A game played against the house for the server's chips (Casino War) says so too: the terms a player sits down on
(:meth:`Flow.chip_terms`, :meth:`Flow.with_balances`: the engine is dealt each seat's balance) and the chip
movements a step's events hold (:meth:`Flow.chip_moves`), which the kernel writes in the step's own transaction, so
a payout is stored with the step that makes it, before anything shows it, and once; such a game is not ``rated``
(each seat's outcome is its own: :meth:`Flow.outcomes`) and not played in ``tournaments``. A game whose steps are
not chosen by every seat exports each choice as a move of its own (:meth:`Flow.export_choice`).

A flow is pure: no Discord, no database. It holds no state of a match; the kernel passes it what it needs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from bot.game import Action, Event, Game
from bot.i18n import N_, Phrase
from bot.match import errors
from bot.storage.records import ActionRecord, MatchRecord
from bot.storage.settings import GuildSettings

#: the kinds of deadline a step can have (``matches.deadline_kind``)
CHALLENGE_DEADLINE = "challenge"
#: the seconds a match's timer (a step's time to choose: the challenge's own, else the server's) may be set to
TIMER_SECONDS_RANGE = (30, 600)


@dataclass(frozen=True)
class ChipTerms:
    """A game played for the server's chips: the ``stake`` a player starts with, the ``daily_topup``."""

    stake: int
    daily_topup: int


@dataclass(frozen=True)
class ChipMove:
    """One chip movement a step's events hold: ``amount`` chips to the seat's player (negative: to the house), named
    once in the match by (``hand``, ``seat``, ``kind``)."""

    hand: int
    seat: int
    kind: str
    amount: int


class NextDeadline(NamedTuple):
    """The deadline a match gets after a play (:meth:`Flow.schedule`): its ``kind`` (``matches.deadline_kind``) and
    ``seconds`` from now, or ``None`` for a step of choices: the match's timer plus :meth:`Flow.extra_seconds`."""

    kind: str
    seconds: float | None = None


@dataclass(frozen=True, kw_only=True)
class SeatPanel:
    """What a seat's panel holds in every secret-choice game; a flow's panel adds its game's own fields.

    ``locked``: the seat's choice of the step is in; ``opponent_locked``: the other seat's is; ``deadline_at``: when
    the choices are due (``None`` once the step is over); ``finished``: the match is over (disable the panel);
    ``view``: the engine's view for this seat (never the opponent's secrets), ``None`` when there is none;
    ``ended``: how a step that is over ended for the seat (``None`` while it runs; the values are the flow's).
    """

    match_id: int
    seat: int
    user_id: int
    locked: bool
    opponent_locked: bool
    deadline_at: float | None
    finished: bool
    view: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    ended: str | None = None


class Flow:
    """See the module docstring. Subclasses set the class attributes and implement the methods that raise. """

    #: the game (registered name) the flow plays, with its variants
    game: ClassVar[str] = ""
    #: ``matches.deadline_kind`` of a step's deadline
    deadline_kind: ClassVar[str] = ""
    #: the type of the event queued when seats miss a step's deadline
    timeout_event_type: ClassVar[str] = ""
    #: the action log kinds that are a seat's choice of a step (the player's and the defaults; :attr:`only_kind` is
    #: added to them by itself)
    choice_kinds: ClassVar[tuple[str, ...]] = ()
    #: event types that reveal what a seat's panel may only show once they are shown in public
    reveal_events: ClassVar[tuple[str, ...]] = ()
    #: ``matches.deadline_kind`` of an auto-played step (:meth:`play_auto`); empty: every step waits for choices
    auto_deadline_kind: ClassVar[str] = ""
    #: the action log kind of an auto-played step
    auto_kind: ClassVar[str] = "auto"
    #: a seat with exactly one legal action is not asked: the kernel plays it (logged as :attr:`only_kind`, which
    #: every such flow's ``choice_kinds`` get). A flow whose single action is how the game is played says ``False``
    #: and why (War: pressing Flip is the game).
    only_choices_play_themselves: ClassVar[bool] = True
    #: the action log kind of an action the kernel played for a seat because it was the seat's only one
    only_kind: ClassVar[str] = "only"
    #: a finished match moves the players' ratings (a game against the house does not)
    rated: ClassVar[bool] = True
    #: tournaments may play the game (a game against the house: no)
    tournaments: ClassVar[bool] = True
    #: the refusals of a lobby's Start and Cancel pressed by someone who is not its host (``{host}``: the host), and
    #: of its Leave pressed by the host
    host_starts: ClassVar[str] = N_("Only the host, {host}, can start this game.")
    host_cancels: ClassVar[str] = N_("Only the host, {host}, can cancel this lobby.")
    host_leaves: ClassVar[str] = N_("You're the host: use Cancel to close the lobby.")
    #: the seconds the match's timer may be set to, and what the game's words call it (a bad one is refused naming it)
    timer_range: ClassVar[tuple[int, int]] = TIMER_SECONDS_RANGE
    timer_name: ClassVar[str] = N_("timer")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A flow whose single choices play themselves counts them among its choices (the match file, the panels of
        steps that are over, read them as the seat's choice of the step)."""
        super().__init_subclass__(**kwargs)
        if cls.only_choices_play_themselves and cls.only_kind not in cls.choice_kinds:
            cls.choice_kinds = (*cls.choice_kinds, cls.only_kind)

    # --- steps ---------------------------------------------------------------------------------------------
    def step(self, game: Game) -> int:
        """The step the game is at (``matches.step``)."""
        raise NotImplementedError

    def waiting_for(self, game: Game) -> list[int]:
        """The seats whose choice of the current step is not in yet."""
        raise NotImplementedError

    def only_action(self, game: Game, seat: int) -> Action | None:
        """The one legal action of ``seat``, a seat the step waits for, when it has exactly one (the kernel plays it
        for the seat); ``None`` when it has a choice to make. A flow may answer faster than the engine's whole
        list, never differently."""
        legal = game.legal_actions(seat)
        return legal[0] if len(legal) == 1 else None

    def due_step(self, stored: int) -> int:
        """The step players act in (what their buttons carry), from the stored one (``matches.step``)."""
        return stored

    def step_keys(self, step: int) -> dict[str, Any]:
        """The keys that name ``step`` in the kernel's events of the game (War: ``round``)."""
        return {}

    def still_in(self, game: Game) -> list[int]:
        """The seats still playing (a forfeit, a choice or a vote by any other is refused: AlreadyOut)."""
        return list(range(game.num_players))

    def settle(self, game: Game, options: dict[str, Any], previous_step: int, *, started: bool) -> list[Event]:
        """After an engine call (``started``: the game was just dealt), before it is stored: keep the flow's own
        records in ``options`` (the match's options, stored when changed) and play what needs no decision; return
        the events that adds."""
        return []

    def schedule(self, match: MatchRecord, game: Game, options: Mapping[str, Any], *,
                 new_step: bool) -> NextDeadline | None:
        """The deadline to set after a play (``new_step``: a step began, or the pace changed); ``None``: keep the
        one the match has."""
        return NextDeadline(self.deadline_kind) if new_step else None

    def play_auto(self, game: Game) -> list[Event]:
        """Play one auto-played step for everyone (its deadline passed)."""
        raise NotImplementedError

    def check_choosing(self, match: MatchRecord) -> None:
        """Refuse every choice while the match takes none (War at a pace where the bot flips)."""

    def settings_in_force(self, stored: GuildSettings) -> GuildSettings:
        """The server's settings as the game plays by them (a game may read a stored value it no longer takes as
        something it does)."""
        return stored

    def extra_seconds(self, events: Sequence[Event], flip_pace_ms: int) -> float:
        """Seconds a new step's deadline adds to the match's timer (the time its opening events take to show)."""
        return 0.0

    # --- panels ----------------------------------------------------------------------------------------------
    def panel(self, match: MatchRecord, game: Game | None, seat: int) -> Any:
        """The seat's panel of the current step (``game`` ``None`` before the accept)."""
        raise NotImplementedError

    def ended_panel(self, match: MatchRecord, seat: int, user_id: int, step: int,
                    log: Sequence[ActionRecord]) -> Any:
        """The seat's panel of ``step``, a step that is over, as it ended for the seat (from the action log)."""
        raise NotImplementedError

    def draft_items(self, panel: Any) -> tuple[list[str], list[str]]:
        """What the seat can draft from its panel, and its draft so far; raise the flow's refusal when the step
        takes no draft (Army's rounds)."""
        raise NotImplementedError

    def locked(self, panel: Any) -> bool:
        return bool(panel.locked)

    def check_phase(self, panel: Any, *, picking: bool) -> None:
        """Refuse a choice the step does not take (``picking``: an item picked at once; else a draft locked)."""

    # --- choices -------------------------------------------------------------------------------------------
    def lock_draft(self, panel: Any) -> tuple[Action, str]:
        """The action the seat's complete draft is, and its log kind; refuse an incomplete one."""
        raise NotImplementedError

    def pick(self, panel: Any, item: str) -> tuple[Action, str]:
        """The action of picking ``item`` at once (no draft), and its log kind; refuse what can't be picked."""
        raise self.draft_error(N_("This step is chosen by building an order and confirming it."))

    def default(self, game: Game, seat: int) -> tuple[Action, str]:
        """The action a seat that missed the deadline plays, and its log kind."""
        raise NotImplementedError

    def kind_of(self, action: Action) -> str:
        """The log kind of an engine action chosen as it is (default: its type)."""
        return str(action["type"])

    # --- events ----------------------------------------------------------------------------------------------
    def tag(self, game: Game, events: Sequence[Event], previous_step: int) -> list[Event]:
        """The engine's events as queued (copies; a flow may tag them with the step they belong to)."""
        return [dict(event) for event in events]

    def step_started(self, game: Game, queued: list[Event], deadline_at: float, seconds: int) -> None:
        """A new step began with ``queued`` (tagged) events: add or mark what shows its deadline."""

    def accepted_event(self, match: MatchRecord, event: dict[str, Any]) -> Event:
        """The ``accepted`` event (``user_ids``, ``arrange_seconds``), with the game's own keys."""
        return event

    def timeout_event(self, game: Game, event: dict[str, Any], defaults: list[int]) -> Event:
        """The timeout event: ``event`` holds ``type``, ``engagement``, ``seats``, ``user_ids``, ``misses`` and
        ``forfeit``; add the game's own keys (``defaults``: seats given the default)."""
        return event

    def double_timeout(self, game: Game, reason: str) -> list[Event]:
        """Every seat missed a second deadline in a row: the game ends in a draw."""
        return game.draw(reason, "both players missed two deadlines in a row: a draw")

    # --- the match file ----------------------------------------------------------------------------------
    def export_move(self, choices: Sequence[Action]) -> dict[str, Any]:
        """One step's move of the match file from every seat's choice (in seat order)."""
        raise NotImplementedError

    def ending_move(self, move: dict[str, Any], step: int) -> dict[str, Any]:
        """A forfeit or draw move of the match file, made at ``step`` (the moves before it say where it falls)."""
        return move

    def export_choice(self, seat: int, action: Action) -> dict[str, Any] | None:
        """A seat's choice as a move of its own (``None``: moves are a step's choices of every seat together,
        :meth:`export_move`)."""
        return None

    # --- chips and results -----------------------------------------------------------------------------------
    def chip_terms(self, rules: Mapping[str, Any]) -> ChipTerms | None:
        """The terms a player sits down on, for a game played for the server's chips (``None``: no chips)."""
        return None

    def with_balances(self, rules: Mapping[str, Any], balances: Sequence[int]) -> dict[str, Any]:
        """The rules the game is dealt with, given each seat's balance as it sat down."""
        return dict(rules)

    def chip_moves(self, events: Sequence[Event]) -> list[ChipMove]:
        """The chip movements the engine's events of a step hold."""
        return []

    def places(self, game: Game) -> list[int] | None:
        """Each seat's finishing place in a finished game (1: first; seats that finished together share a place),
        when the game ranks more than its winner (``None``: the winner first, everyone else second)."""
        return None

    def outcomes(self, game: Game) -> list[str] | None:
        """Each seat's outcome (win, loss, draw) of a game that is not won by one seat (``None``: from the
        winner)."""
        return None

    # --- refusals ------------------------------------------------------------------------------------------
    def stale(self, step: int, current: int) -> Exception:
        raise NotImplementedError

    def already_chosen(self, step: int) -> Exception:
        raise NotImplementedError

    def draft_error(self, message: str | Phrase) -> Exception:
        """The refusal of a draft's change (``message``: a template marked with ``N_``, or a
        :class:`~bot.i18n.Phrase`)."""
        raise NotImplementedError

    def not_active(self, status: str) -> Exception:
        """A play, a vote or a forfeit on a match that is not being played (``status``: challenge, or over)."""
        return errors.MatchNotActive(status)

    def not_in_match(self, title: str) -> Exception:
        """``forfeit`` or ``status`` by a user without an open match of the game."""
        return errors.NotInMatch(title)

    def not_yours(self, item: str) -> str | Phrase:
        """The words for a tap on an item the seat does not have (``item`` as :meth:`item_label` shows it)."""
        return Phrase(N_("{item} is not yours to place."), item=item)

    def pace_words(self, pace: str) -> str | Phrase:
        """A pace as a player's text names it (a game with paces words its own)."""
        return pace

    def item_label(self, item: str) -> str:
        """A draft's item as the panel's buttons show it (a card game: ``A♦``)."""
        return item
