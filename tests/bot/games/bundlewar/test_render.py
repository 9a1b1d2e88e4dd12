"""Bundle War's words in every language: each surface said in German or Russian is the catalogue's translation
with no English left, and in the pseudo-language (every catalogue string's letters swapped) no plain English word
shows anywhere; English stays as it was."""

from __future__ import annotations

import pytest

from bot.errors import NotYourTurn
from bot.games.bundlewar import render
from bot.games.bundlewar.engine import BundleWar
from bot.games.bundlewar.flow import NOT_OPEN, AlreadyChosen, BundlePanel, StaleStep, choice_error
from bot.i18n import texts
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language

NAMES = ["<@1>", "<@2>", "<@3>"]
PLAIN = ["Anna", "Ben", "Cara"]
RULES = {"pack": 32, "max_rounds": 200, "players": 3}
TOPS = ["QS", None, "7H"]
TURN = {"type": "turn", "step": 4, "round": 2, "phase": "decide", "seats": [0, 2], "tops": TOPS,
        "counts": [12, 1, 21]}
STEP = {"type": "step_played", "step": 4, "round": 2, "played": [{"seat": 0, "card": "9D"}],
        "steals": [{"seat": 2, "victim": 0, "card": "QH", "cards": 5}, {"seat": 1, "victim": 2, "card": "7C",
                                                                        "cards": 1}],
        "failed": [1], "protected": [0], "tops": TOPS, "counts": [12, 1, 21]}
BATTLES = [{"type": "battle", "round": 2, "cards": ["9D", None, "KC"], "winner": 2, "tied": []},
           {"type": "battle", "round": 2, "cards": ["KD", None, "KC"], "winner": None, "tied": [0, 2]}]
TAKES = [{"type": "take", "round": 2, "seat": 2, "cards": 6, "top": "KC"},
         {"type": "take", "round": 2, "seat": 2, "cards": 1, "top": None}]
OUT = {"type": "out", "round": 2, "seat": 1, "reason": "short_war"}
ROUND = [TURN, STEP, BATTLES[1], {"type": "war", "round": 2, "seats": [0, 2]}, OUT,
         {"type": "turn_timeout", "seats": [0]}, BATTLES[0], TAKES[0]]
RATINGS = [{"before": 1500.0, "after": 1583.0, "games": 1}, None, {"before": 1500.0, "after": 1456.0, "games": 30}]


def panel_of(**changes) -> BundlePanel:
    view = {"phase": "decide", "looking": "QD", "tops": TOPS}
    fields = dict(match_id=1, seat=0, user_id=1, locked=False, opponent_locked=False, deadline_at=1_800_000_000,
                  finished=False, view=view, step=4, choices=("play", "steal:0"))
    fields.update(changes)
    return BundlePanel(**fields)


PANELS = [panel_of(), panel_of(view={"phase": "top", "tops": TOPS}, choices=("top:KC", "top:9D")),
          panel_of(choices=()), panel_of(ended="played", finished=True)]


def every_text(say) -> list[str]:
    """Every text Bundle War's render makes, in ``say``'s language."""
    made = [render.rules_line(RULES, say), *render.step_lines(STEP, NAMES, say),
            *(render.battle_line(battle, NAMES, say) for battle in BATTLES),
            *(render.take_line(take, NAMES, say) for take in TAKES), render.war_line([0, 2], NAMES, say),
            *(render.out_line({"seat": 1, "reason": reason}, NAMES, say) for reason in ("short_war", "no_cards",
                                                                                         "forfeit")),
            render.timeout_line({"seats": [0, 1]}, NAMES, say),
            render.status({"round": 2, "tops": TOPS, "counts": [12, 1, 21], "looking": "QD"}, NAMES, say),
            render.started(NAMES, say), render.ping_note(NAMES[:2], say)]
    for surface in (render.round_over(2, render.round_lines(ROUND, NAMES, say), say),
                    render.board(TURN, NAMES, deadline=1_800_000_000, say=say),
                    render.board({**TURN, "phase": "top", "seats": [2]}, NAMES, deadline=None, say=say),
                    render.lobby(NAMES, RULES, expires_at=1_800_000_000, say=say),
                    render.challenge(NAMES[0], NAMES[1], RULES, expires_at=1_800_000_000, say=say),
                    *(render.panel(panel, NAMES, say) for panel in PANELS),
                    *(render.result({"winner": winner, "reason": reason}, NAMES, PLAIN, ratings=RATINGS, say=say)
                      for winner, reason in ((0, "last_standing"), (None, "all_out"), (None, "capped"),
                                             (1, "forfeit"), (2, "timeout")))):
        made += [surface.title, surface.text, *(button.label for button in getattr(surface, "buttons", ()))]
    made += [StaleStep(3, 4).said(say), AlreadyChosen(3).said(say), choice_error(NOT_OPEN).said(say)]
    return made


def test_english_stays_as_it_was():
    panel = render.panel(panel_of(), NAMES)
    assert panel.title == "Bundle War — step 4"
    assert panel.text.startswith("You look at **Q♦**.")
    assert [button.label for button in panel.buttons] == ["Play Q♦", "Steal the Q♠ pile"]  # (no mention in a label)
    assert "You can steal <@1>'s pile, **Q♠** on top." in panel.text
    lines = render.round_lines(ROUND, NAMES).split("\n")  # a round's lines, in order, one per thing that happened
    assert lines[0] == "<@1> plays **9♦**." and lines[-1] == "<@3> takes 6 cards to their pile, **K♣** on top."
    assert len(lines) == len(render.step_lines(STEP, NAMES)) + 6
    assert render.round_over(2, "\n".join(lines)).title == "Bundle War — round 2"
    lines = render.step_lines(STEP, NAMES)
    assert "🫳 <@3> steals <@1>'s pile with **Q♥** (5 cards)." in lines
    assert "🫳 <@2> steals <@3>'s pile with **7♣** (1 card)." in lines
    assert render.take_line(TAKES[0], NAMES) == "<@3> takes 6 cards to their pile, **K♣** on top."
    assert render.rules_line(RULES) == "32 cards and two jokers, up to 200 rounds"
    assert render.board(TURN, NAMES, deadline=None).title == "Bundle War — round 2, step 4"


@pytest.mark.parametrize("language", ["de", "fr", "es", "pt_BR", "ru", "ro", "pl"])
def test_every_surface_is_in_the_language(language):
    say = texts(language)
    panel = render.panel(panel_of(), NAMES, say)
    assert panel.title == say("{game} — step {step}", game=say("Bundle War"), step=4) != "Bundle War — step 4"
    assert panel.text.startswith(say("You look at **{card}**.", card="Q♦"))
    assert panel.buttons[1].label == say("Steal the {card} pile", card="Q♠")
    assert say("You can steal {player}'s pile, **{card}** on top.", player="<@1>", card="Q♠") in panel.text
    for english, text in zip(every_text(texts("en")), every_text(say), strict=True):
        if english_left(english, NAMES + PLAIN):  # (a card's label is the same in every language)
            assert text != english
        if language == "ru":  # Cyrillic: no Latin word is left but the names' and the markup's
            assert english_left(text, NAMES + PLAIN) == [], text


def test_russian_counts_and_errors():
    say = texts("ru")
    assert render.take_line(TAKES[0], NAMES, say) == "Игрок <@3> забирает 6 карт в свою стопку, сверху **K♣**."
    assert say.ngettext("{player} takes {count} card to their pile.", "{player} takes {count} cards to their pile.",
                        3, player="<@3>") == "Игрок <@3> забирает 3 карты в свою стопку."
    game = BundleWar.new({"players": 3}, seed=2)
    game.apply(0, {"type": "play"})
    with pytest.raises(NotYourTurn) as raised:
        game.apply(0, {"type": "play"})
    assert raised.value.said(say) == say("You have chosen already in this step.") != str(raised.value)


def test_german_lobby():
    say = texts("de")
    lobby = render.lobby(NAMES[:2], RULES, expires_at=None, say=say)
    assert lobby.title == say("{game} lobby", game="Bundle War")  # (German players say Bundle War)
    assert [button.label for button in lobby.buttons] == ["Beitreten", "Verlassen", "Starten", "Abbrechen"]
    assert say("Players ({count}/4): {players}", count=2, players="<@1>, <@2>") in lobby.text


def test_no_english_in_the_pseudo_language():
    with pseudo_language():
        say = texts(PSEUDO)
        left = {text: english_left(text, NAMES + PLAIN) for text in every_text(say)}
        assert {text: words for text, words in left.items() if words} == {}


def test_a_result_of_three_lists_the_rating_changes_first_to_last():
    ratings = [{"before": 0.0, "after": -1.0, "games": 1}, {"before": 0.0, "after": 2.0, "games": 1},
               {"before": 0.0, "after": 0.5, "games": 1}]
    game_over = {"type": "game_over", "winner": 1, "reason": "last_standing", "detail": "", "round": 9}
    names = ["Ann", "Ben", "Cy"]
    by_place = render.result(game_over, names, names, ratings=ratings, places=[3, 1, 2]).text
    line = next(line for line in by_place.splitlines() if line.startswith("Ratings:"))
    assert line.index("Ben") < line.index("Cy") < line.index("Ann")
    by_seat = render.result(game_over, names, names, ratings=ratings).text  # (places unknown: seat order)
    line = next(line for line in by_seat.splitlines() if line.startswith("Ratings:"))
    assert line.index("Ann") < line.index("Ben") < line.index("Cy")


def test_a_pot_set_aside_has_its_line_in_the_rounds_message():
    events = [{"type": "war", "round": 4, "seats": [0, 1]},
              {"type": "pot_aside", "round": 4, "cards": 9}]
    lines = render.round_lines(events, ["Ann", "Ben"], texts("en")).splitlines()
    assert lines[-1] == "Nobody is left in the war: 9 cards set aside."
    assert "9" in render.round_lines(events[1:], ["Ann", "Ben"], texts("de"))
