"""The engine contract (``bot.game.Game``), checked for every registered game and variant at every player
count its rules allow, and with mixed rules: determinism, JSON round trips mid-game, card conservation, hidden
information (no view names a card ``hidden_from`` its viewer; a choice made in secret shows nobody else anything) and
atomic ``apply``. Games are driven to their end by random legal choices through the base-class API only, so a game
registered later is covered as it is."""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import pytest

from bot.errors import GameError, InvalidRules
from bot.game import Action, Event, Game
from bot.registry import GameEntry, registry

#: Each registered name is played with its default rules, at every player count it allows, from these seeds...
SEEDS = (0, 1)
#: ...and this many times with rules of its own, each from another seed.
MIXED_PLAYS = 3
#: Mixed rules draw a whole number between an option's minimum and this much above it, small ones more often.
MIXED_SPAN = 100
#: Far more than any registered game needs to end (War runs longest, a couple of thousand flips).
MAX_STEPS = 5_000
#: How often an automatic game plays a whole round by ``play_out`` instead of one seat's action.
PLAY_OUT_SHARE = 0.3
#: Steps at which the atomicity test tries illegal actions: the first few, then every so often.
PROBE_FIRST, PROBE_EVERY = 8, 100
CARD_TOKEN = re.compile(r"[0-9A-Za-z]+")

#: One step of a game: a seat's action, or ``None`` for one round of ``play_out`` (automatic games).
Move = tuple[int, Action] | None


@dataclass(frozen=True)
class Case:
    entry: GameEntry
    rules: dict[str, Any]

    @property
    def engine(self) -> type[Game]:
        return self.entry.engine

    def new(self, seed: int) -> Game:
        return self.engine.new(self.rules, seed)


def mixed_rules(engine: type[Game], index: int, picker: random.Random) -> dict[str, Any]:
    """Rules for the ``index``-th mixed play: each option with a few values takes them in turn from play to play, so
    that a few plays see them all, and at random when the engine refuses the combination (the defaults if it always
    does). Whole numbers lean towards their minimum, so that caps such as ``max_rounds`` end some games."""
    for attempt in range(100):
        rules: dict[str, Any] = {}
        for number, option in enumerate(engine.options):
            if option.choices is not None or isinstance(option.default, bool):
                values = option.choices if option.choices is not None else (False, True)
                turn = index + number if attempt == 0 else picker.randrange(len(values))
                rules[option.key] = values[turn % len(values)]
            elif option.minimum is not None and option.maximum is not None:
                span = min(option.maximum - option.minimum, MIXED_SPAN)
                rules[option.key] = option.minimum + int(math.exp(picker.uniform(0, math.log(span + 2)))) - 1
        try:
            engine.new(rules, 0)
        except InvalidRules:
            continue
        return rules
    return {}


def plays() -> Iterator[Any]:
    """(case, seed) for every registered name: its default rules at each player count it allows, and mixed rules."""
    for entry in registry().entries():
        engine = entry.engine
        if any(option.key == "players" for option in engine.options):
            defaults = [(Case(entry, {"players": n}), f"{entry.name}-{n}p")
                        for n in range(engine.min_players, engine.max_players + 1)]
        else:
            defaults = [(Case(entry, {}), entry.name)]
        for case, name in defaults:
            for seed in SEEDS:
                yield pytest.param(case, seed, id=f"{name}-{seed}")
        picker = random.Random(f"rules-{entry.name}")
        standard = {option.key: option.default for option in engine.options}
        for index in range(MIXED_PLAYS):
            rules = mixed_rules(engine, index, picker)
            seed = picker.randrange(2**32)
            changed = ",".join(f"{key}={value}" for key, value in rules.items() if value != standard[key])
            yield pytest.param(Case(entry, rules), seed, id=f"{entry.name}({changed})-{seed}")


PLAYS = list(plays())


@dataclass
class Playthrough:
    """A game driven to its end: the moves made and the events of each."""

    opening: list[Event]
    moves: list[Move] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)


def choose(game: Game, chooser: random.Random) -> Move:
    seats = game.pending_seats()
    if game.automatic and (not seats or chooser.random() < PLAY_OUT_SHARE):
        return None
    assert seats, f"{game.name} is not over, is not automatic and nobody has anything to decide"
    seat = chooser.choice(seats)
    actions = game.legal_actions(seat)
    assert actions, f"seat {seat} is pending in {game.name} but has no legal action"
    return seat, json.loads(json.dumps(chooser.choice(actions)))


def make(game: Game, move: Move) -> list[Event]:
    if move is None:
        events = game.play_out(max_steps=1)
        assert events or game.is_over, f"play_out in {game.name} made no progress"
        return events
    seat, action = move
    return game.apply(seat, json.loads(json.dumps(action)))


def play(case: Case, seed: int, check: Callable[[Game, int], None] | None = None) -> tuple[Game, Playthrough]:
    """Random legal play to the end; ``check(game, step)`` before the first move and after every move."""
    game = case.new(seed)
    chooser = random.Random(f"choices-{case.entry.name}-{json.dumps(case.rules, sort_keys=True)}-{seed}")
    record = Playthrough(opening=list(game.opening_events))
    if check:
        check(game, 0)
    while not game.is_over:
        assert len(record.moves) < MAX_STEPS, f"{game.name} did not end within {MAX_STEPS} steps"
        move = choose(game, chooser)
        record.moves.append(move)
        record.events.append(make(game, move))
        if check:
            check(game, len(record.moves))
    assert game.pending_seats() == []
    assert all(game.legal_actions(seat) == [] for seat in range(game.num_players))
    return game, record


def all_cards(game: Game) -> Counter[str]:
    return Counter(card for cards in game.card_locations().values() for card in cards)


def named_words(view_json: str) -> set[str]:
    """Every word of a view's JSON text: a card named anywhere, in a list or in a sentence, is one of them (numbers
    and JSON words are too, but no card is written without its suit)."""
    return set(CARD_TOKEN.findall(view_json))


def viewers(game: Game) -> list[int | None]:
    return [None, *range(game.num_players)]


def leaks(game: Game, viewer: int | None, total: Counter[str], hidden: Counter[str]) -> list[str]:
    """The cards the view of ``viewer`` names although every copy of them in play (``total``) is ``hidden`` from it."""
    text = json.dumps(game.view(viewer))
    unseen = {card for card, copies in hidden.items() if copies >= total[card]}
    return sorted(unseen.intersection(named_words(text)))


def within(part: Counter[str], whole: Counter[str]) -> bool:
    return all(whole[card] >= copies for card, copies in part.items())


def check_views_hide(game: Game) -> None:
    total = all_cards(game)
    spectator = game.hidden_from(None)
    assert isinstance(spectator, Counter)
    assert within(spectator, total), f"hidden_from(None) holds cards that are not in play: {spectator - total}"
    for viewer in viewers(game):
        hidden = spectator if viewer is None else game.hidden_from(viewer)
        assert isinstance(hidden, Counter)
        assert within(hidden, spectator), f"seat {viewer} has more hidden than a spectator: {hidden - spectator}"
        leaked = leaks(game, viewer, total, hidden)
        assert not leaked, f"the view of {viewer} names {leaked}, hidden from it"


# --- 1. determinism --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("case", "seed"), PLAYS)
def test_the_same_rules_seed_and_choices_give_the_same_game(case, seed):
    first_game, first = play(case, seed)
    second_game, second = play(case, seed)
    assert second.opening == first.opening
    assert second.moves == first.moves
    assert second.events == first.events
    assert second_game.to_json() == first_game.to_json()
    assert second_game.outcome == first_game.outcome

    replayed = case.new(seed)  # the same moves without the chooser: nothing but rules, seed and actions count
    assert [make(replayed, move) for move in first.moves] == first.events
    assert replayed.to_json() == first_game.to_json()


# --- 2. JSON round trip ----------------------------------------------------------------------------------------


def checkpoints(length: int, seed: int) -> list[int]:
    """The start, the first steps, a few random points and the last step before the end."""
    picker = random.Random(f"checkpoints-{seed}")
    points = {0, 1, 2, length - 1, *(picker.randrange(length) for _ in range(3))}
    return sorted(point for point in points if 0 <= point < length)


@pytest.mark.parametrize(("case", "seed"), PLAYS)
def test_a_json_round_trip_mid_game_has_the_same_future(case, seed):
    original, record = play(case, seed)
    final = original.to_json()
    shadow = case.new(seed)  # the original's past, step by step, to compare what the restored game shows
    done = 0
    for step in checkpoints(len(record.moves), seed):
        for move in record.moves[done:step]:
            make(shadow, move)
        done = step
        restored = case.engine.from_json(json.loads(json.dumps(shadow.to_json())))
        assert restored.to_json() == shadow.to_json(), f"step {step}: from_json(to_json()) is another state"
        assert restored.pending_seats() == shadow.pending_seats()
        for viewer in viewers(shadow):
            view = shadow.view(viewer)
            assert json.loads(json.dumps(view)) == view, f"step {step}: the view of {viewer} is not JSON as it is"
            assert restored.view(viewer) == view, f"step {step}: the view of {viewer} changed"
            assert restored.hidden_from(viewer) == shadow.hidden_from(viewer)
        future = [make(restored, move) for move in record.moves[step:]]
        assert future == record.events[step:], f"the game restored at step {step} went another way"
        assert restored.to_json() == final, f"the game restored at step {step} ended in another state"
        assert restored.outcome == original.outcome

    ended = case.engine.from_json(json.loads(json.dumps(final)))
    assert ended.to_json() == final and ended.is_over and ended.pending_seats() == []
    for viewer in viewers(ended):
        assert ended.view(viewer) == original.view(viewer)
        assert ended.hidden_from(viewer) == original.hidden_from(viewer)


# --- 3. card conservation --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("case", "seed"), PLAYS)
def test_no_card_is_created_or_lost(case, seed):
    start = all_cards(case.new(seed))
    assert start, "a game starts with cards"

    def check(game: Game, step: int) -> None:
        places = game.card_locations()
        assert all(isinstance(card, str) for cards in places.values() for card in cards)
        now = all_cards(game)
        assert now == start, f"step {step}: gained {now - start}, lost {start - now}"

    play(case, seed, check)


# --- 4. hidden information -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("case", "seed"), PLAYS)
def test_no_view_names_a_card_hidden_from_its_viewer(case, seed):
    def check(game: Game, step: int) -> None:
        try:
            check_views_hide(game)
        except AssertionError as error:
            raise AssertionError(f"step {step}: {error}") from None

    play(case, seed, check)


def clone(game: Game) -> Game:
    return type(game).from_json(json.loads(json.dumps(game.to_json())))


@pytest.mark.parametrize(("case", "seed"), PLAYS)
def test_a_choice_made_while_others_still_choose_shows_them_nothing(case, seed):
    """Hidden information that is no card: which of its options a seat chose (Air War's order of a stack everyone
    sees, Army's arrangement of its armies). While another seat is still to decide, two different choices must give
    the same events and the same view to everyone but the seat that chose."""
    chooser = random.Random(f"secret-{seed}")
    counts: Counter[str] = Counter()

    def check(game: Game, step: int) -> None:
        pending = game.pending_seats()
        for seat in pending:
            actions = game.legal_actions(seat)
            waiting = [other for other in pending if other != seat]
            if len(actions) < 2 or not waiting:
                continue
            counts["choices"] += 1
            first, second = chooser.sample(actions, 2)
            games = [clone(game), clone(game)]
            events = [games[0].apply(seat, first), games[1].apply(seat, second)]
            if any(set(waiting) - set(twin.pending_seats()) for twin in games):
                continue  # the choice ended the phase: everything may be revealed now
            assert events[0] == events[1], f"step {step}: seat {seat}'s choice shows in the events"
            for viewer in viewers(game):
                if viewer != seat:
                    assert games[0].view(viewer) == games[1].view(viewer), (
                        f"step {step}: seat {seat}'s choice shows in the view of {viewer}"
                    )
            counts["compared"] += 1

    play(case, seed, check)
    assert counts["compared"] or not counts["choices"], "every choice ended its phase: nothing was compared"


@pytest.mark.parametrize("entry", registry().entries(), ids=lambda entry: entry.name)
def test_the_hidden_card_check_catches_a_view_that_shows_the_saved_state(entry, monkeypatch):
    """The check itself: a view that also carries ``to_json()`` (every card, face down or not) must fail it for
    every viewer from whom some card is wholly hidden."""
    game = entry.engine.new({}, SEEDS[0])
    total = all_cards(game)
    secretive = [viewer for viewer in viewers(game)
                 if any(copies >= total[card] for card, copies in game.hidden_from(viewer).items())]
    if not secretive:
        pytest.skip(f"{entry.name} hides no card at its start")
    check_views_hide(game)
    honest = entry.engine.view
    monkeypatch.setattr(entry.engine, "view", lambda self, seat: {**honest(self, seat), "state": self.to_json()})
    for viewer in secretive:
        assert leaks(game, viewer, total, game.hidden_from(viewer)), f"the state shown to {viewer} went unnoticed"


# --- 5. atomic apply -------------------------------------------------------------------------------------------

JUNK_ACTIONS: tuple[Any, ...] = (None, 42, "flip", [], {}, {"type": None}, {"type": "no such action"})
JUNK_VALUES: tuple[Any, ...] = (None, 42, "", "not a card", "ZZ", [], ["ZZ"], {"ZZ": 1})
JUNK_MOVES: tuple[Any, ...] = (None, 42, "move", [], {}, {"no such move": []})


def canonical(action: Any) -> str:
    return json.dumps(action, sort_keys=True)


def sample_actions(actions: list[Action], chooser: random.Random) -> list[Action]:
    if len(actions) <= 3:
        return actions
    return [actions[0], actions[-1], chooser.choice(actions)]


def mangled(action: Action, measured: tuple[str, ...] = ()) -> Iterator[Action]:
    """The action with one value replaced by junk, or a list value cut short or given one card twice (a value the
    game measures rather than offers, Speed War's reaction time, takes any whole number: junk only)."""
    for key, value in action.items():
        for junk in JUNK_VALUES:
            if key in measured and isinstance(junk, int) and not isinstance(junk, bool) and junk >= 0:
                continue
            yield {**action, key: junk}
        if isinstance(value, list) and value:
            yield {**action, key: value[:-1]}
            yield {**action, key: [*value, value[0]]}


def illegal_actions(
    game: Game, actions: dict[int, list[Action]], chooser: random.Random, earlier: list[Action]
) -> Iterator[tuple[Any, Any]]:
    """(seat, action) pairs the rules refuse now: ``actions`` holds each seat's legal actions, ``earlier`` actions
    that were legal before."""
    seats = range(game.num_players)
    legal = {seat: {canonical(action) for action in actions[seat]} for seat in seats}
    samples = {seat: sample_actions(actions[seat], chooser) for seat in seats}
    anything = [action for seat in seats for action in samples[seat]] + earlier[-3:]
    for seat in (-1, game.num_players, "0", None, True):
        for action in anything:
            yield seat, action
    for seat in seats:
        for action in anything:
            if canonical(action) not in legal[seat]:  # another seat's action, or any of a seat with nothing to do
                yield seat, action
        for action in JUNK_ACTIONS:
            yield seat, action
        for action in samples[seat]:
            for bad in mangled(action, getattr(game, "measured", ())):
                if canonical(bad) not in legal[seat]:
                    yield seat, bad


def assert_refused(game: Game, before: dict[str, Any], attempt: Callable[[], object], what: str) -> None:
    try:
        attempt()
    except GameError:
        pass
    else:
        pytest.fail(f"{what} was accepted")
    assert game.to_json() == before, f"{what} was refused but changed the game"


@pytest.mark.parametrize(("case", "seed"), PLAYS)
def test_an_illegal_action_raises_a_game_error_and_changes_nothing(case, seed):
    chooser = random.Random(f"illegal-{seed}")
    tried: Counter[str] = Counter()
    earlier: list[Action] = []

    def check(game: Game, step: int) -> None:
        if step >= PROBE_FIRST and step % PROBE_EVERY and not game.is_over:
            return
        before = game.to_json()
        actions = {seat: game.legal_actions(seat) for seat in range(game.num_players)}
        earlier.extend(legal[0] for legal in actions.values() if legal)
        for seat, action in illegal_actions(game, actions, chooser, earlier):
            what = f"step {step}: {action!r} from seat {seat!r}"
            assert_refused(game, before, partial(game.apply, seat, action), what)
            tried["actions"] += 1
        for move in JUNK_MOVES:
            assert_refused(game, before, partial(game.apply_move, move), f"step {step}: the move {move!r}")
        if game.is_over:
            tried["over"] += 1

    play(case, seed, check)
    assert tried["actions"] and tried["over"] == 1
