"""Army's texts: the round message shows only public facts, the panel only its seat's own, the notes and results
say what happened."""

from __future__ import annotations

from types import SimpleNamespace

from bot.games.army import render
from bot.games.army.engine import Army, fighting_value
from bot.i18n import texts
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language

NAMES = ["<@1>", "<@2>"]


def turn_of(game: Army, step: int, deadline: float = 1_700_000_000) -> dict:
    public = game.view(None)
    return {"type": "turn", "engagement": step, "phase": public["phase"], "round": max(0, step - 1),
            "deadline_at": deadline, "seconds": 60,
            "players": [{k: p[k] for k in ("seat", "front", "armies_left", "hand_size")} for p in public["players"]],
            "fighting_pile": public["fighting_pile"], "fighting_graveyard": public["fighting_graveyard"],
            "army_graveyard": public["army_graveyard"]}


def panel_of(game: Army, seat: int, step: int, **changes) -> SimpleNamespace:
    view = game.view(seat)
    you = view["you"]
    fields = dict(match_id=1, seat=seat, user_id=seat + 1, step=step, phase=view["phase"],
                  dealt=tuple(a["army"] for a in you["armies"]), draft=(), hand=tuple(you["hand"]),
                  chosen=you["chosen"], locked=False, opponent_locked=False, deadline_at=1_700_000_000.0,
                  finished=False, view=view, ended=None, round=max(0, step - 1))
    fields.update(changes)
    return SimpleNamespace(**fields)


def test_a_card_has_its_suit_sign():
    assert render.card("7H") == "7♥" and render.card("10S") == "10♠" and render.card("KC") == "K♣"
    assert render.army_line("KC") == "K♣ (3 SP)" and render.army_line("AD", 2) == "A♦ 2/4 SP"


def test_the_round_message_shows_the_reveal_and_only_public_facts():
    game = Army.new({}, seed=3)
    orders = [[a["army"] for a in game.view(s)["you"]["armies"]] for s in (0, 1)]
    events = game.apply_move({"armies": orders})
    first = render.round_board(turn_of(game, 2), events, NAMES, chosen=[True, False])
    assert first.title == "Army — round 1"
    assert f"<@1> leads with {render.army_line(orders[0][0])}" in first.text
    assert "<@1>: ✅ chosen" in first.text and "<@2>: ⏳ choosing" in first.text
    assert "Cards due <t:1700000000:R>" in first.text
    hands = [game.view(s)["you"]["hand"] for s in (0, 1)]
    cards = [hands[0][0], hands[1][0]]
    events = game.apply_move({"plays": cards})
    second = render.round_board(turn_of(game, 3), events, NAMES)
    assert f"**Round 1:** <@1> {render.card(cards[0])}" in second.text
    assert f"vs <@2> {render.card(cards[1])}" in second.text
    for text in (first.text, second.text):
        for seat in (0, 1):
            for army in orders[seat][1:]:
                assert render.card(army) not in text
            for card in game.view(seat)["you"]["hand"]:
                if card not in cards:
                    assert render.card(card) not in text
    closed = render.round_board(turn_of(game, 3), events, NAMES, closed="done")
    assert "done" in closed.text and "Cards due" not in closed.text
    no_dm = render.round_board(turn_of(game, 3), events, NAMES, dms_closed=[1])
    assert "📪 <@2>'s DMs are closed" in no_dm.text


def test_the_arrangement_panel_and_its_buttons():
    game = Army.new({}, seed=5)
    panel = panel_of(game, 0, 1, draft=())
    dealt = panel.dealt
    surface = render.panel(panel, NAMES)
    assert [b.key for b in surface.buttons] == [*(f"army:{a}" for a in dealt), "undo", "reset", "dealt", "confirm"]
    assert not surface.buttons[-1].enabled and "nothing placed yet" in surface.text
    placed = render.panel(panel_of(game, 0, 1, draft=dealt), NAMES)
    assert placed.buttons[-1].enabled and not any(b.enabled for b in placed.buttons[:3])
    locked = render.panel(panel_of(game, 0, 1, draft=dealt, locked=True), NAMES)
    assert not locked.buttons and "Waiting for **<@2>** to set theirs." in locked.text
    # nothing of the other seat's secrets
    for card in game.view(1)["you"]["hand"] + [a["army"] for a in game.view(1)["you"]["armies"]]:
        assert render.card(card) not in surface.text


def test_the_card_panel_the_locked_one_and_the_ended_ones():
    game = Army.new({}, seed=5)
    game.apply_move({"armies": [[a["army"] for a in game.view(s)["you"]["armies"]] for s in (0, 1)]})
    surface = render.panel(panel_of(game, 1, 2), NAMES)
    assert surface.title == "Army — round 1: your card"
    assert [b.key for b in surface.buttons] == [f"play:{c}" for c in game.view(1)["you"]["hand"]]
    assert all(b.label.endswith(("attack", "defence")) for b in surface.buttons)
    chosen = game.view(1)["you"]["hand"][0]
    game.apply(1, {"type": "play", "card": chosen})
    locked = render.panel(panel_of(game, 1, 2, locked=True), NAMES)
    assert f"**Locked in:** {render.card(chosen)} for round 1." in locked.text and not locked.buttons
    ended = SimpleNamespace(seat=1, step=3, round=2, phase="play", ended="default", chosen="3C", draft=())
    assert "your lowest card, 3♣, was played" in render.panel(ended, NAMES).text
    ended.ended = "timeout"
    assert "forfeited the match" in render.panel(ended, NAMES).text


def test_notes_and_results():
    note = render.afk(NAMES, {"engagement": 1, "phase": "arrange", "seats": [1], "forfeit": []})
    assert "<@2> missed the deadline of setting the armies" in note and "dealt" in note
    note = render.afk(NAMES, {"engagement": 3, "phase": "play", "seats": [0, 1], "forfeit": [0, 1]})
    assert "Both players missed two deadlines in a row: the match ends in a draw." in note
    capped = {"type": "game_over", "winner": 1, "reason": "capped", "stamina": [3, 5],
              "armies": [[{"army": "KC", "stamina": 3}], [{"army": "AD", "stamina": 4}, {"army": "JH", "stamina": 1}]]}
    result = render.result(capped, [], NAMES, ratings=[{"before": 0, "after": -1.5}, {"before": 0, "after": 2.0}],
                           rounds=40)
    assert "🏆 **<@2>** wins! The round limit was reached: stamina left <@1> 3 · <@2> 5." in result.text
    assert "<@2>'s armies: A♦ 4/4 SP · J♥ 1/1 SP" in result.text
    assert "Ratings: <@1> 1500 → 1464 (-36) · <@2> 1500 → 1548 (+48)" in result.text
    assert "40 rounds fought" in result.text
    draw = render.result({"winner": None, "reason": "double_timeout"}, [], NAMES)
    assert draw.title == "Army — draw" and "Both players missed two deadlines" in draw.text


# --- in the players' languages -------------------------------------------------------------------------------


def surfaces_of_a_game(say) -> list[str]:
    """Every text Army shows in one language, from a seeded game: the challenge, the round messages (the armies set,
    a reveal, the damage), the notes, both panels and the ended ones, /army status and both kinds of result."""
    game = Army.new({"max_rounds": 3}, seed=7)
    orders = [[a["army"] for a in game.view(s)["you"]["armies"]] for s in (0, 1)]
    arrange = [render.panel(panel_of(game, 0, 1, draft=orders[0][:1]), NAMES, say=say),
               render.panel(panel_of(game, 1, 1, draft=tuple(orders[1]), locked=True), NAMES, say=say),
               render.round_board(turn_of(game, 1), [], NAMES, chosen=[True, False], dms_closed=[1], say=say)]
    status = render.status(game.view(0), NAMES, deadline=1_700_000_000, draft=orders[0][:2], say=say)
    events = game.apply_move({"armies": orders})
    texts_ = [render.challenge("<@1>", "<@2>", {"max_rounds": 3}, expires_at=1_700_000_000, say=say).text,
              render.link_line(NAMES, {"max_rounds": 3}, 5, say=say), status]
    for step in (2, 3, 4):
        hands = [game.view(s)["you"]["hand"] for s in (0, 1)]
        texts_.append(render.panel(panel_of(game, 0, step), NAMES, say=say).text)
        texts_ += [b.label for b in render.panel(panel_of(game, 0, step), NAMES, say=say).buttons]
        board = render.round_board(turn_of(game, step), events, NAMES, chosen=[False, True], say=say)
        texts_ += [board.title, board.text]
        events = game.apply_move({"plays": [max(hands[0], key=fighting_value), min(hands[1], key=fighting_value)]})
    game_over = next(e for e in events if e["type"] == "game_over")
    result = render.result(game_over, events, NAMES, ratings=[{"before": 0, "after": 1.5}, None], rounds=3, say=say)
    texts_ += [result.title, result.text, render.result_title({"winner": None}, NAMES, say),
               render.reason_text({"winner": 0, "reason": "forfeit"}, NAMES, say),
               render.afk(NAMES, {"engagement": 1, "phase": "arrange", "seats": [0], "forfeit": []}, say),
               render.afk(NAMES, {"engagement": 3, "phase": "play", "seats": [0, 1], "forfeit": [1]}, say),
               render.deadline_moved(NAMES, 1, 1_700_000_000, say), render.deadline_moved(NAMES, 4, 1_700_000_000, say),
               render.round_closed(say), render.match_over(say),
               render.reveal_lines([{"type": "army_fallen", "seat": 0, "army": "JH", "next": "KC", "stamina": 3,
                                     "armies_left": 2}, {"type": "reshuffle", "cards": 30},
                                    {"type": "army_fallen", "seat": 1, "army": "QS", "next": None, "stamina": None,
                                     "armies_left": 0}], NAMES, say)[0]]
    for surface in arrange:
        texts_ += [surface.title, surface.text, *(b.label for b in getattr(surface, "buttons", ()))]
    for ended in ("played", "default", "timeout", "over"):
        for phase, step in (("arrange", 1), ("play", 3)):
            data = SimpleNamespace(seat=0, step=step, round=step - 1, phase=phase, ended=ended, chosen="3C",
                                   draft=tuple(orders[0]))
            surface = render.panel(data, NAMES, say=say)
            texts_ += [surface.title, surface.text]
    return texts_


def test_every_army_text_has_a_translation_in_the_pseudo_language():
    """Said in the pseudo-language (every catalogue string's letters swapped), no plain English word is left: every
    string went through a catalogue."""
    with pseudo_language():
        for text in surfaces_of_a_game(texts(PSEUDO)):
            assert english_left(text, NAMES) == [], text


def test_the_round_message_and_the_panels_in_german_and_russian():
    de, ru = texts("de"), texts("ru")
    game = Army.new({}, seed=3)
    orders = [[a["army"] for a in game.view(s)["you"]["armies"]] for s in (0, 1)]
    events = game.apply_move({"armies": orders})
    board = render.round_board(turn_of(game, 2), events, NAMES, chosen=[True, False], say=de)
    assert board.title == "Armee — Runde 1"
    assert f"🛡️ **Die Armeen stehen:** <@1> führt mit {render.army_line(orders[0][0], say=de)} an" in board.text
    assert "<@1>: ✅ gewählt" in board.text and "<@2>: ⏳ wählt" in board.text
    assert de("Cards due {when}: pick your card with **{button}** below or in your DMs.", when="<t:1700000000:R>",
              button="Wählen") in board.text
    assert "round" not in board.text.lower() and "armies" not in board.text
    panel = render.panel(panel_of(game, 1, 2), NAMES, say=ru)
    assert panel.title == "Армия — раунд 1: твоя карта"
    assert {b.label.split(" ")[1] for b in panel.buttons} <= {"атака", "защита"}
    assert ru("Pick your card: red cards attack, black cards defend; the higher number wins the round.") in panel.text
    them = game.view(1)["players"][0]
    assert f"{ru.ngettext('{count} army left', '{count} armies left', them['armies_left'])}" in panel.text
    assert "осталось 3 армии" in panel.text  # (Russian's form for 2-4)
    arrange = render.panel(panel_of(Army.new({}, seed=3), 0, 1), NAMES, say=de)
    assert [b.label for b in arrange.buttons][3:] == ["Rückgängig", "Zurücksetzen", "Wie ausgeteilt", "Bestätigen"]
    assert render.army_line("AD", 2, texts("fr")) == "A♦ 2/4 PE"


def test_the_result_and_the_notes_in_french_and_polish():
    fr, pl = texts("fr"), texts("pl")
    capped = {"type": "game_over", "winner": 1, "reason": "capped", "stamina": [3, 5],
              "armies": [[{"army": "KC", "stamina": 3}], [{"army": "AD", "stamina": 4}, {"army": "JH", "stamina": 1}]]}
    result = render.result(capped, [], NAMES, rounds=40, say=fr)
    assert result.title == "Armée — <@2> gagne"
    assert result.text.startswith("🏆 **<@2>** gagne ! La limite de manches est atteinte")
    assert "Armées de <@2> : A♦ 4/4 PE · J♥ 1/1 PE" in result.text and "-# 40 manches disputées." in result.text
    note = render.afk(NAMES, {"engagement": 3, "phase": "play", "seats": [0], "forfeit": []}, pl)
    assert note == "⌛ " + pl("{player} missed the deadline of round {round}: their lowest card is played. Two misses "
                             "in a row forfeit the match.", player="<@1>", round=2)
    assert "rundzie 2" in note
    assert render.rules_text({"max_rounds": 1000}, say=texts("de")) == "je 3 Armeen · Rundenlimit 1.000"
