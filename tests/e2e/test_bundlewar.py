"""Bundle War end to end through the local Discord: a two-player game on the short pack played to the end from the
private panels (steal whenever a steal is offered, else play; the first card offered on top), with a steal and a
war; no card a player looks at ever shows in a public message or the other player's panel before it is played; the
match file replays to the stored result."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.games.bundlewar.engine import BundleWar
from bot.games.bundlewar.flow import action_of
from bot.replay import replay
from bot.storage import matches as store
from tests.e2e.live_table_checks import assert_live_table_in_v2
from tests.e2e.test_airwar import fast_bot, lift_rate_limits, settled, slash, stored
from tests.localdiscord import Env, Message

pytestmark = pytest.mark.e2e

SEED = 8
LOOK = re.compile(r"You look at \*\*(.+?)\*\*")


def service(env: Env):
    return env.bot.get_cog("BundleWar").service


def panel_of(env: Env, user, step: int) -> Message | None:
    return next((m for m in reversed(env.messages(user)) if m.title == f"Bundle War — step {step}"), None)


def result_of(env: Env, thread) -> Message | None:
    return next((m for m in env.messages(thread) if m.title.startswith(
        "Bundle War — ") and ("wins" in m.title or m.title.endswith("draw"))), None)


async def test_a_game_with_a_steal_and_a_war_to_the_end(make_env, tmp_path):
    env = await make_env(fast_bot(tmp_path / "bundlewar.db", seed=SEED))
    lift_rate_limits(env)
    match_id, thread = await play(env, small=True)
    result = await env.wait_for(lambda: result_of(env, thread), message="no result")
    await settled(env, match_id)
    events = [q for q in await service(env).outbox.events(match_id)]
    assert any(q.type == "step_played" and q.event["steals"] for q in events)
    assert any(q.type == "war" for q in events)
    assert any("steals" in m.text and "pile with" in m.text for m in env.messages(thread))
    await check_finished(env, match_id, result)
    assert_live_table_in_v2(env, [env.channel(), thread])
    check_one_message_per_round(env, thread, events)


def rounds_played(events) -> int:
    """How many rounds the match's events show (a last round may end with the game, before any take)."""
    return len({q.event["round"] for q in events if q.event.get("round") is not None})


def check_one_message_per_round(env: Env, thread, events) -> None:
    """The thread has at most one message of the bot per round (each round's message edited step by step, the last
    one the result), none keeps a live button, and nobody got an ephemeral message."""
    rounds = rounds_played(events)
    created = [m for m in env.messages(thread) if m.author is env.bot_user]
    print(f"Bundle War, {rounds} rounds: {len(created)} thread messages, {sum(len(m.history) for m in created)} edits")
    assert len(created) <= rounds, [m.title for m in created]
    assert not any(m.buttons for m in created)
    assert created[-1].title.startswith("Bundle War — ") and created[-1].title != "Bundle War — round 1"
    assert not env.ephemerals(env.user("alice")) and not env.ephemerals(env.user("bob"))


async def test_a_pick_of_six_won_cards_fits_the_panel_and_the_game_goes_on(make_env, tmp_path):
    # the default game of seed 8: after a war in round 10 the winner picks the top of their pile from six face-up
    # cards (10♠ 10♦ J♠ J♦ Q♠ A♥); one button per rank (only a top's rank matters), and no crash, no forfeit
    env = await make_env(fast_bot(tmp_path / "bundlewar.db", seed=SEED))
    lift_rate_limits(env)
    picks: list[tuple[list[str], list[str]]] = []
    match_id, thread = await play(env, small=False, picks=picks)
    result = await env.wait_for(lambda: result_of(env, thread), message="no result")
    await settled(env, match_id)
    won, offered = next((won, offered) for won, offered in picks if len(won) >= 6)
    assert won == ["10S", "10D", "JS", "JD", "QS", "AH"]
    assert offered == ["10S", "JS", "QS", "AH"]
    match = await check_finished(env, match_id, result)
    assert match.result["reason"] != "timeout"
    events = await service(env).outbox.events(match_id)
    assert not any(q.type in ("turn_timeout", "forfeit") for q in events)
    check_one_message_per_round(env, thread, events)


async def test_a_choice_that_is_the_only_one_plays_itself_and_is_shown_not_asked(make_env, tmp_path):
    """A card that can only be played (no pile top of its rank to steal) and a pile-top pick from won cards of one
    rank play themselves: in a whole game no panel ever shows a single choice button, and a player with nothing
    to choose gets no panel of the step; the thread still shows every card played, and the game ends with its
    result and a match file that replays to it."""
    env = await make_env(fast_bot(tmp_path / "bundlewar.db", seed=SEED))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    single: list[tuple[str, str]] = []
    shown: set[tuple[int, str]] = set()  # (seat, title) of every panel a player's DMs showed

    def watch() -> None:  # every change of the local Discord: no panel offers one choice alone, ever
        for seat, user in enumerate((alice, bob)):
            for message in env.messages(user):
                if message.title.startswith("Bundle War — step"):
                    shown.add((seat, message.title))
                    if len(message.buttons) == 1:
                        single.append((message.title, message.buttons[0]["custom_id"]))

    env.world.listeners.append(watch)
    match_id, thread = await play(env, small=True)
    result = await env.wait_for(lambda: result_of(env, thread), message="no result")
    await settled(env, match_id)
    assert single == []
    async with service(env).db.read() as conn:
        log = await store.actions(conn, match_id)
    played_themselves = [action for action in log if action.kind == "only"]
    assert played_themselves and any(action.action["type"] == "play" for action in played_themselves)
    steps_asked = {(action.seat, action.step) for action in log if action.kind == "choice"}
    assert not steps_asked & {(action.seat, action.step) for action in played_themselves}
    assert not shown & {(action.seat, f"Bundle War — step {action.step}") for action in played_themselves}
    events = await service(env).outbox.events(match_id)
    played = [entry["card"] for q in events if q.type == "step_played" for entry in q.event["played"]]
    lines = [line for m in env.messages(thread) for line in m.text.splitlines() if " plays " in line]
    assert len(lines) == len(played) >= len([a for a in played_themselves if a.action["type"] == "play"])
    await check_finished(env, match_id, result)
    check_one_message_per_round(env, thread, events)


async def accepted_challenge(env: Env, *, small: bool) -> tuple[int, Any]:
    """Alice challenges Bob to Bundle War and Bob accepts: the match's id and its thread."""
    alice, bob = env.user("alice"), env.user("bob")
    challenge = (await slash(env, alice, "bundlewar challenge", opponent=bob, small=small)).message
    match_id = int(challenge.buttons[0]["custom_id"].split(":")[2])
    await stored(env, match_id)
    await (await env.click(bob, challenge, custom_id=f"bw:c:{match_id}:accept")).wait_response()
    return match_id, await env.wait_for(lambda: challenge.thread, message="no thread")


async def play(env: Env, *, small: bool, picks: list[tuple[list[str], list[str]]] | None = None) -> tuple[int, Any]:
    """Alice challenges Bob and both play from their panels to the end (steal whenever a steal is offered, else
    play; the first card offered on top), checking that the card a player looks at is theirs alone. ``picks``
    gets each pile-top pick: the won face-up cards and the cards the panel offers."""
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await accepted_challenge(env, small=small)
    users = (alice, bob)

    for _ in range(1000):
        await settled(env, match_id)
        match = await service(env).get_match(match_id)
        if match.status != "active":
            break
        step = match.step
        game = await _game(env, match_id)
        waiting = service(env).flow.waiting_for(game)
        panels = {seat: await env.wait_for(lambda s=seat, n=step: (p := panel_of(env, users[s], n)) is not None
                                           and p.buttons and p, message=f"no panel for step {step}")
                  for seat in waiting}
        for seat, panel in panels.items():  # the card a player looks at is theirs alone
            looked = LOOK.search(panel.text)
            if looked:
                other = users[1 - seat]
                board = next(m for m in reversed(env.messages(thread)) if m.author is env.bot_user)
                assert looked[1] not in board.text
                other_panel = panel_of(env, other, step)
                assert other_panel is None or looked[1] not in other_panel.text
        for seat, panel in panels.items():
            keys = [b["custom_id"] for b in panel.buttons]
            if picks is not None and game.phase == "top":
                picks.append((list(dict.fromkeys(game.shown)), [k.split(":top:")[1] for k in keys]))
            chosen = next((k for k in keys if ":steal:" in k), keys[0])
            ix = await env.click(users[seat], panel, custom_id=chosen)
            await ix.wait_response()
    return match_id, thread


async def check_finished(env: Env, match_id: int, result: Message) -> Any:
    """The match is finished and its file replays to the stored result, which the result message names."""
    match = await service(env).get_match(match_id)
    assert match.status == "finished"
    last = list(replay(await service(env).export(match_id)))[-1]
    assert last["winner"] == match.result["winner"] and last["reason"] == match.result["reason"]
    assert ("wins" in result.title) == (match.result["winner"] is not None)
    return match


async def _game(env: Env, match_id: int) -> BundleWar:
    async with service(env).db.read() as conn:
        state = await store.load_state(conn, match_id)
    return BundleWar.from_json(state)


async def test_a_player_choosing_from_the_thread_is_mentioned_once_and_the_round_message_opens_the_panel(
        make_env, tmp_path):
    # alice plays from the thread (``here``), bob by DM: each round's message carries Choose while a step waits;
    # alice's panel opens from it (ephemeral: her private panel); she is mentioned once, by the first round's message
    env = await make_env(fast_bot(tmp_path / "bundlewar.db", seed=SEED))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    await slash(env, alice, "preferences panels", options={"where": "here"})
    match_id, thread = await accepted_challenge(env, small=True)
    for _ in range(1000):
        await settled(env, match_id)
        match = await service(env).get_match(match_id)
        if match.status != "active":
            break
        step, game = match.step, await _game(env, match_id)
        live = env.world.messages[match.messages[f"round:{game.round}"]]
        assert [b["label"] for b in live.buttons] == ["Choose"] and live.title.endswith(f"step {step}")
        for seat in service(env).flow.waiting_for(game):
            if seat == 0:
                opened = await env.click(alice, live, "Choose")
                assert (await opened.wait_response()).ephemeral
                panel = await env.wait_for(lambda n=step: next((m for m in reversed(env.ephemerals(alice))
                                                                if m.title == f"Bundle War — step {n}"), None))
                looked = LOOK.search(panel.text)
                assert looked is None or looked[1] not in live.text  # her card is in her panel alone
            else:
                panel = await env.wait_for(lambda n=step: (p := panel_of(env, bob, n)) is not None and p.buttons
                                           and p, message=f"no DM panel for step {step}")
            key = next((b["custom_id"] for b in panel.buttons if ":steal:" in b["custom_id"]),
                       panel.buttons[0]["custom_id"])
            await (await env.click((alice, bob)[seat], panel, custom_id=key)).wait_response()
    result = await env.wait_for(lambda: result_of(env, thread), message="no result")
    await settled(env, match_id)
    await check_finished(env, match_id, result)
    created = [m for m in env.messages(thread) if m.author is env.bot_user]
    events = await service(env).outbox.events(match_id)
    assert len(created) <= rounds_played(events), " | ".join(m.title for m in created)
    # she is called by a round's message when it is posted, or by a note that goes once its step is over
    calls = [m for m in env.messages(thread, include_deleted=True) if alice in m.notified]
    assert calls and all(m in created or (m.deleted and not m.title) for m in calls)
    assert not any(bob in m.notified for m in created) and env.messages(alice) == []
    assert all(m.title.startswith("Bundle War — step ") for m in env.ephemerals(alice, channel=thread))  # panels
    assert not env.ephemerals(bob)


async def test_a_player_whose_panel_moves_to_the_thread_mid_round_gets_a_note_that_goes_with_its_step(
        make_env, tmp_path):
    # both play by DM until a step bob chooses in after which the same round asks alice again (seed 6's short game:
    # round 13); her DMs close before bob's choice: her next panel opens from the round's message, posted
    # without her mention; an edit notifies nobody, so a short note mentions her, deleted once she has chosen
    env = await make_env(fast_bot(tmp_path / "bundlewar.db", seed=6))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await accepted_challenge(env, small=True)
    users = (alice, bob)
    for _ in range(1000):
        await settled(env, match_id)
        match = await service(env).get_match(match_id)
        assert match.status == "active", "no step of the game asked alice again in its round"
        step, game = match.step, await _game(env, match_id)
        waiting = service(env).flow.waiting_for(game)
        panels = {seat: await env.wait_for(lambda s=seat, n=step: (p := panel_of(env, users[s], n)) is not None
                                           and p.buttons and p, message=f"no DM panel for step {step}")
                  for seat in waiting}
        keys = {seat: next((b["custom_id"] for b in panel.buttons if ":steal:" in b["custom_id"]),
                           panel.buttons[0]["custom_id"]) for seat, panel in panels.items()}
        if 1 in waiting:
            after = BundleWar.from_json(game.to_json())
            for seat in waiting:
                after.apply(seat, action_of(keys[seat].split(":", 4)[4]))
            while not after.is_over and (only := [seat for seat in after.pending_seats()
                                                  if len(after.legal_actions(seat)) == 1]):
                after.apply(only[0], after.legal_actions(only[0])[0])  # as the kernel plays them
            if (not after.is_over and after.round == game.round and 0 in after.pending_seats()
                    and len(after.legal_actions(0)) > 1):
                break
        for seat in waiting:
            await (await env.click(users[seat], panels[seat], custom_id=keys[seat])).wait_response()
    if 0 in waiting:
        await (await env.click(alice, panels[0], custom_id=keys[0])).wait_response()
        await settled(env, match_id)
    env.user("alice", dms_open=False)
    for message in env.messages(alice):  # her DM panel is gone, and no new DM can reach her
        message.deleted = True
    await (await env.click(bob, panels[1], custom_id=keys[1])).wait_response()
    await settled(env, match_id)

    match = await service(env).get_match(match_id)
    live = env.world.messages[match.messages[f"round:{game.round}"]]
    assert [b["label"] for b in live.buttons] == ["Choose"]
    assert not any(alice in m.notified for m in env.messages(thread) if m.title.startswith("Bundle War — round"))
    [note] = [m for m in env.messages(thread) if alice in m.notified]
    assert note is not live and "**Choose**" in note.text and note.id > live.id
    opened = await env.click(alice, live, "Choose")
    assert (await opened.wait_response()).ephemeral
    panel = await env.wait_for(lambda: next((m for m in env.ephemerals(alice) if m.title == f"Bundle War — step "
                                             f"{match.step}"), None), message="no panel from the thread")
    await (await env.click(alice, panel, custom_id=panel.buttons[0]["custom_id"])).wait_response()
    await settled(env, match_id)
    assert note.deleted  # its step is over: the thread keeps one message a round
    assert not any(alice in m.notified for m in env.messages(thread))
