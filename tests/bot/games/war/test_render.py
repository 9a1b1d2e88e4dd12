"""War's texts: the table, the result (cap, cycle, chart and its words), the challenge and lobby, the notes."""

from __future__ import annotations

import re

import pytest

from bot.errors import GameError
from bot.games.war import render
from bot.games.war.engine import War
from bot.games.war.flow import RoundOver
from bot.i18n import texts
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language

NAMES = ["<@1>", "<@2>"]


def played(rules: dict, seed: int = 3, rounds: int | None = None) -> tuple[War, list[list[int]]]:
    game = War.new(War.resolve_rules(rules), seed=seed)
    points = [game.view(None)["card_counts"]]
    while not game.is_over and (rounds is None or game.stats.rounds < rounds):
        game.play_round()
        points.append(game.view(None)["card_counts"])
    return game, points


def test_the_table_shows_counts_the_last_round_and_the_pace_buttons():
    game, _ = played({}, rounds=5)
    view = game.view(None)
    surface = render.table(view, NAMES, "war", "flip", votes={"instant": [1]}, deadline=1_700_000_000)
    counts = view["card_counts"]
    assert f"Cards: <@1> **{counts[0]}** · <@2> **{counts[1]}**" in surface.text
    assert "**Round 5**" in surface.text and "<t:1700000000:R>" in surface.text
    assert "Every player still in must agree" in surface.text and "Instant 1/2" in surface.text
    assert [b.key for b in surface.buttons] == ["flip", "vote:next_war", "vote:auto", "vote:instant"]
    auto = render.table(view, NAMES, "war", "auto")
    assert [b.key for b in auto.buttons] == ["vote:instant"] and "Round 6 is next" in auto.text
    battle = next(e for e in view["last_events"] if e["type"] == "battle")
    assert render.card(battle["cards"][0]) in surface.text


def test_a_run_of_rounds_is_summed_up_before_its_last_round_in_full():
    game = War.new(War.resolve_rules({}), seed=1234)
    run = []
    while not game.is_over:
        events = game.play_round()
        run += events
        if any(e["type"] == "war" for e in events):
            break
    view = game.view(None)
    last = view["round"]
    assert last > 2
    surface = render.table(view, NAMES, "war", "auto", run=run)
    won = [sum(1 for e in run if e["type"] == "take" and e["seat"] == seat and e["round"] < last) for seat in (0, 1)]
    line = f"Rounds 1–{last - 1}: " + ", ".join(f"{NAMES[s]} won {won[s]}" for s in (0, 1) if won[s])
    assert line in surface.text and f"**Round {last}**" in surface.text and "⚔️ War 1:" in surface.text
    assert surface.text.index(line) < surface.text.index(f"**Round {last}**")
    # one round alone (flip pace): nothing to sum up
    assert "Rounds " not in render.table(view, NAMES, "war", "flip", run=run[-3:]).text
    assert render.run_line([], NAMES, last) == ""


def test_face_down_cards_are_never_named():
    game = War.new(War.resolve_rules({"face_down": 3}), seed=11)
    while not game.is_over:
        events = game.play_round()
        if any(e["type"] == "war" for e in events):
            break
    text = "\n".join(render.round_lines(events, NAMES))
    war = next(e for e in events if e["type"] == "war")
    assert "🂠🂠🂠" in text
    shown = {render.card(c) for e in events if e["type"] in ("battle", "war") for c in e["cards"] if c}
    for token in text.replace("→", " ").split():
        if token[-1:] in "♣♦♥♠":
            assert token in shown
    assert war["face_down"] == [3, 3]


def test_the_result_says_capped_with_the_chart_and_its_words():
    game, points = played({"max_rounds": 40}, seed=5)
    assert game.outcome.reason == "capped"
    surface = render.result(game.view(None), NAMES, "war", image_names=["Alice", "Bob"], points=points,
                            rounds=list(range(len(points))), ratings=[{"before": 0, "after": 1.5}, None])
    stats = game.stats
    assert "reached the 40-round limit (max_rounds)" in surface.text
    assert f"Rounds: {stats.rounds} · wars: {stats.wars}" in surface.text
    assert surface.picture is not None and surface.picture.png[:4] == b"\x89PNG"
    assert surface.picture.alt.startswith("Line chart") and "Alice started with 26" in surface.picture.alt
    assert "Alice started with 26" in surface.text and "Ratings: <@1> 1500 → 1536 (+36)" in surface.text
    winner = ["Alice", "Bob"][game.outcome.winner]
    assert surface.title == f"War — {winner} wins" and f"**{NAMES[game.outcome.winner]}** wins!" in surface.text


def test_a_repeated_position_is_explained():
    game = War.new(War.resolve_rules({"return_order": "reversed"}), seed=20240611)
    game.play_out()
    assert game.outcome.reason == "cycle"
    text = render.result(game.view(None), NAMES, "war").text
    assert "It's a draw." in text and "would repeat for ever" in text


def test_challenge_lobby_and_notes():
    challenge = render.challenge("<@1>", "<@2>", "drunkard", {"pack": 36, "six_beats_ace": True, "max_rounds": 50},
                                 "instant", expires_at=100)
    assert "Drunkard" in challenge.title and "at most 50 rounds" in challenge.text and "pack" not in challenge.text
    assert [b.key for b in challenge.buttons] == ["accept", "decline", "withdraw"]
    lobby = render.lobby(["<@1>", "<@2>"], "war", {}, "auto", expires_at=100)
    assert "Players (2/4)" in lobby.text and "<t:100:R>" in lobby.text and "(host)" in lobby.text
    assert [b.key for b in lobby.buttons] == ["join", "leave", "start", "cancel"]
    full = render.lobby(["<@1>", "<@2>"], "todundleben", {}, "auto", expires_at=100)
    assert not full.buttons[0].enabled
    alone = render.lobby(["<@1>"], "war", {}, "auto", expires_at=100)
    assert not next(b for b in alone.buttons if b.key == "start").enabled
    note = render.turn_timeout(NAMES, {"round": 4, "seats": [1], "auto_flipped": [1], "forfeit": []})
    assert "flipped for <@2>" in note
    note = render.turn_timeout(NAMES, {"round": 5, "seats": [1], "auto_flipped": [], "forfeit": [1]})
    assert "<@2> missed two rounds in a row and forfeited" in note


def test_status_shows_counts_who_still_flips_the_votes_and_where():
    game = War.new(War.resolve_rules({"players": 3, "pack": 32}), seed=5)
    game.play_round()
    game.apply(1, {"type": "flip"})
    game.forfeit(2)
    view = game.view(None)
    names = ["<@1>", "<@2>", "<@3>"]
    text = render.status(view, names, "war", "flip", seat=0, votes={"auto": [2]}, deadline=1_700_000_000,
                         where="<#55>")
    counts = view["card_counts"]
    assert "**Your War game** · 3 players · pace: Flip · round 1 played" in text
    assert f"Cards: <@1> **{counts[0]}** · <@2> **{counts[1]}** · <@3> **{counts[2]}** (out)" in text
    assert "Round 2: still to press **Flip**: **<@1>** (you), due <t:1700000000:R>." in text
    assert "Votes to speed up (every player still in must agree): Auto 1/2 (<@2>)" in text
    assert text.endswith("The game: <#55>")
    out = render.status(view, names, "war", "auto", seat=2)
    assert "You're out of this game" in out and "No votes to speed up." in out and "Flip**" not in out


def test_waiting_status_forfeit_question_and_answer():
    text = render.waiting_status(["<@1>", "<@2>"], "drunkard", {"pack": 36}, "flip", seat=1, lobby=False,
                                 expires_at=1_700_000_000, where="https://discord.com/channels/1/2/3")
    assert text.startswith("**<@1>** challenged you to Drunkard. It expires <t:1700000000:R>. Accept or decline it "
                           "on https://discord.com/channels/1/2/3.")
    host = render.waiting_status(["<@1>", "<@2>"], "war", {}, "auto", seat=0, lobby=True, expires_at=None)
    assert host.startswith("**Your War lobby** is open (2/4 players: **<@1>** and **<@2>**). Start or cancel")
    assert "Rules: standard rules · pace: Auto" in host
    two = render.forfeit_question("war", ["<@1>", "<@2>"], 1, [True, True], "<#9>")
    assert two.startswith("Give up your War game (<#9>)? **<@1>** wins, and it counts as a loss for you.")
    three = render.forfeit_question("war", ["<@1>", "<@2>", "<@3>", "<@4>"], 0, [True, True, False, True])
    assert "You're out and **<@2>** and **<@4>** play on" in three
    assert render.forfeited("war", ["<@1>", "<@2>"], 0, True, "<#9>") == ("🏳️ You gave up your War game (<#9>): "
                                                                         "**<@1>** wins.")
    assert render.forfeited("war", ["<@1>", "<@2>", "<@3>"], None, False).endswith(": the others play on.")


# --- languages ----------------------------------------------------------------------------------------------

GERMAN, RUSSIAN = texts("de"), texts("ru")
#: every rule set to a value other than its default (the words of each)
EVERY_RULE = {"face_down": 3, "short": "lose", "war_joins": "all", "return_order": "played", "capture_pile": True,
              "jokers": 2, "joker_each": True, "aces": "low", "decks": 2, "pack": 36, "six_beats_ace": True,
              "target": 40, "max_rounds": 300, "double": True}


def test_the_table_and_the_notes_speak_german():
    game, _ = played({}, rounds=5)
    view = game.view(None)
    surface = render.table(view, NAMES, "war", "flip", votes={"instant": [1]}, deadline=1_700_000_000, say=GERMAN)
    assert surface.title == "Krieg — Runde 5"
    assert [b.label for b in surface.buttons] == ["Aufdecken", "⏭️ Nächster Krieg (0/2)", "⏩ Auto (0/2)",
                                                  "⚡ Sofort (1/2)"]
    assert f"Karten: <@1> **{view['card_counts'][0]}** · <@2> **{view['card_counts'][1]}**" in surface.text
    assert "**Runde 5**" in surface.text and " gegen " in surface.text
    assert "Schneller spielen? Alle, die noch dabei sind, müssen zustimmen. Stimmen: Sofort 1/2" in surface.text
    assert render.pace_changed("auto", "flip", GERMAN) == ("🗳️ Alle, die noch dabei sind, sind einverstanden: die "
                                                           "Partie wechselt vom Tempo Aufdecken zu **Auto**.")
    note = render.turn_timeout(NAMES, {"round": 4, "seats": [1], "auto_flipped": [1], "forfeit": []}, GERMAN)
    assert note == ("⏰ Runde 4: die Zeit ist um — für <@2> wurde aufgedeckt. Verpasst du auch die nächste Runde, "
                    "hast du aufgegeben.")


def test_the_challenge_lobby_and_result_speak_russian():
    challenge = render.challenge("<@1>", "<@2>", "drunkard", {"pack": 36, "six_beats_ace": True, "max_rounds": 50},
                                 "instant", expires_at=100, say=RUSSIAN)
    assert challenge.title == RUSSIAN("{game} challenge", game="Пьяница (36 карт)")  # (Russian War is Пьяница)
    assert "Правила: не больше 50 раундов · темп: мгновенно (вся игра разыгрывается сразу)" in challenge.text
    lobby = render.lobby(["<@1>", "<@2>"], "war", {"face_down": 3}, "auto", expires_at=100, say=RUSSIAN)
    assert [b.label for b in lobby.buttons] == ["Присоединиться", "Выйти", "Начать", "Отменить"]
    assert "Игроки (2/4): **<@1>** (хост), **<@2>**" in lobby.text
    assert "3 закрытые карты на войне" in lobby.text
    game, points = played({"max_rounds": 40}, seed=5)
    surface = render.result(game.view(None), NAMES, "war", image_names=["Alice", "Bob"], points=points,
                            rounds=list(range(len(points))), say=RUSSIAN)
    winner = ["Alice", "Bob"][game.outcome.winner]
    assert surface.title == RUSSIAN("{game} — {player} wins", game="Пьяница", player=winner)
    assert "Игра дошла до предела в 40 раундов (max_rounds): побеждает тот, у кого больше карт." in surface.text
    assert surface.picture is not None
    assert surface.picture.alt.startswith("Линейный график числа карт каждого игрока по раундам. Alice: в начале 26")


def test_the_refusals_speak_the_players_language():
    assert RoundOver(3, 4).said(GERMAN) == ("Runde 3 war vorbei, bevor dein Klick ankam; nichts hat sich geändert. "
                                            "Jetzt läuft Runde 4: Drück den Button noch einmal, um sie zu spielen.")
    assert str(RoundOver(3, 4)).startswith("Round 3 was over before your click arrived")
    with pytest.raises(GameError) as refused:
        War.new(War.resolve_rules({"pack": 32, "six_beats_ace": True}))
    assert refused.value.said(RUSSIAN) == "правилу 'six_beats_ace' нужны шестёрки: возьми колоду из 52 или 36 карт"


def test_every_surface_is_in_the_catalogues():
    """In the pseudo-language every word comes from a catalogue: no plain English is left (names and mentions
    apart)."""
    allowed = [*NAMES, "<@3>", "Alice", "Bob", "Cleo"]
    with pseudo_language():
        say = texts(PSEUDO)
        game, points = played({"max_rounds": 200}, seed=5)
        view = game.view(None)
        rounds = list(range(len(points)))
        result = render.result(view, NAMES, "war", image_names=["Alice", "Bob"], points=points, rounds=rounds,
                               ratings=[{"before": 0, "after": 1.5}, None], say=say)
        texts_shown = [result.title, result.text, result.picture.alt, render.rules_text("war", EVERY_RULE, say=say),
                       render.rules_text("war", {}, say=say)]
        assert result.picture is not None
        for pace in ("flip", "auto", "instant"):
            surface = render.table(view | {"outcome": None}, NAMES, "war", pace, votes={"auto": [1], "instant": [2]},
                                   deadline=1_700_000_000, say=say)
            texts_shown += [surface.title, surface.text, *(b.label for b in surface.buttons)]
            texts_shown.append(render.status(view | {"outcome": None}, NAMES, "war", pace, seat=0,
                                             votes={"auto": [1]}, deadline=1_700_000_000, where="<#9>", say=say))
        for lobby, seat in ((True, 0), (True, 1), (False, 0), (False, 1)):
            texts_shown.append(render.waiting_status(NAMES, "drunkard", {"pack": 52}, "flip", seat=seat, lobby=lobby,
                                                     expires_at=100, where="<#9>", say=say))
        lobby = render.lobby([*NAMES, "<@3>"], "war", EVERY_RULE, "flip", expires_at=100, say=say)
        challenge = render.challenge(*NAMES, "doublewar", {"max_rounds": 100}, "auto", expires_at=100, say=say)
        texts_shown += [lobby.title, lobby.text, *(b.label for b in lobby.buttons), challenge.title, challenge.text]
        texts_shown += [render.declined("war", *NAMES, say), render.withdrawn("war", NAMES[0], lobby=True, say=say),
                        render.withdrawn("war", NAMES[0], lobby=False, say=say),
                        render.expired("war", NAMES[0], lobby=True, say=say),
                        render.expired("war", NAMES[0], lobby=False, say=say),
                        render.started("war", NAMES, "<#9>", say), render.started("war", NAMES, None, say),
                        render.link_line("war", NAMES, {"pack": 32}, 9, say),
                        render.turn_timeout(NAMES, {"round": 4, "seats": [0, 1], "auto_flipped": [1], "forfeit": [0]},
                                            say),
                        render.turn_timeout(NAMES, {"round": 5, "seats": [0, 1], "auto_flipped": [], "forfeit": [0, 1]},
                                            say),
                        render.pace_changed("instant", "next_war", say), render.deadline_moved(3, 100, say),
                        render.thread_lost(NAMES, say),
                        render.forfeit_question("war", [*NAMES, "<@3>"], 0, [True, True, True], "<#9>", say),
                        render.forfeit_question("war", NAMES, 0, [True, True], "<#9>", say),
                        render.forfeited("war", NAMES, 1, True, "<#9>", say),
                        render.forfeited("war", NAMES, None, True, "", say),
                        render.forfeited("war", NAMES, None, False, "", say)]
        for reason in ("capped", "cycle", "all_out", "double_timeout", "timeout", "forfeit", "all_cards",
                       "last_standing", "short_war", "target"):
            texts_shown.append(render.reason_text({"winner": 0, "reason": reason}, NAMES, 100, say))
        events = [{"type": "battle", "cards": ["KH", "KS"], "winner": None, "tied": [0, 1]},
                  {"type": "war", "war": 1, "seats": [0, 1], "face_down": [3, 3], "cards": ["2H", "3S"],
                   "winner": 1},
                  {"type": "take", "seat": 1, "cards": 10, "face_down": 6, "prize_taken": "AH", "prize": "QS"},
                  {"type": "pot_aside", "cards": 4}, {"type": "reshuffle", "seat": 0, "cards": 12},
                  *({"type": "out", "seat": 0, "reason": reason}
                    for reason in ("no_cards", "short_war", "timeout", "forfeit", "other"))]
        texts_shown += render.round_lines(events, NAMES, say)
        found = [(text, english_left(text, allowed)) for text in texts_shown if english_left(text, allowed)]
        assert found == []


def test_a_game_of_four_lists_its_rating_changes_first_to_last():
    game, points = played({"max_rounds": 40, "players": 4}, seed=3)
    counts = game.view(None)["card_counts"]
    order = sorted(range(4), key=lambda seat: (seat != game.outcome.winner, -counts[seat], seat))
    ratings = [{"before": 0.0, "after": float(seat)} for seat in range(4)]
    names = ["<@1>", "<@2>", "<@3>", "<@4>"]
    surface = render.result(game.view(None), names, "war", image_names=["A", "B", "C", "D"], points=points,
                            rounds=list(range(len(points))), ratings=ratings, drawn=False)
    line = next(line for line in surface.text.splitlines() if line.startswith("Ratings: "))
    assert [int(name) for name in re.findall(r"<@(\d)>", line)] == [seat + 1 for seat in order]
    assert len(set(counts)) > 1
