"""Air War in every language: every surface of two-, three- and four-player games rendered in the pseudo-language
(every catalogue string's letters swapped, :mod:`tests.bot.i18n.pseudo`) shows no plain English word but names,
and the surfaces in real languages (German, Russian) are the catalogues' translations -- the engine's refusals, the
flow's, the practice match's hint and accuracy too."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.errors import GameError, IllegalAction
from bot.games.airwar import practice, render, render_many
from bot.games.airwar.engine import AirWar
from bot.games.airwar.flow import AirWarFlow
from bot.i18n import N_, Phrase, texts
from bot.render.common import ButtonSurface, Surface, cards_line, timestamp
from bot.render.practice import accuracy
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language

NAMES = ["Alice", "Bob", "Cyril", "Dora"]
DEADLINE = 1_700_000_000
RATINGS = [{"before": 10.0, "after": 12.25, "games": 4}, {"before": 9, "after": 7, "games": 2},
           {"before": 9, "after": 8, "games": 9}, {"before": 11, "after": 12, "games": 9}]
#: how a game can end (reason, winner), two players and three or four
ENDINGS = {2: [("short_stack", None), ("short_stack", 0), ("out_of_cards", None), ("out_of_cards", 1),
               ("forfeit", 0), ("timeout", 1), ("double_timeout", None)],
           3: [("short_stack", None), ("short_stack", 0), ("most_cards", None), ("most_cards", 2),
               ("out_of_cards", None), ("out_of_cards", 1), ("forfeit", 0), ("timeout", 1), ("double_timeout", None)]}


def shown(item: object) -> Iterator[str]:
    """Every text a surface shows: title, text, button labels (or the text itself)."""
    if isinstance(item, str):
        yield item
        return
    assert isinstance(item, Surface)
    assert item.picture is None  # every Air War surface is text alone
    yield item.title
    yield item.text
    if isinstance(item, ButtonSurface):
        yield from (button.label for button in item.buttons)


def english(items: list[object], names: list[str]) -> list[str]:
    return [f"{words} in {text!r}" for item in items for text in shown(item)
            if (words := english_left(text, names))]


def order(cards: list[str]) -> dict:
    return {"type": "order", "cards": list(cards)}


def surfaces_of_a_game(players: int, seed: int, say) -> list[object]:
    """Every surface of a whole game (played with random orders, a forfeit on the way for more than two): boards,
    every frame of every engagement's flips, panels arranging, locked and closed, statuses, notices, the result."""
    names = NAMES[:players]
    rng = random.Random(seed)
    game = AirWar.new({"players": players, "stack": 3}, seed=seed)
    events = list(game.opening_events)
    found: list[object] = []
    forfeited = False
    while not game.is_over:
        view = game.view(None)
        found.append(render.board(view, names, deadline=DEADLINE, say=say))
        found.append(render.board(view, names, ended=True, say=say))
        playing = [seat for seat in range(players) if view.get("in_game", [True] * players)[seat]]
        first = playing[0]
        found.append(render.dm_panel(game.view(first), names, draft=view["stacks"][first][:1], deadline=DEADLINE,
                                     say=say))
        found.append(render.status(game.view(first), names, deadline=DEADLINE, draft=view["stacks"][first][:2],
                                   say=say))
        found.append(render.status(game.view(None), names, deadline=DEADLINE, say=say))
        for ended in ("as_drawn", "timeout", "over", None):
            found.append(render.dm_panel(game.view(first), names, closed=render.panel_closed(ended, say),
                                         say=say))
        if players > 2 and not forfeited and game.engagement == 2:
            forfeited = True
            out = playing[-1]
            events += game.forfeit(out)
            for seat in range(players):
                found.append(render.dm_panel(game.view(seat), names, say=say))
            continue
        for seat in playing:
            stack = list(game.view(seat)["stacks"][seat])
            rng.shuffle(stack)
            events += game.apply(seat, order(stack))
            if not game.is_over and seat == first:
                found.append(render.dm_panel(game.view(seat), names, deadline=DEADLINE, say=say))
                found.append(render.status(game.view(seat), names, say=say))
        number = view["engagement"]
        total = render.flip_count(events, number)
        for frame in range(total + 1):
            found.append(render.flips(events, names, frame, engagement=number, say=say))
        found.append(render.engagement_summary(events, names, engagement=number, say=say))
    final = game.view(None)
    found.append(render.result(final, names, ratings=RATINGS[:players], say=say))
    found.append(render.dm_panel(game.view(0), names, say=say))
    found.append(render.status(game.view(0), names, say=say))
    for reason, winner in ENDINGS[min(players, 3)]:
        found.append(render.reason_text({"winner": winner, "reason": reason, "deck_counts": [3] * players},
                                        names, stack_size=5, say=say))
    found += notices(names, say)
    return found


def notices(names: list[str], say) -> list[str]:
    both = [0, 1]
    return [render.afk(names, [1], 4, say=say), render.afk(names, both, 4, say=say),
            render.afk(names, both, 4, forfeit=[0], say=say), render.afk(names, both, 4, forfeit=both, say=say),
            render.afk(names, [0, 1, 2][:len(names)], 4, forfeit=[1], say=say),
            render.deadline_moved(names, 3, DEADLINE, say=say),
            render.deadline_moved(names, 3, DEADLINE, waiting=(), say=say),
            render.thread_lost(names, say=say), render.forfeited(names, 1, say=say)]


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (2, 8), (3, 5), (4, 6)])
def test_every_surface_of_a_whole_game_in_the_pseudo_language_has_no_english(players, seed):
    with pseudo_language():
        say = texts(PSEUDO)
        found = surfaces_of_a_game(players, seed, say)
        assert english(found, NAMES) == []
    # ... and in English, the same surfaces do show English (the check sees it)
    assert english(surfaces_of_a_game(players, seed, texts("en")), NAMES)


def test_the_order_buttons_and_a_panel_in_german_are_the_catalogues():
    say = texts("de")
    game = AirWar.new(seed=2)
    view = game.view(0)
    panel = render.dm_panel(view, NAMES[:2], draft=view["stacks"][0][:1], deadline=DEADLINE, say=say)
    assert panel.title == say("{game} — engagement {number}: your battle order", game="Luftkrieg", number=1)
    english = ["Undo", "Reset", "Random", "As drawn", "Lock in"]
    labels = [button.label for button in panel.buttons][-5:]
    assert labels == [say(label) for label in english] and not set(labels) & set(english)
    assert labels[0] == "Rückgängig" and labels[-1] == "Festlegen"
    lines = panel.text.split("\n")
    assert lines[0] == (say("Deadline: {when}, then your stack plays as drawn.", when=timestamp(DEADLINE)) + " "
                        + say("**{player}** is still arranging.", player="Bob"))
    assert lines[1].startswith("**Deine Reihenfolge:** 1 ")
    assert lines[3].startswith("Dein Deck: 47 Karten, alle unbekannt · Ablagestapel 0")
    assert lines[-1] == "-# " + say("Tap your cards in the order to play them, then lock in.")
    assert lines[2] == say("**{player}'s stack:** {cards}", player="Bob", cards=cards_line(game.view(1)["stacks"][1]))
    assert lines[2].startswith("**Stapel von Bob:** ")


def test_notices_and_a_three_player_result_in_russian():
    say = texts("ru")
    assert render.afk(NAMES[:2], [1], 4, say=say) == (
        "⏰ Время вышло в бою 4: **Bob** не зафиксировал(а) порядок, поэтому стопка Bob играет в порядке набора.\n"
        "-# Второй пропущенный подряд срок — техническое поражение.")
    assert render.thread_lost(NAMES[:2], say=say) == (
        "⚠️ Ветка матча «Воздушная война» **Alice** против **Bob** пропала, поэтому матч продолжается здесь.")
    game = AirWar.new({"players": 3, "stack": 3}, seed=4)
    game.forfeit(2)
    game.forfeit(1)
    result = render.result(game.view(None), NAMES[:3], say=say)
    assert result.title == say("{game} — {player} wins", game="Воздушная война", player="Alice")
    assert say("{player} is the last one standing: the last opponent forfeited.", player="Alice") in result.text
    assert "выбыл(а) первым" in result.text and "выбыл(а) вторым" in result.text
    assert english_left(result.text + result.title, NAMES) == []


def test_the_engines_refusals_in_the_players_language():
    game = AirWar.new(seed=1)
    stack = game.view(0)["stacks"][0]
    stranger = next(card for card in AirWar.new(seed=2).view(0)["stacks"][0] if card not in stack)
    refusals: list[GameError] = []
    for cards in (stack[:2], [stack[0]] * 5, [stranger, *stack[1:]], "QS"):
        with pytest.raises(IllegalAction) as raised:
            game.apply(0, {"type": "order", "cards": cards})
        refusals.append(raised.value)
    with pytest.raises(IllegalAction) as raised:
        game.apply(0, {"type": "draw"})
    refusals.append(raised.value)
    game.apply(0, order(stack))
    with pytest.raises(IllegalAction) as raised:
        game.apply(0, order(stack))
    refusals.append(raised.value)
    de = texts("de")
    for error in refusals:
        assert error.said(de) == de(error.template, **error.params)
        assert error.said(de) != str(error)
    with pseudo_language():
        for error in refusals:
            assert english_left(error.said(texts(PSEUDO)), ["draw"]) == [], error  # (the action asked for)


def test_the_flows_refusals_in_the_players_language():
    flow = AirWarFlow()
    de = texts("de")
    assert flow.stale(2, 3).said(de) == ("Dieses Panel gehört zu Gefecht 2, das schon vorbei ist; nimm das Panel "
                                         "für Gefecht 3.")
    assert flow.already_chosen(4).said(de) == "Schon erledigt: Deine Schlachtordnung für Gefecht 4 ist festgelegt."
    assert flow.draft_error(flow.not_yours("Q♠")).said(de) == "Q♠ ist nicht in deinem Stapel."
    placed = Phrase(N_("{item} is already placed."), item="Q♠")  # (the kernel's refusal)
    assert flow.draft_error(placed).said(texts("fr")) == "Tu as déjà placé Q♠."
    assert str(flow.stale(2, 3)) == "This panel is for engagement 2, which is over; use the panel for engagement 3."


def test_the_practice_hint_and_accuracy_in_the_players_and_servers_language():
    data = {"best": ["2C", "QS", "10H"], "reason": {"kind": "last", "mine": "10H", "theirs": "KD"},
            "alike": {"kind": "first", "card": "2C"}, "close": None, "draft": "weaker"}
    assert practice.hint(data) == (
        "💡 **Hint:** play **2♣ Q♠ 10♥**. Your 10♥ comes last, when my K♦ is most likely spent.\n"
        "Any order with 2♣ first works as well.\n"
        "Your order as it stands is weaker than the best.")
    de = texts("de")
    assert practice.hint(data, de) == (
        "💡 **Tipp:** spiel **2♣ Q♠ 10♥**. 10♥ kommt bei dir zuletzt, wenn ich K♦ höchstwahrscheinlich schon "
        "gespielt habe.\nJede Reihenfolge mit 2♣ an erster Stelle ist genauso gut.\n"
        "Deine aktuelle Reihenfolge ist schwächer als die beste.")
    fights = {**data, "reason": {"kind": "fights", "won": 2, "count": 3}, "alike": None, "close": ["QS", "2C", "10H"],
              "draft": None}
    assert practice.hint(fights) == (
        "💡 **Hint:** play **2♣ Q♠ 10♥**. Against my best play it wins about 2 of the 3 fights, and no order of yours "
        "gets more out of this engagement.\n"
        "Almost as good: **Q♠ 2♣ 10♥**.\n"
        "-# Place every card to see how your order compares.")
    anything = {**data, "alike": {"kind": "any"}, "draft": "best"}
    assert practice.hint(anything) == (
        "💡 **Hint:** any order works as well here: against my best play they all come out the same.\n"
        "Your order as it stands is one of the best.")
    players = {0: {"accuracy": 87.4,
                   "costliest": {"step": 4, "best": ["QS", "5D", "KC"], "played": ["KC", "QS", "5D"]}}}
    assert accuracy(players, ["<@1>", "<@2>"], "engagement") == (
        "🎯 <@1>, your accuracy: **87%** (how close your orders came to the best order; 100% = the best order every "
        "engagement).\nYour costliest engagement: **4** — the best order there was Q♠ 5♦ K♣; you played K♣ Q♠ 5♦.")
    assert accuracy({1: {"accuracy": 100.0, "costliest": None}}, ["<@1>", "<@2>"], "engagement",
                    texts("ru")) == (
        "🎯 <@2>, твоя точность: **100%** (насколько твои порядки были близки к лучшему порядку; 100% = лучший "
        "порядок в каждом бою).\nКаждый твой ход был лучшим.")
    with pseudo_language():
        say = texts(PSEUDO)
        texts_shown = [practice.hint(data, say), practice.hint(fights, say), practice.hint(anything, say),
                       accuracy(players, ["<@1>", "<@2>"], "engagement", say)]
        for kind in ("last", "not_first", "not_last", "kept", "count"):
            alike = {"kind": kind, "card": "2C", "cards": ["2C"], "count": 3}
            texts_shown.append(practice.hint({**data, "reason": {"kind": "spent", "mine": "2C", "theirs": "KD"},
                                              "alike": alike}, say))
        for text in texts_shown:
            assert english_left(text) == [], text


def test_a_three_player_lobby_and_its_start_in_the_pseudo_language():
    with pseudo_language():
        say = texts(PSEUDO)
        lobby = render_many.lobby(["<@1>", "<@2>", "<@3>"], {"stack": 3}, expires_at=DEADLINE, say=say)
        assert english([lobby, render_many.started(["<@1>", "<@2>", "<@3>"], "<#9>", say)], []) == []
