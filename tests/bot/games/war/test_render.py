"""War's texts: the table, the result (cap, cycle, chart and its words), the challenge and lobby, the notes."""

from __future__ import annotations

from bot.games.war import render
from bot.games.war.engine import War

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
    assert [b.key for b in surface.buttons] == ["flip", "vote:auto", "vote:instant"]
    auto = render.table(view, NAMES, "war", "auto")
    assert [b.key for b in auto.buttons] == ["vote:instant"] and "Round 6 is next" in auto.text
    battle = next(e for e in view["last_events"] if e["type"] == "battle")
    assert render.card(battle["cards"][0]) in surface.text


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
    assert "Drunkard" in challenge.title and "max_rounds: 50" in challenge.text and "pack" not in challenge.text
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
    assert "you're out and **<@2>** and **<@4>** play on" in three
    assert render.forfeited("war", ["<@1>", "<@2>"], 0, True, "<#9>") == ("🏳️ You gave up your War game (<#9>): "
                                                                         "**<@1>** wins.")
    assert render.forfeited("war", ["<@1>", "<@2>", "<@3>"], None, False).endswith(": the others play on.")
