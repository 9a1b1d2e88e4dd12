"""Casino War's words in every language: the table's message, the panels, each hand's lines, the result and the
refusals, in English as they always were, in German, French, Russian and Polish as the catalogues say, and in the
pseudo-language with no English left (every string went through a catalogue)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.errors import InvalidRules
from bot.games.casinowar import render
from bot.games.casinowar.engine import CasinoWar
from bot.games.casinowar.flow import NotAtTable, Refusal, StaleStep
from bot.i18n import N_, texts
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language

NAMES = ["<@1>", "<@2>"]
RULES = CasinoWar.resolve_rules({"players": 2})


def panel(**fields: Any) -> SimpleNamespace:
    """A seat's panel (the fields :func:`render.panel` reads), betting by default."""
    base = {"hand": 3, "hands": 20, "stack": 1500, "phase": "bet", "amounts": (10, 20, 50, 100), "tie_bet": 10,
            "tie_amounts": (10, 20), "choice": None, "decision": None, "bet": None, "can_war": True,
            "seated": True, "locked": False, "finished": False, "ended": None, "deadline_at": 1_800_000_000.0}
    return SimpleNamespace(**{**base, **fields})


DEALT = {"hand": 1, "house": "10C", "cards": ["QS", "10H"], "bets": [{"main": 10, "tie": 10}, {"main": 1000, "tie": 0}],
         "results": ["win", "tie"]}
WAR = {"hand": 1, "surrendered": [0], "warring": [1], "burned": 3, "house": "4D", "cards": [None, "9S"],
       "results": [None, "win"]}
GAME_OVER = {"reason": "table_empty", "detail": "nobody is seated any more", "net": [65, -1020],
             "stacks": [1065, 0]}


def every_surface(say) -> list[str]:
    """Every text Casino War shows, in ``say``'s language."""
    lobby = render.lobby(NAMES, RULES, expires_at=1_800_000_000.0, say=say)
    panels = [render.panel(panel(), NAMES, say), render.panel(panel(phase="decide", bet=20, tied=True), NAMES, say),
              render.panel(panel(locked=True, choice={"type": "bet", "amount": 20, "tie": 10}), NAMES, say),
              render.panel(panel(locked=True, decision="war"), NAMES, say),
              render.panel(panel(locked=True), NAMES, say), render.panel(panel(finished=True), NAMES, say),
              *(render.panel(panel(ended=ended, decision=decision), NAMES, say) for ended, decision in
                (("timeout", None), ("default", None), ("default", "surrender"), ("over", None),
                 ("chosen", "surrender")))]
    result = render.result(GAME_OVER, NAMES, say, hands=20)
    return [lobby.title, lobby.text, *(b.label for b in lobby.buttons),
            *(text for p in panels for text in (p.title, p.text, *(b.label for b in p.buttons))),
            render.rules_line(RULES, say), render.house_edge_line(RULES, say), render.started(NAMES, "<#9>", say),
            render.started(NAMES, None, say), render.link_line(NAMES, RULES, 9, say),
            *(render.closed(NAMES[0], kind, say) for kind in ("withdrawn", "expired", "")),
            render.turn({"hand": 2, "phase": "bet", "seats": [0, 1], "deadline_at": 1.0}, NAMES, say),
            render.turn({"hand": 2, "phase": "decide", "seats": [1], "deadline_at": 1.0}, NAMES, say),
            render.dealt(DEALT, NAMES, say), render.dealt({**DEALT, "cards": [None, None]}, NAMES, say),
            render.war(WAR, NAMES, say),
            render.hand_over({"hand": 1, "stacks": [1065, 0]}, NAMES, [{"seat": 0, "amount": 65}], say),
            render.hand_over({"hand": 1, "stacks": [1065, 0]}, NAMES, [], say),
            render.reshuffle({"cards": 312}, say),
            *(render.stood_up({"seat": 1, "reason": reason}, NAMES, say)
              for reason in ("chips", "timeout", "double_timeout", "forfeit")),
            render.afk({"phase": "bet", "defaults": [1]}, NAMES, say),
            render.afk({"phase": "decide", "defaults": [0, 1]}, NAMES, say), render.afk({}, NAMES, say),
            result.title, result.text,
            render.result({**GAME_OVER, "reason": "hand_limit"}, NAMES, say, hands=20).text,
            render.result({**GAME_OVER, "reason": "hand_limit"}, NAMES, say).text,
            render.result({**GAME_OVER, "detail": "nobody has the chips for the smallest bet"}, NAMES, say).text,
            render.status({"hand": 3, "hands": 20, "stacks": [1500, 0], "net": [500, 0]}, 0, say)]


def test_english_is_as_it_was():
    assert render.dealt(DEALT, NAMES) == ("🂠 **Hand 1** — the house: **10♣**\n<@1>: **Q♠** (bet 10 + tie 10) — wins\n"
                                          "<@2>: **10♥** (bet 1,000) — ties")
    assert render.turn({"hand": 2, "phase": "bet", "seats": [0, 1], "deadline_at": 1.0}, NAMES) == \
        "🎰 **Hand 2:** place your bets, <@1>, <@2> — <t:1:R>."
    assert render.war(WAR, NAMES) == ("<@1> surrenders half the bet.\n⚔️ **War!** The house burns 3 cards and draws "
                                      "**4♦**.\n<@2>: **9♠** — wins")
    assert render.hand_over({"hand": 1, "stacks": [1065, 0]}, NAMES, [{"seat": 0, "amount": 65}]) == \
        "-# Hand 1: <@1> +65 (1,065)."
    result = render.result(GAME_OVER, NAMES, hands=20)
    assert (result.title, result.text) == ("Casino War — the table closed", "Nobody is seated any more.\n"
                                                  "<@1>: +65 chips (now 1,065)\n<@2>: -1,020 chips (now 0)")
    assert render.result({**GAME_OVER, "reason": "hand_limit"}, NAMES, hands=20).text.startswith(
        "All 20 hands of the table have been played.\n")
    lobby = render.lobby(NAMES, RULES, expires_at=None)
    assert lobby.title == "Casino War table" and [b.label for b in lobby.buttons] == ["Join", "Leave", "Deal", "Cancel"]
    assert render.house_edge_line(RULES) == ("On average the house keeps 2.33% of each bet if you go to war on every "
                                             "tie (3.70% if you surrender every tie), and 18.65% of each tie bet.")


def test_the_table_and_its_panel_in_german():
    de = texts("de")
    lobby = render.lobby(NAMES, RULES, expires_at=None, say=de)
    assert lobby.title == "Tisch für Casino War"  # (German players say Casino War)
    assert [b.label for b in lobby.buttons] == ["Beitreten", "Verlassen", "Austeilen", "Abbrechen"]
    assert lobby.text.splitlines()[0] == ("🎰 **<@1>** eröffnet einen Tisch für Casino War gegen die Bank (1–4 "
                                                 "Spieler, um die Chips dieses Servers).")
    assert render.rules_line(RULES, de) == ("Einsätze 10–100, Unentschieden-Wette 10 (zahlt 10:1), 20 Runden, 6 Decks "
                                            "(Schnittkarte 78 vor dem Ende)")
    shown = render.panel(panel(), NAMES, de)
    assert shown.title == "Casino War — Runde 3"
    assert shown.text == "Du hast 1.500 Chips. Mach deinen Einsatz oder setz diese Runde aus. Wähle <t:1800000000:R>."
    assert [b.label for b in shown.buttons] == ["10 setzen", "20 setzen", "50 setzen", "100 setzen",
                                                "10 + Unentschieden 10", "20 + Unentschieden 10", "Aussetzen"]
    assert render.house_edge_line(RULES, de) == ("Im Schnitt behält die Bank 2,33% jedes Einsatzes, wenn du bei jedem "
                                                 "Gleichstand in den Krieg ziehst (3,70%, wenn du jedes Mal aufgibst), "
                                                 "und 18,65% jeder Unentschieden-Wette.")


def test_a_tie_and_the_result_in_russian():
    ru = texts("ru")
    tie = render.panel(panel(phase="decide", bet=20, stack=1), NAMES, ru)
    assert tie.text.startswith("**Ничья!** Твоя ставка 20: сдайся (вернётся 10) или иди на войну (поставь "
                                      "ещё 20).")
    assert tie.text.endswith("\nУ тебя 1 фишка.")
    assert [b.label for b in tie.buttons] == ["Сдаться (−10)", "Война (ещё 20)"]
    assert render.war(WAR, NAMES, ru).splitlines()[1] == "⚔️ **Война!** Дилер сжигает 3 карты и берёт **4♦**."
    result = render.result({**GAME_OVER, "net": [5, -2]}, NAMES, ru)
    assert result.title == "Война в казино — стол закрыт"
    assert result.text.splitlines() == ["За столом больше никого нет.", "<@1>: +5 фишек (теперь 1\xa0065)",
                                               "<@2>: -2 фишки (теперь 0)"]


@pytest.mark.parametrize("language", ["de", "fr", "es", "pt_BR", "ru", "ro", "pl"])
def test_every_surface_is_translated(language):
    english = every_surface(texts("en"))
    translated = every_surface(texts(language))
    changed = [(e, t) for e, t in zip(english, translated, strict=True) if e == t and english_left(e, NAMES)]
    assert changed == []  # (texts without words -- numbers, cards -- may be the same)


def test_no_english_is_left_in_the_pseudo_language():
    with pseudo_language():
        left = [(text, english_left(text, NAMES)) for text in every_surface(texts(PSEUDO))]
    assert [found for found in left if found[1]] == []


def test_refusals_are_said_in_the_players_language():
    de, fr, pl = texts("de"), texts("fr"), texts("pl")
    refusal = Refusal(N_("You can't bet {amount} now: you have {chips} in chips."), amount=1000, chips=5)
    assert str(refusal) == "You can't bet 1,000 now: you have 5 in chips."
    assert refusal.said(de) == "Du kannst jetzt nicht 1.000 setzen: Du hast Chips im Wert von 5."
    assert NotAtTable().said(fr) == "Tu n'es à aucune table de Casino War. Ouvres-en une avec `/casinowar table`."
    assert str(NotAtTable()) == "You're not at a Casino War table. Open one with `/casinowar table`."
    assert StaleStep(1, 2).said(pl).startswith("Ten wybór dotyczył części rozdania")
    with pytest.raises(InvalidRules) as raised:
        CasinoWar.resolve_rules({"min_bet": 100, "max_bet": 10})
    assert str(raised.value) == "the smallest bet (100) is more than the largest (10)"
    assert raised.value.said(pl) == "najmniejsza stawka (100) jest większa od największej (10)"
