"""Army's texts: the round message shows only public facts, the panel only its seat's own, the notes and results
say what happened."""

from __future__ import annotations

from types import SimpleNamespace

from bot.games.army import render
from bot.games.army.engine import Army

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
