"""A tournament keeps its channel quiet, end to end (the real bot, the local Discord, real War games at instant pace):

* a 4-player single elimination puts five messages of its own in the channel: the status message (signup, then
  the bracket picture and the champion, edited throughout), one Ready call per round and one summary per round;
  its signup words the rules as the game does (no ``key=value``, no ``False``/``None``); a Ready button is disabled
  once its game is under way and over, and a click that beats that edit is answered privately;
* starting a 64-player tournament posts its 32 first-round pairings on two call messages (16 buttons each, within
  Discord's 25 buttons and 2,000 characters), not 32 messages; cancelling it disables every button.
"""

from __future__ import annotations

import asyncio
import contextlib
import io

import pytest
from PIL import Image

from bot.games.war.render import rules_text
from bot.render.bracket import PREVIEW_WIDTH
from bot.render.common import MESSAGE_LIMIT
from tests.e2e.test_tournament import (
    call_messages,
    create,
    line_of,
    note,
    open_calls,
    pairings,
    start,
    status_message,
    status_text,
    summaries,
    tournament_rows,
    wait_over,
)
from tests.localdiscord import Env, User
from tests.localdiscord.state import IS_COMPONENTS_V2, MSG_THREAD_CREATED

pytestmark = pytest.mark.e2e


async def press(env: Env, user: User, custom_id: str) -> str:
    message = next(m for m in call_messages(env) if any(b["custom_id"] == custom_id for b in m.buttons))
    ix = await env.click(user, message, custom_id=custom_id)
    await ix.wait_response()
    return await note(env, user)


async def play_call(env: Env, players: list[User]) -> None:
    """Everyone presses Ready on each of their live buttons."""
    for player in players:
        for _, custom_id in open_calls(env, player):
            await press(env, player, custom_id)


async def decided(env: Env, tid: int, key: str) -> None:
    service = tournament_rows(env)
    for _ in range(200):
        if (await service.bracket_match(tid, key)).status == "decided":
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{key} was not decided")


async def test_a_four_player_tournament_posts_five_messages_and_turns_spent_buttons_off(make_env, tmp_path):
    env = await start(make_env, tmp_path / "t.db")
    organiser = env.user("org")
    players = [env.user(name) for name in ("ann", "ben", "cat", "dan")]
    tid = await create(env, organiser, "single elimination", players, no_show=5,
                       rules="pack=32 max_rounds=200 capture_pile=false target=none")
    service = tournament_rows(env)
    tournament = await service.get(tid)

    # the signup words the rules as the game does
    signup = status_text(env)
    rules_line = next(line for line in signup.splitlines() if line.startswith("**Rules:**"))
    assert rules_line == f"**Rules:** {rules_text('war', tournament.rules)}"
    assert "=" not in signup and "False" not in signup and "None" not in signup and "capture_pile" not in signup
    assert "one game per match" in signup and "press Ready within 5 minutes of a call" in signup
    assert "pace: instant (played out at once)" in signup

    ix = await env.slash(organiser, "tournament start")
    await ix.wait_response()
    await env.wait_for(lambda: [len(pairings(m)) for m in call_messages(env)] == [2])
    (semifinals,) = call_messages(env)
    assert semifinals.text.startswith("📣 **Friday Cup** · **Semifinals**")
    assert all(player.mention in semifinals.text for player in players)  # everyone called is pinged

    # the first semifinal: one player is ready, then the other; the edit that turns the button off is held back,
    # and a click on the button meanwhile is answered privately
    (_, first_id), = open_calls(env, players[0])
    key = first_id.rsplit(":", 1)[1]
    line, _ = line_of(env, first_id)
    first_pair = [p for p in players if p.mention in line]
    assert await press(env, first_pair[0], first_id) == "Ready! Waiting for your opponent."
    await env.wait_for(lambda: "✅" in line_of(env, first_id)[0])
    hold = env.hold(lambda r: r.method == "PATCH" and r.params.get("message_id") == str(semifinals.id))
    assert await press(env, first_pair[1], first_id) == "Ready! Your game starts now."
    await hold.wait()
    await decided(env, tid, key)
    _, button = line_of(env, first_id)
    assert not button.get("disabled")  # the edit has not landed yet
    late = await press(env, first_pair[0], first_id)
    row = await service.bracket_match(tid, key)
    assert late == f"This match is over: <@{row.winner_id}> won it."
    assert env.ephemerals(first_pair[0])[-1].ephemeral
    hold.release()
    # the spent button goes off and says why; the line gives the result
    await env.wait_for(lambda: line_of(env, first_id)[1].get("disabled")
                       and line_of(env, first_id)[1]["label"].endswith(": over"))
    assert f"🏁 <@{row.winner_id}> wins" in line_of(env, first_id)[0]

    # the rest of the tournament, round by round
    await play_call(env, players)
    await env.wait_for(lambda: len(call_messages(env)) == 2, timeout=10)
    final_call = call_messages(env)[1]
    assert "**Final**" in final_call.text and len(pairings(final_call)) == 1
    await play_call(env, players)
    status = await wait_over(env)
    tournament = await service.get(tid)
    assert tournament.status == "finished"
    assert f"🏆 **Champion: <@{tournament.champion_id}>**" in status.body

    # the tournament's own messages: five, in this order
    ours = [m for m in env.messages() if m.id == status.id or m in call_messages(env) or m in summaries(env)]
    kinds = ["status" if m.id == status.id else "call" if m.text.startswith("📣") else "summary" for m in ours]
    assert kinds == ["status", "call", "summary", "call", "summary"]
    semis_summary, final_summary = summaries(env)
    assert "**Semifinals** is over" in semis_summary.text and semis_summary.text.count("• ") == 2
    assert f"🏆 <@{tournament.champion_id}> is the champion of **Friday Cup**!" in final_summary.text
    # every other message in the channel is one of the games' own (their link lines, Discord's notices of their
    # threads)
    war = env.bot.get_cog("War").service
    game_messages: set[int] = set()
    threads: set[str] = set()
    for game in await service.games(tid):
        match = await war.get_match(game.match_id)
        game_messages |= set(match.messages.values())
        threads.add(env.world.get_channel(match.thread_id).name)
    others = [m for m in env.messages() if m not in ours]
    assert all(m.id in game_messages or (m.type == MSG_THREAD_CREATED and m.text in threads) for m in others), \
        [m.text for m in others]
    assert len(env.messages()) == 5 + len(others)
    # no Ready button is left live
    assert all(b.get("disabled") for m in call_messages(env) for b in m.buttons)


async def test_starting_a_64_player_tournament_posts_two_ready_calls(make_env, tmp_path):
    env = await start(make_env, tmp_path / "t.db")
    organiser = env.user("org")
    players = [env.user(f"player{n:02d}") for n in range(64)]
    tid = await create(env, organiser, "single elimination", players, no_show=10)
    before = len(env.messages())
    ix = await env.slash(organiser, "tournament start")
    await ix.wait_response()
    await env.wait_for(lambda: sum(len(pairings(m)) for m in call_messages(env)) == 32, timeout=10)
    calls = call_messages(env)
    assert len(calls) == 2 and len(env.messages()) == before + 2
    for number, call in enumerate(calls, start=1):
        assert call.text.startswith(f"📣 **Friday Cup** · **Round 1** ({number} of 2)")
        assert len(call.buttons) == 16 and len(call.text) <= MESSAGE_LIMIT
        assert all(b["label"].startswith("Ready: ") for b in call.buttons)
    mentioned = "\n".join(call.text for call in calls)
    assert all(mentioned.count(player.mention) == 1 for player in players)
    assert "**Now:** Round 1 (32 matches to play)" in status_text(env)
    # the bracket as several pictures, each as wide as Discord's preview
    await env.wait_for(lambda: len(status_message(env).attachments) > 1, timeout=10)
    for attachment in status_message(env).attachments:
        width, height = Image.open(io.BytesIO(attachment.data)).size
        assert width == PREVIEW_WIDTH and height <= 640, (attachment.filename, width, height)
    ix = await env.slash(organiser, "tournament cancel")
    await ix.wait_response()
    await env.wait_for(lambda: all(b.get("disabled") for m in call_messages(env) for b in m.buttons))
    assert all(b["label"].endswith(": called off") for m in call_messages(env) for b in m.buttons)
    assert len(env.messages()) == before + 2
    assert (await tournament_rows(env).get(tid)).status == "cancelled"
    status = status_message(env)
    assert status.attachments  # the bracket picture stays on the status message, shown by its V2 layout
    assert status.flags & IS_COMPONENTS_V2 and status.images == [a.url for a in status.attachments]
    assert all(call.flags & IS_COMPONENTS_V2 for call in call_messages(env))


async def test_a_tournament_shown_nowhere_is_tried_again_by_the_kits_show_loop(make_env, tmp_path):
    """The tournament channel is shown by the kit's show loop, the one every game's presenter runs on: events that
    could not be shown stay queued, a retry waits under the loop's own timer, and once the channel is back the
    Ready call is posted."""
    from cogs.kit.presenter import RETRY_LATER, ShowLoop
    from tests.localdiscord.state import VIEW_CHANNEL, Overwrite

    env = await start(make_env, tmp_path / "t.db")
    organiser = env.user("org")
    players = [env.user(name) for name in ("ann", "ben", "cat", "dan")]
    tid = await create(env, organiser, "single elimination", players)
    cog = env.bot.get_cog("Tournament")
    assert isinstance(cog, ShowLoop)
    channel = env.channel()
    hidden = Overwrite(target=env.world.bot_role, deny=VIEW_CHANNEL)
    channel.overwrites.append(hidden)

    ix = await env.slash(organiser, "tournament start")
    await ix.wait_response()
    await env.wait_for(lambda: env.bot.timers.armed(cog.retry_key(tid)))
    assert not call_messages(env)
    assert await tournament_rows(env).unshown_events(tid)

    channel.overwrites.remove(hidden)
    for _ in range(12):
        env.clock.advance(RETRY_LATER[0])
        with contextlib.suppress(TimeoutError):
            await env.wait_for(lambda: call_messages(env), timeout=0.25)
            break
    assert [len(pairings(m)) for m in call_messages(env)] == [2]
    await env.wait_for(lambda: tid not in cog._tasks)
    assert not await tournament_rows(env).unshown_events(tid)
    assert all("showing tournament" in r.getMessage() for r in env.take_error_logs())  # the refused tries
