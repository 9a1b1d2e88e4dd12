"""Air War texts (no pictures: the live table is text), built from real games played through the engine."""

from __future__ import annotations

import random
import re

import pytest

from bot.cards import card_label, tarot_pack
from bot.games.airwar import render
from bot.games.airwar.engine import AirWar
from bot.i18n import texts
from bot.render.common import (
    BUTTON_LABEL_LIMIT,
    EMBED_TITLE_LIMIT,
    MESSAGE_LIMIT,
    ButtonSurface,
    Surface,
    clamp,
    name,
    plain_names,
    timestamp,
)

NAMES = ["Alice", "Bob"]
DEADLINE = 1_700_000_000
P1_PILE = ["AS", "QS", "10S", "4S", "3S", "8S", "2C", "5C", "6C", "7C", "9C", "JC"]  # the rules' worked example
P2_PILE = ["KH", "QH", "JH", "9H", "3H", "6H", "2D", "4D", "5D", "7D", "8D", "10D"]
P1_ORDER = ["QS", "10S", "AS", "4S", "3S"]
P2_ORDER = ["QH", "KH", "9H", "JH", "3H"]


def order(cards: list[str]) -> dict:
    return {"type": "order", "cards": list(cards)}


CODE = re.compile(r"(?<![0-9A-Za-z])(10[CDHS]|[0-9]{1,2}T|[2-9JQKAPN][CDHS]|RJ|BJ)(?![0-9A-Za-z])")


def sym(text: str) -> str:
    """``text`` with every card written in notation (``QS``) as texts show it (``Q♠``)."""
    return CODE.sub(lambda found: card_label(found.group(0)), text)


@pytest.fixture
def example():
    """The worked example after its first engagement: (game, that engagement's events)."""
    game = AirWar.new(piles=[P1_PILE, P2_PILE])
    events = list(game.opening_events)
    events += game.apply(0, order(P1_ORDER))
    events += game.apply(1, order(P2_ORDER))
    return game, events


# --- the public board --------------------------------------------------------------------------------


def test_board_shows_both_stacks_as_drawn_counts_and_the_deadline():
    game = AirWar.new(piles=[P1_PILE, P2_PILE])
    board = render.board(game.view(None), NAMES, deadline=DEADLINE)
    assert board.title == "Air War — engagement 1"
    assert sym("Stack as drawn: AS QS 10S 4S 3S") in board.text
    assert sym("Stack as drawn: KH QH JH 9H 3H") in board.text
    assert "ace of spades" not in board.text  # cards in notation, never in words
    assert f"**{render.PANEL_BUTTON}** below" in board.text
    assert board.text.count("Deck 7 cards · discards 0") == 2
    assert "<t:1700000000:R>" in board.text
    assert board.text.count(render.ARRANGING) == 2
    assert board.picture is None  # text alone: the cards show as the app's emoji


def test_board_says_who_has_locked_in_but_not_the_order():
    game = AirWar.new(piles=[P1_PILE, P2_PILE])
    before = render.board(game.view(None), NAMES, deadline=DEADLINE)
    game.apply(0, order(P1_ORDER))
    after = render.board(game.view(None), NAMES, deadline=DEADLINE)
    assert f"**Alice** — {render.LOCKED}" in after.text
    assert f"**Bob** — {render.ARRANGING}" in after.text
    assert sym("QS 10S AS") not in after.text
    # both stacks are still shown as drawn once someone locks in
    for stack in ("AS QS 10S 4S 3S", "KH QH JH 9H 3H"):
        assert sym(f"Stack as drawn: {stack}") in before.text and sym(f"Stack as drawn: {stack}") in after.text
    # a seat's own view handed in by mistake gives the same public board: my_order is never read
    assert render.board(game.view(0), NAMES, deadline=DEADLINE) == after


# --- flip by flip ------------------------------------------------------------------------------------


def test_flip_count_and_flips_in_order_up_to_shown(example):
    _game, events = example
    assert render.flip_count(events) == 6
    lines = [sym(line) for line in [
        "1. QS vs QH: tie",
        "2. 10S vs KH: **Bob** wins → keeps QH KH; Alice discards QS 10S",
        "3. AS vs 9H: **Alice** wins → keeps AS; Bob discards 9H",
        "4. 4S vs JH: **Bob** wins → keeps JH; Alice discards 4S",
        "5. 3S vs 3H: tie",
        "6. 8S vs 6H (tie-breakers from the decks): **Alice** wins → keeps 3S 8S; Bob discards 3H 6H",
    ]]
    for shown in range(7):
        surface = render.flips(events, NAMES, shown)
        for index, line in enumerate(lines):
            assert (line in surface.text) == (index < shown), (shown, line)
        positions = [surface.text.index(line) for line in lines[:shown]]
        assert positions == sorted(positions)
        assert surface.picture is None
        assert ("Engagement 1 over" in surface.text) == (shown == 6)
    assert "Nothing flipped yet" in render.flips(events, NAMES, 0).text
    assert render.flips(events, NAMES) == render.flips(events, NAMES, 6)
    assert render.flips(events, NAMES, 99) == render.flips(events, NAMES, 6)


def test_flips_list_the_cards_not_flipped_yet_in_the_order_drawn(example):
    _game, events = example
    text = render.flips(events, NAMES, 2).text
    assert sym("Not flipped yet — Alice: AS 4S 3S · Bob: JH 9H 3H") in text
    assert "10 of spades" not in text  # cards in notation, never in words


def test_flips_text_has_each_flip_shown_its_winner_and_the_stack_cards_still_face_down(example):
    _game, events = example
    text = render.flips(events, NAMES, 3).text
    assert sym("1. QS vs QH: tie") in text
    assert sym("2. 10S vs KH: **Bob** wins") in text
    assert sym("3. AS vs 9H: **Alice** wins") in text
    assert "\n4. " not in text
    assert sym("Not flipped yet — Alice: 4S 3S · Bob: JH 3H") in text  # two stack cards each still face down


def test_flips_render_the_same_again(example):
    _game, events = example
    assert render.flips(events, NAMES, 4) == render.flips([dict(e) for e in events], NAMES, 4)


def test_the_last_frame_has_the_summary_and_the_summary_stands_alone(example):
    _game, events = example
    summary = render.engagement_summary(events, NAMES)
    assert "**Engagement 1 over:** 4 fights, 2 ties." in summary
    assert sym("**Alice** kept AS 3S 8S (back under the deck) · lost QS 10S 4S (discarded)") in summary
    assert sym("**Bob** kept QH KH JH (back under the deck) · lost 9H 3H 6H (discarded)") in summary
    assert "Decks: Alice 9 · Bob 9 — discards: Alice 3 · Bob 3" in summary
    assert summary in render.flips(events, NAMES).text


def test_events_of_other_engagements_are_ignored(example):
    game, events = example
    later = list(events)
    later += game.apply(0, order(game.view(0)["stacks"][0]))
    later += game.apply(1, order(game.view(1)["stacks"][1]))
    assert render.flips(later, NAMES, 3, engagement=1) == render.flips(events, NAMES, 3)
    second = render.flips(later, NAMES, engagement=2)
    assert second.title == "Air War — engagement 2: flips"
    assert sym("QS vs QH") not in second.text


def test_the_game_ending_in_an_engagement_shows_in_its_last_frame():
    pack = tarot_pack()
    game = AirWar.new({"deck": "tarot", "stack": 3}, piles=[pack[:10], pack[:10]])  # every flip ties
    events = list(game.opening_events)
    events += game.apply(0, order(game.view(0)["stacks"][0]))
    events += game.apply(1, order(game.view(1)["stacks"][1]))
    last = render.flips(events, NAMES)
    assert "**Engagement 1 cut short:** 0 fights, 10 ties." in last.text
    assert "Left on the table, a tie nobody could break" in last.text
    assert "🏁 **Game over.** It's a draw. Both players had to add a tie-breaker card" in last.text
    assert "Game over" not in render.flips(events, NAMES, 9).text


# --- result ------------------------------------------------------------------------------------------


def play_out(game: AirWar, rng: random.Random) -> list[dict]:
    events = list(game.opening_events)
    while not game.is_over:
        for seat in (0, 1):
            cards = list(game.view(seat)["stacks"][seat])
            rng.shuffle(cards)
            events += game.apply(seat, order(cards))
    return events


def test_result_names_the_winner_and_the_reason_in_words():
    game = AirWar.new(seed=3)
    play_out(game, random.Random(3))
    view = game.view(None)
    outcome = view["outcome"]
    surface = render.result(view, NAMES)
    assert outcome["reason"] in ("short_stack", "out_of_cards")
    if outcome["winner"] is None:
        assert surface.title == "Air War — draw"
    else:
        winner, loser = NAMES[outcome["winner"]], NAMES[1 - outcome["winner"]]
        assert surface.title == f"Air War — {winner} wins"
        assert f"**{winner}** wins!" in surface.text
        assert loser in surface.text.split("\n")[0]
    assert "seat 0" not in surface.text and "seat 1" not in surface.text
    decks = view["deck_counts"]
    assert f"Decks: Alice {decks[0]} · Bob {decks[1]}" in surface.text
    assert f"Engagements: {view['engagement']}" in surface.text


@pytest.mark.parametrize(("outcome", "expected"), [
    ({"winner": 0, "reason": "short_stack", "deck_counts": [30, 3]},
     "Bob cannot draw a full stack of 5 (only 3 cards left)."),
    ({"winner": None, "reason": "short_stack", "deck_counts": [2, 4]},
     "Neither player can draw a full stack of 5 (Alice has 2, Bob has 4)."),
    ({"winner": 1, "reason": "out_of_cards"}, "Alice had to add a tie-breaker card and had none left."),
    ({"winner": None, "reason": "out_of_cards"},
     "Both players had to add a tie-breaker card and neither had one left."),
    ({"winner": 1, "reason": "forfeit"}, "Alice forfeited."),
    ({"winner": 0, "reason": "timeout"}, "Bob missed two deadlines in a row and forfeited."),
    ({"winner": None, "reason": "double_timeout"}, "Both players missed two deadlines in a row."),
    ({"winner": 0, "reason": "gave_up"}, "Bob forfeited (gave up)."),
])
def test_reasons_in_words(outcome, expected):
    assert render.reason_text(outcome, NAMES, stack_size=5) == expected


def test_a_forfeit_result():
    game = AirWar.new(seed=1)
    game.forfeit(1)
    surface = render.result(game.view(None), NAMES)
    assert surface.text.startswith("🏁 **Alice** wins! Bob forfeited.")
    assert render.forfeited(NAMES, 1) == "🏳️ **Bob** forfeits. **Alice** wins!"
    assert render.board(game.view(None), NAMES) == surface  # a finished game's board is its result
    rated = render.result(game.view(None), NAMES, ratings=[{"before": 10.0, "after": 12.25, "games": 4},
                                                           {"before": 9, "after": 7, "games": 2}])
    assert "Ratings: Alice 1740 → 1794 (+54) · Bob 1716 → 1668 (-48, provisional)" in rated.text


def test_result_of_a_game_in_progress_is_refused():
    with pytest.raises(ValueError):
        render.result(AirWar.new(seed=1).view(None), NAMES)


# --- DM panel ----------------------------------------------------------------------------------------


def test_dm_panel_while_arranging():
    game = AirWar.new(piles=[P1_PILE, P2_PILE])
    panel = render.dm_panel(game.view(0), NAMES, draft=["QS", "10S"], deadline=DEADLINE)
    assert isinstance(panel, ButtonSurface)
    assert panel.title == "Air War — engagement 1: your battle order"
    assert sym("**Bob's stack:** KH QH JH 9H 3H") in panel.text  # the player's own is on the buttons
    assert sym("**Your order:** 1 QS · 2 10S · 3 — · 4 — · 5 —") in panel.text
    assert "queen of spades" not in panel.text  # cards in notation, never in words
    assert "Deadline: <t:1700000000:R>" in panel.text
    assert "**Bob** is still arranging." in panel.text
    assert "Your deck: 7 cards, all unknown · discards 0" in panel.text
    assert len(panel.text.splitlines()) <= 7  # it reads on a phone
    assert panel.picture is None  # text and buttons alone
    keys = [(b.key, b.enabled) for b in panel.buttons]
    assert keys == [("card:AS", True), ("card:QS", False), ("card:10S", False), ("card:4S", True), ("card:3S", True),
                    ("undo", True), ("reset", True), ("random", True), ("drawn", True), ("confirm", False)]
    labels = {b.key: b.label for b in panel.buttons}
    assert labels["card:AS"] == "A♠"
    assert labels["card:QS"] == "1: Q♠"
    assert labels["card:10S"] == "2: 10♠"
    assert labels["confirm"] == "Lock in"


def test_dm_panel_once_locked_in_says_so_and_waits():
    game = AirWar.new(piles=[P1_PILE, P2_PILE])
    game.apply(0, order(P1_ORDER))
    mine = render.dm_panel(game.view(0), NAMES, deadline=DEADLINE)
    assert sym("🔒 **Your order is locked in:** 1 QS · 2 10S · 3 AS · 4 4S · 5 3S") in mine.text
    assert "Waiting for **Bob** to lock in." in mine.text
    assert mine.buttons == []
    theirs = render.dm_panel(game.view(1), NAMES, deadline=DEADLINE)
    assert "**Alice** has locked in." in theirs.text
    assert sym("QS 10S AS") not in theirs.text and sym("1 QS") not in theirs.text


def test_dm_panel_shows_both_stacks_as_drawn_for_the_whole_engagement(example):
    """The opponent's stack as drawn in the text whatever the draft, the lock or ``closed``; the player's own on its
    buttons, in the order drawn, while they arrange."""
    game = AirWar.new(piles=[P1_PILE, P2_PILE])
    arranging = [render.dm_panel(game.view(0), NAMES, draft=draft, deadline=DEADLINE)
                 for draft in ([], ["QS", "10S"], P1_ORDER)]
    closed = render.dm_panel(game.view(0), NAMES, draft=["QS"], closed=render.panel_closed("as_drawn"))
    other_seat = render.dm_panel(game.view(1), NAMES, draft=["KH"], deadline=DEADLINE)
    game.apply(0, order(P1_ORDER))
    locked = render.dm_panel(game.view(0), NAMES, deadline=DEADLINE)
    panels = [*arranging, locked, closed]
    assert len({panel.text for panel in panels}) == 5  # the text shows each state
    assert all(panel.picture is None for panel in (*panels, other_seat))
    assert all(sym("**Bob's stack:** KH QH JH 9H 3H") in panel.text for panel in panels)
    assert all([button.card for button in panel.buttons if button.card] == P1_PILE[:5] for panel in arranging)
    assert sym("**Alice's stack:** AS QS 10S 4S 3S") in other_seat.text
    assert [button.card for button in other_seat.buttons if button.card] == P2_PILE[:5]
    next_game, _events = example
    next_view = next_game.view(0)
    next_engagement = render.dm_panel(next_view, NAMES, deadline=DEADLINE)
    assert next_view["stacks"][1] != P2_PILE[:5]
    assert sym("**Bob's stack:** " + " ".join(next_view["stacks"][1])) in next_engagement.text


def test_dm_panel_shows_the_known_deck_bottoms_in_order(example):
    game, _events = example
    view = game.view(1)
    panel = render.dm_panel(view, NAMES, deadline=DEADLINE)
    assert view["deck_bottoms"][0] == {"unknown_above": 1, "cards": ["AS", "3S", "8S"]}
    assert sym("Alice's deck: 4 cards, 1 unknown, then AS 3S 8S at the bottom · discards 3") in panel.text
    assert sym("Your deck: 4 cards, 1 unknown, then QH KH JH at the bottom · discards 3") in panel.text


def test_buttons_complete_draft_and_rows():
    game = AirWar.new({"stack": 7}, seed=5)
    view = game.view(1)
    stack = view["stacks"][1]
    buttons = render.order_buttons(view, stack)
    assert [b.row for b in buttons] == [0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2]
    confirm = buttons[-1]
    assert (confirm.key, confirm.label, confirm.enabled) == ("confirm", "Lock in", True)
    assert not any(b.enabled for b in buttons if b.key.startswith("card:"))


def test_draft_after_each_button():
    stack = ["AS", "QS", "10S"]
    assert render.draft_after(stack, [], "card:QS") == ["QS"]
    assert render.draft_after(stack, ["QS"], "card:QS") == ["QS"]
    assert render.draft_after(stack, ["QS"], "card:AS") == ["QS", "AS"]
    assert render.draft_after(stack, ["QS", "AS"], "undo") == ["QS"]
    assert render.draft_after(stack, ["QS", "AS"], "reset") == []
    assert render.draft_after(stack, ["QS"], "drawn") == stack
    assert sorted(render.draft_after(stack, [], "random", rng=random.Random(1))) == sorted(stack)
    assert render.draft_after(stack, ["QS"], "card:KH") == ["QS"]
    with pytest.raises(ValueError):
        render.draft_after(stack, ["KH"], "undo")


def test_dm_panel_needs_a_seat_view():
    with pytest.raises(ValueError):
        render.dm_panel(AirWar.new(seed=1).view(None), NAMES)


# --- status, leaderboard, notices --------------------------------------------------------------------


def test_status_for_a_player_and_a_spectator(example):
    game, _events = example
    game.apply(0, order(game.view(0)["stacks"][0]))
    mine = render.status(game.view(0), NAMES, deadline=DEADLINE)
    assert "**Your Air War match** against **Bob** · engagement 2" in mine
    assert sym("You: 🔒 locked in: 1 2C · 2 5C") in mine
    assert f"Bob: {render.ARRANGING}" in mine
    assert "Orders lock in <t:1700000000:R>." in mine
    assert sym("then AS 3S 8S at the bottom") in mine
    theirs = render.status(game.view(1), NAMES, deadline=DEADLINE, draft=["2D"])
    assert sym("1 2C") not in theirs and f"Alice: {render.LOCKED}" in theirs
    assert "You: ⏳ arranging (1 of 5 placed" in theirs
    spectator = render.status(game.view(None), NAMES)
    assert "**Air War:** **Alice** vs **Bob**" in spectator and sym("1 2C") not in spectator


def test_challenge_and_its_answers():
    panel = render.challenge("<@1>", "<@2>", {"stack": 7, "aces": "low", "deck": "tarot"}, expires_at=DEADLINE)
    assert "⚔️ **<@1>** challenges **<@2>** to Air War!" in panel.text
    assert "stacks of 7 · aces low · tarot decks (78 cards)" in panel.text
    assert "expires <t:1700000000:R>" in panel.text
    assert [b.key for b in panel.buttons] == ["accept", "decline", "withdraw"]
    open_challenge = render.challenge("Alice", None, {}, expires_at=DEADLINE)
    assert "Anyone may accept" in open_challenge.text and "decline" not in [b.key for b in open_challenge.buttons]
    assert render.declined("Alice", "Bob") == "**Bob** declined the Air War challenge from **Alice**."
    assert render.withdrawn("Alice", "Bob") == "**Alice** withdrew the Air War challenge to **Bob**."
    assert render.expired("Alice", "Bob") == ("The Air War challenge from **Alice** to **Bob** expired: "
                                              "nobody accepted in time.")
    assert render.afk(NAMES, [1], 4) == ("⏰ Time's up in engagement 4: **Bob** did not lock in an order, "
                                         "so Bob's stack plays as drawn.\n"
                                         "-# A second missed deadline in a row forfeits the game.")
    assert "both stacks play as drawn" in render.afk(NAMES, [0, 1], 4)
    assert render.afk(NAMES, [0, 1], 4, forfeit=[0]) == ("⏰ Time's up in engagement 4: **Alice** missed a second "
                                                         "deadline in a row and forfeits. **Bob** wins!")
    assert "the game is a draw" in render.afk(NAMES, [0, 1], 4, forfeit=[0, 1])


def test_names_are_escaped_and_mentions_pass_through():
    assert name("<@123>") == "<@123>"
    assert name("__init__") == "\\_\\_init\\_\\_"
    assert name("@everyone") == "@\u200beveryone"
    assert plain_names(["<@1>", "Bob"]) == ["Player 1", "Bob"]
    assert plain_names(["<@1>", "<@2>"], ["Al", "Bo"]) == ["Al", "Bo"]
    assert timestamp(DEADLINE) == "<t:1700000000:R>"
    assert len(clamp("line\n" * 1000)) <= MESSAGE_LIMIT


# --- Discord's limits in the largest cases -----------------------------------------------------------


LONG_NAMES = ["*" * 32, "_" * 32]  # escaped, each doubles


def check_surface(surface: Surface) -> None:
    assert len(surface.title) <= EMBED_TITLE_LIMIT
    assert len(surface.text) <= MESSAGE_LIMIT, len(surface.text)
    assert surface.picture is None  # every Air War surface is text alone
    for button in getattr(surface, "buttons", []):
        assert len(button.label) <= BUTTON_LABEL_LIMIT


def test_limits_over_a_whole_tarot_game_with_stacks_of_seven_and_long_names():
    game = AirWar.new({"deck": "tarot", "stack": 7}, seed=11)
    rng = random.Random(11)
    events = list(game.opening_events)
    engagements = 0
    while not game.is_over and engagements < 6:
        check_surface(render.board(game.view(None), LONG_NAMES, deadline=DEADLINE))
        for seat in (0, 1):
            stack = game.view(seat)["stacks"][seat]
            check_surface(render.dm_panel(game.view(seat), LONG_NAMES, draft=stack[:3], deadline=DEADLINE))
            assert len(render.status(game.view(seat), LONG_NAMES, deadline=DEADLINE)) <= MESSAGE_LIMIT
        played = list(events)
        for seat in (0, 1):
            cards = list(game.view(seat)["stacks"][seat])
            rng.shuffle(cards)
            played += game.apply(seat, order(cards))
        number = game.view(None)["engagement"] - (0 if game.is_over else 1)
        for shown in (1, render.flip_count(played, number)):
            check_surface(render.flips(played, LONG_NAMES, shown, engagement=number))
        events = [e for e in played if e["type"] == "engagement" and e["number"] == number + 1]
        engagements += 1


def test_limits_when_every_flip_of_two_tarot_decks_ties():
    pack = tarot_pack()
    game = AirWar.new({"deck": "tarot", "stack": 7}, piles=[pack, pack])
    events = list(game.opening_events)
    events += game.apply(0, order(game.view(0)["stacks"][0]))
    events += game.apply(1, order(game.view(1)["stacks"][1]))
    total = render.flip_count(events)
    assert total == 78
    for shown in (0, 7, 40, total):
        check_surface(render.flips(events, LONG_NAMES, shown))
    last = render.flips(events, LONG_NAMES)
    assert "78. 21★ vs 21★" in last.text and "Game over" in last.text
    # the oldest flips give way to one line that says so
    assert "\nFlips 1 to 71 are hidden: the message is full.\n72. " in last.text and "\n71. " not in last.text
    check_surface(render.result(game.view(None), LONG_NAMES))
    assert len(render.engagement_summary(events, LONG_NAMES)) <= MESSAGE_LIMIT


def test_limits_of_the_dm_panel_with_a_deck_fully_known():
    pack = tarot_pack()
    # seat 0 wins every fight of the first engagement: its whole deck is then known
    strong, weak = pack[-7:] + pack[:7], pack[7:14] + pack[14:21]
    game = AirWar.new({"deck": "tarot", "stack": 7}, piles=[strong, weak])
    game.apply(0, order(game.view(0)["stacks"][0]))
    game.apply(1, order(game.view(1)["stacks"][1]))
    for seat in (0, 1):
        check_surface(render.dm_panel(game.view(seat), LONG_NAMES, deadline=DEADLINE))


@pytest.mark.parametrize("language", ["de", "ru"])
def test_a_result_in_the_servers_language(language):
    """The same result in another language: every line translated, nothing of the English left but names, cards
    and numbers; the reasons from the same catalogue."""
    say = texts(language)
    game = AirWar.new(seed=1)
    game.forfeit(1)
    rated = render.result(game.view(None), NAMES, say=say,
                          ratings=[{"before": 10.0, "after": 12.25, "games": 4}, {"before": 9, "after": 7, "games": 2}])
    assert rated.title == say("{game} — {player} wins", game=say(render.TITLE), player="Alice")
    first = rated.text.split("\n")[0]
    assert first == "🏁 " + say("**{player}** wins!", player="Alice") + " " + say("{player} forfeited{why}.",
                                                                                   player="Bob", why="")
    assert say("Ratings: {changes}", changes="").rstrip() in rated.text and "Ratings:" not in rated.text
    for english in ("wins", "Engagements", "discards", "forfeited", "provisional", "stacks of"):
        assert english not in rated.text, english
    outcome = {"winner": 0, "reason": "short_stack", "deck_counts": [30, 3]}
    assert render.reason_text(outcome, NAMES, stack_size=5, say=say) == say(
        "{player} cannot draw {stack}{left}.", player="Bob", stack=say("a full stack of {size}", size=5),
        left=" " + say("(only {cards} left)", cards=say.ngettext("{count} card", "{count} cards", 3)))


def test_a_winner_named_like_the_game_does_not_make_the_title_read_twice():
    from bot.games.airwar import render_many
    from bot.render.common import win_title

    game = AirWar.new(seed=1)
    game.forfeit(1)
    assert render.result(game.view(None), ["Air War", "Bob"]).title == "Air War — won by the player named Air War"
    assert render.result(game.view(None), ["Alice", "Bob"]).title == "Air War — Alice wins"
    many = AirWar.new({"players": 3}, seed=1)
    many.forfeit(1)
    many.forfeit(2)
    assert render_many.result(many.view(None), [" air  war ", "Bob", "Cy"]).title == (
        "Air War — won by the player named air war")  # (names are written with single spaces)
    assert win_title("War", "Warren") == "War — Warren wins"
