"""The live table at Discord's speed, through the local Discord: a player's time starts when they can act (their DM
panel delivered, or a War table its Flip button), however late Discord delivers it (Air War, Army, Bundle War, Casino
War, War); and a channel whose edits wait on
its rate limit (every match there shares it) does not hold back the panels and boards of its matches; and a click
on a button its message no longer shows is answered."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from bot.games.bundlewar.engine import BundleWar
from tests.e2e import test_army as army
from tests.e2e.test_airwar import (
    POLICIES,
    SEED,
    TITLE,
    accept,
    board,
    challenge,
    dm_panel,
    lock_in,
    match_id_of,
    settled,
    stack_of,
    start,
    version_texts,
)
from tests.e2e.test_airwar_restart import creates, edits, titled

pytestmark = pytest.mark.e2e


HELD_S = 20.0


def deadline_shown(text: str) -> int:
    """The deadline a board or panel shows (Discord's timestamp markup)."""
    found = re.findall(r"<t:(\d+):R>", text)
    assert found, text
    return int(found[-1])


async def test_a_dm_held_back_moves_its_deadline_by_the_delay(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    message = await challenge(env, alice, bob)
    match_id = match_id_of(message)
    # Discord holds alice's first panel for 20 s (her DM is slow to arrive): she can't act before it is there
    hold = env.hold(creates(env.dm(alice), titled(f"{TITLE} — engagement 1: your battle order")))
    thread = await accept(env, bob, message)
    await hold.wait(timeout=10)
    first = (await env.bot.matches.get_match(match_id)).deadline_at
    assert first is not None
    env.clock.advance(HELD_S)
    hold.release()
    await env.wait_for(lambda: dm_panel(env, alice, 1), message="alice's panel never came")
    await settled(env, match_id)

    match = await env.bot.matches.get_match(match_id)
    assert match.deadline_at == pytest.approx(first + HELD_S, abs=1.0)  # moved by the delay
    moved = [q.event for q in await env.bot.matches.outbox.events(match_id) if q.type == "deadline_moved"]
    assert [(e["reason"], e["engagement"]) for e in moved] == [("delivery", 1)]
    shown = board(env, thread, 1)
    assert shown is not None and deadline_shown(shown.text) == int(match.deadline_at)  # the board shows it
    assert deadline_shown(dm_panel(env, alice, 1).text) == int(match.deadline_at)  # and so does her panel
    assert not [m for m in env.messages(thread) if "deadline" in m.text.lower()]  # no note for it

    # past the first deadline, before the moved one: nobody timed out
    env.clock.advance(first - env.clock.time() + 1)
    assert first < env.clock.time() < match.deadline_at
    await settled(env, match_id)
    assert not [q for q in await env.bot.matches.outbox.events(match_id) if q.type == "arrange_timeout"]
    for seat, user in enumerate((alice, bob)):
        shown_panel = dm_panel(env, user, 1)
        await lock_in(env, user, shown_panel, POLICIES[seat](stack_of(shown_panel)))
    await env.wait_for(lambda: dm_panel(env, alice, 2) and dm_panel(env, bob, 2), message="no engagement 2")


async def test_a_step_shown_late_starts_its_deadline_as_its_panels_go_out(make_env, tmp_path):
    """Engagement 2 begins when the last order of engagement 1 is locked in, but its panels go out only once the
    flips are shown: its deadline starts then, the panels and board show that one from the first, and nothing is
    edited again for it (no ``deadline_moved``, one edit of each DM panel for engagement 2). And the last lock-in
    of engagement 1 does not edit its board before the flips replace it."""
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    message = await challenge(env, alice, bob)
    match_id = match_id_of(message)
    thread = await accept(env, bob, message)
    first_board = await env.wait_for(lambda: board(env, thread, 1))
    # the flips of engagement 1 are slow to show (Discord holds the board's first flip 20 s)
    hold = env.hold(edits(first_board, lambda body: "1." in json.dumps(body.get("components"))))
    for seat, user in enumerate((alice, bob)):
        panel = await env.wait_for(lambda user=user: dm_panel(env, user, 1))
        await lock_in(env, user, panel, POLICIES[seat](stack_of(panel)))
    await hold.wait(timeout=10)
    begun = (await env.bot.matches.get_match(match_id)).deadline_at  # set as engagement 2 began
    assert begun is not None
    env.clock.advance(HELD_S)
    released = env.clock.time()
    hold.release()
    panels = await env.wait_for(lambda: dm_panel(env, alice, 2) and dm_panel(env, bob, 2) and
                                (dm_panel(env, alice, 2), dm_panel(env, bob, 2)))
    await settled(env, match_id)

    match = await env.bot.matches.get_match(match_id)
    # the timer (120 s) from when the panels went out, not from when the engagement began (with the flips' time)
    assert match.step == 2 and match.deadline_at == pytest.approx(released + 120, abs=1.0) and match.deadline_at > begun
    assert not [q for q in await env.bot.matches.outbox.events(match_id) if q.type == "deadline_moved"]
    shown = board(env, thread, 2)
    assert shown is not None and deadline_shown(shown.text) == int(match.deadline_at)
    for panel in panels:
        assert deadline_shown(panel.text) == int(match.deadline_at)
        # (the one DM message of the match: engagement 2's panel is its one edit since engagement 1 ended)
        assert sum("engagement 2" in text for text in version_texts(panel)) == 1
    # the board said who locked in first; the last lock-in's board went straight to the flips
    texts = version_texts(first_board)
    assert any(text.count("✅ locked in") == 1 for text in texts)
    assert not any(text.count("✅ locked in") == 2 for text in texts)


async def test_a_busy_channel_does_not_hold_back_the_panels_of_its_matches(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    channel = env.channel()
    players = [env.user(name) for name in ("alice", "bob", "cleo", "dan")]
    first = await challenge(env, players[0], players[1])
    second = await challenge(env, players[2], players[3])
    second_id = match_id_of(second)
    # the channel's edit of the second match's card (who plays, the link) waits, as behind the channel's rate limit
    # (every match there shares it: here Discord holds it)
    hold = env.hold(edits(second, lambda body: "follow the match" in json.dumps(body.get("components"))))
    await accept(env, players[1], first)
    thread = await accept(env, players[3], second)
    await hold.wait(timeout=10)
    # its players get their panels, and its thread its board, while the channel's edit waits
    await env.wait_for(lambda: dm_panel(env, players[2], 1) and dm_panel(env, players[3], 1),
                       message="the panels waited for the channel's edit")
    await env.wait_for(lambda: board(env, thread, 1), message="the board waited for the channel's edit")
    assert "follow the match" not in second.text
    assert (await env.bot.matches.outbox.unshown_events(second_id))  # not shown until it lands
    hold.release()
    await env.wait_for(lambda: "follow the match" in second.text, message="the card never changed")
    await settled(env, second_id)
    assert [m for m in env.messages(channel) if m.author is env.bot_user] == [first, second]



def first_asked(game: BundleWar) -> tuple[int, int]:
    """The first step of ``game`` where a seat has a choice (before it, every card could only be played: the kernel
    plays those), and that seat."""
    while True:
        only = next(((seat, legal[0]) for seat in game.pending_seats()
                     if len(legal := game.legal_actions(seat)) == 1), None)
        if only is None:
            return game.step, game.pending_seats()[0]
        game.apply(*only)


async def test_a_bundle_war_board_shows_the_deadline_its_late_panel_moved(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    ix = await env.slash(alice, "bundlewar challenge", opponent=bob)
    await ix.wait_response()
    message = ix.message
    match_id = int(message.buttons[0]["custom_id"].split(":")[2])
    service = env.bot.get_cog("BundleWar").service
    await env.wait_for(lambda: message.buttons)
    # the first step that asks anyone (the cards before it could only be played: they played themselves)
    step, seat = first_asked(BundleWar.new(seed=SEED))
    player = (alice, bob)[seat]
    hold = env.hold(creates(env.dm(player), titled(f"Bundle War — step {step}")))
    await env.click(bob, message, custom_id=f"bw:c:{match_id}:accept")
    thread = await env.wait_for(lambda: message.thread, message="no thread")
    await hold.wait(timeout=10)
    first = (await service.get_match(match_id)).deadline_at
    env.clock.advance(HELD_S)
    hold.release()
    await env.wait_for(lambda: any(m.title == f"Bundle War — step {step}"
                                   for m in env.messages(player)), message="the panel never came")
    for _ in range(500):  # (every event shown)
        if not await service.outbox.unshown_events(match_id):
            break
        await asyncio.sleep(0.01)
    match = await service.get_match(match_id)
    assert match.deadline_at == pytest.approx(first + HELD_S, abs=1.0)
    boards = [m for m in env.messages(thread) if m.author is env.bot_user and "<t:" in m.text]
    assert boards and deadline_shown(boards[-1].text) == int(match.deadline_at)


async def test_a_click_on_a_button_its_message_no_longer_shows_is_answered(make_env, tmp_path):
    # a client that still shows the panel's buttons (Discord sends the click with the message as it is now): the bot
    # finds the button by its custom id, not in the message, and answers
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    message = await challenge(env, alice, bob)
    await accept(env, bob, message)
    panel = await env.wait_for(lambda: dm_panel(env, alice, 1), message="no panel")
    stale = next(b for b in panel.buttons if ":card:" in b["custom_id"])
    await lock_in(env, alice, panel, POLICIES[0](stack_of(panel)))
    assert not panel.buttons
    data = {"custom_id": stale["custom_id"], "component_type": 2, "id": stale["id"]}
    ix = await env._send(env._new_interaction(alice, panel.channel, 3, data, source=panel))
    response = await ix.wait_response()
    assert response.type in (4, 6, 7)  # answered: privately refused, or the panel shown as it is
    assert not panel.buttons  # and nothing put back


async def test_an_army_round_message_shows_the_deadline_its_late_panel_moved(make_env, tmp_path):
    env = await army.start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    message = await army.challenge(env, alice, bob)
    match_id = army.match_id_of(message)
    hold = env.hold(creates(env.dm(alice), titled(army.panel_title(1))))
    thread = await army.accept(env, bob, message)
    await hold.wait(timeout=10)
    first = (await army.service(env).get_match(match_id)).deadline_at
    env.clock.advance(HELD_S)
    hold.release()
    await env.wait_for(lambda: army.dm_panel(env, alice, 1), message="alice's panel never came")
    await army.settled(env, match_id)
    match = await army.service(env).get_match(match_id)
    assert match.deadline_at == pytest.approx(first + HELD_S, abs=1.0)
    shown = army.round_message(env, thread, 1)
    assert shown is not None and deadline_shown(shown.text) == int(match.deadline_at)
    assert not [m for m in env.messages(thread) if "deadline" in m.text.lower()]  # no note for it


async def test_a_casino_war_turn_shows_the_deadline_its_late_panel_moved(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    service = env.bot.service_for("casinowar")
    ix = await env.slash(alice, "casinowar table", min_bet=10, max_bet=100, hands=3)
    await ix.wait_response()
    table = ix.message
    match_id = int(table.buttons[0]["custom_id"].split(":")[2])
    # Discord holds alice's first betting panel for 20 s: her time starts when she can bet
    hold = env.hold(creates(env.dm(alice), lambda body: f"cw:p:{match_id}:" in json.dumps(body.get("components"))))
    for user, action in ((bob, "join"), (alice, "start")):
        await (await env.click(user, table, None, custom_id=f"cw:l:{match_id}:{action}")).wait_response()
    thread = await env.wait_for(lambda: table.thread, message="no thread for the table")
    await hold.wait(timeout=10)
    first = (await service.get_match(match_id)).deadline_at
    env.clock.advance(HELD_S)
    hold.release()
    await settled(env, match_id)
    match = await service.get_match(match_id)
    assert match.deadline_at == pytest.approx(first + HELD_S, abs=1.0)
    moved = [q.event for q in await service.outbox.events(match_id) if q.type == "deadline_moved"]
    assert [e["reason"] for e in moved] == ["delivery"]
    turn = next(m for m in env.messages(thread) if "Hand 1:" in m.text)
    assert deadline_shown(turn.text) == int(match.deadline_at) and turn.buttons  # the turn shows it, still open
    assert not any(q.type == "turn_timeout" for q in await service.outbox.events(match_id))


async def test_a_war_table_held_back_moves_its_turn_deadline_by_the_delay(make_env, tmp_path):
    from tests.e2e import test_war as war

    env = await war.start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    ix = await war.slash(env, alice, "war challenge", opponent=bob, pace="flip")
    message = ix.message
    match_id = war.match_id_of(message)
    await war.stored(env, match_id)
    # Discord holds the game's table (the Flip button of round 1) for 20 s: nobody can flip before it is there
    hold = env.hold(lambda request: request.method == "POST" and request.template == "/channels/{channel_id}/messages"
                    and war.flip_id(match_id) in json.dumps(request.body))
    await war.click(env, bob, message, f"war:c:{match_id}:accept")
    await hold.wait(timeout=10)
    first = (await war.service(env).get_match(match_id)).deadline_at
    assert first is not None
    env.clock.advance(HELD_S)
    hold.release()
    thread = await env.wait_for(lambda: message.thread, message="no thread for the game")
    table = await war.table_at(env, match_id, thread, 1)

    match = await war.service(env).get_match(match_id)
    assert match.deadline_at == pytest.approx(first + HELD_S, abs=1.0)  # moved by the delay
    moved = [q.event for q in await war.service(env).outbox.events(match_id) if q.type == "deadline_moved"]
    assert [(e["reason"], e["round"]) for e in moved] == [("delivery", 1)]
    assert deadline_shown(table.text) == int(match.deadline_at)  # the table shows it
    assert not [m for m in env.messages(thread) if "deadline" in m.text.lower()]  # no note for it
    # past the first deadline, before the moved one: nobody was flipped for
    env.clock.advance(first - env.clock.time() + 1)
    await settled(env, match_id)
    assert not [q for q in await war.service(env).outbox.events(match_id) if q.type == "turn_timeout"]
    # the next round's table comes at once: its deadline is the match's timer from then, not moved again
    for user in (alice, bob):
        await war.click(env, user, table, war.flip_id(match_id))
    await war.table_at(env, match_id, thread, 2)
    moved = [q.event for q in await war.service(env).outbox.events(match_id) if q.type == "deadline_moved"]
    assert len(moved) == 1


async def test_a_speed_war_round_held_back_moves_its_deadline_by_the_delay(make_env, tmp_path):
    from tests.e2e import test_speedwar as speedwar
    from tests.e2e.test_airwar import slash, stored

    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    ix = await slash(env, alice, "speedwar challenge", opponent=bob, rounds=3)
    message = ix.message
    match_id = int(message.buttons[0]["custom_id"].split(":")[2])
    await stored(env, match_id)
    # Discord holds the thread's first round (its buttons) for 10 s: nobody can press before it is there
    held = 10.0
    hold = env.hold(lambda request: request.method == "POST" and request.template == "/channels/{channel_id}/messages"
                    and "Speed War — round 1" in json.dumps(request.body, ensure_ascii=False))
    await (await env.click(bob, message, custom_id=f"sw:c:{match_id}:accept")).wait_response()
    await hold.wait(timeout=10)
    first = (await speedwar.service(env).get_match(match_id)).deadline_at
    assert first is not None
    env.clock.advance(held)
    hold.release()
    thread = await env.wait_for(lambda: message.thread, message="no thread")
    shown, _ = await speedwar.live_round(env, match_id, thread, 1)
    await settled(env, match_id)

    match = await speedwar.service(env).get_match(match_id)
    assert match.deadline_at == pytest.approx(first + held, abs=1.0)  # moved by the delay
    moved = [q.event for q in await speedwar.service(env).outbox.events(match_id) if q.type == "deadline_moved"]
    assert [(e["reason"], e["engagement"]) for e in moved] == [("delivery", 1)]
    # (its message is not edited for it: an edit would restart the round's reaction clock)
    assert deadline_shown(shown.text) == int(first) and len(shown.history) == 0
    # past the first deadline, before the moved one: the round is still open
    env.clock.advance(first - env.clock.time() + 1)
    await settled(env, match_id)
    assert not [q for q in await speedwar.service(env).outbox.events(match_id) if q.type == "round_timeout"]
    assert speedwar.round_message(env, thread, 1).buttons


def test_a_label_showing_a_mention_or_custom_emoji_is_caught():
    from tests.e2e.live_table_checks import assert_labels_plain

    assert_labels_plain([{"type": 1, "components": [{"type": 2, "label": "Steal the 7♣ pile", "custom_id": "x"}]}])
    for raw in ("Steal <@123>'s pile", "Play <:c_QS:1000>", "Ends <t:1795870563:R>"):
        with pytest.raises(AssertionError, match="raw markup"):
            assert_labels_plain([{"type": 17, "components": [
                {"type": 1, "components": [{"type": 2, "label": raw, "custom_id": "x"}]}]}])
