"""No English left in Bundle War: a three-player game through a lobby played in the pseudo-language (every catalogue
string's letters swapped, see :mod:`tests.bot.i18n.pseudo`), the server's public messages set to it and every
player's client speaking it, then every version of every message the bot showed anyone (the channel, the thread,
the DM panels, the ephemeral answers) is read for plain English words: a string that never went through a
catalogue.

The game: the lobby (join, leave, join again, start), steps played from the DM panels (a steal whenever one is
offered, else the card played; the first card offered on top), a panel opened from the board's **Choose** and a
press on it once the step was chosen from the DM (refused), a step whose deadline passes, the status, a forfeit
(the others play on), then a second (the last player wins), the result and its Rematch (a new lobby). Messages and
buttons are found by their custom ids and the database, never by their words."""

from __future__ import annotations

import asyncio

import pytest

from tests.bot.i18n.pseudo import PSEUDO, english_in_messages, pseudo_language
from tests.e2e.test_airwar import fast_bot, lift_rate_limits, settled, slash, stored
from tests.localdiscord import Env, Message, User

pytestmark = pytest.mark.e2e

#: steps played from the panels before the time-out, the status and the forfeits (a steal and a war on the way)
STEPS = 40

def every_message(env: Env) -> list[Message]:
    """Everything the bot showed: every channel's, thread's and DM's messages, the ephemeral answers too."""
    return [message for message in env.world.messages.values() if message.author.id == env.bot.user.id]


def service(env: Env):
    return env.bot.get_cog("BundleWar").service


def with_buttons(messages: list[Message], prefix: str) -> Message | None:
    """The last of ``messages`` with a button whose custom id starts with ``prefix``."""
    return next((m for m in reversed(messages) if any(b["custom_id"].startswith(prefix) for b in m.buttons)), None)


async def click(env: Env, user: User, message: Message, custom_id: str):
    ix = await env.click(user, message, custom_id=custom_id)
    await ix.wait_response()
    return ix


async def dm_panel(env: Env, user: User, match_id: int, step: int) -> Message:
    found = None
    for _ in range(400):
        found = with_buttons(env.messages(user), f"bw:p:{match_id}:{step}:")
        if found is not None:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"no panel of step {step} for {user.name}")


def chosen(panel: Message, match_id: int, step: int) -> str:
    """A steal when one is offered, else the first button (play, or the first card on top)."""
    keys = [b["custom_id"] for b in panel.buttons if b["custom_id"].startswith(f"bw:p:{match_id}:{step}:")]
    return next((key for key in keys if ":steal:" in key), keys[0])


async def play_step(env: Env, users: dict[int, User], match_id: int) -> bool:
    """Every waiting seat chooses from its DM panel; ``False`` once the match is over."""
    await settled(env, match_id)
    match = await service(env).get_match(match_id)
    if match.status != "active":
        return False
    step = match.step
    for seat in service(env).flow.waiting_for(await _game(env, match_id)):
        panel = await dm_panel(env, users[seat], match_id, step)
        await click(env, users[seat], panel, chosen(panel, match_id, step))
    return True


async def _game(env: Env, match_id: int):
    from bot.games.bundlewar.engine import BundleWar
    from bot.storage import matches as store

    async with service(env).db.read() as conn:
        state = await store.load_state(conn, match_id)
    return BundleWar.from_json(state)


async def test_bundle_war_shows_no_english_in_the_pseudo_language(make_env, tmp_path):
    with pseudo_language():
        env = await make_env(fast_bot(tmp_path / "bundlewar.db", seed=8))
        lift_rate_limits(env)
        anna, ben, cara = (env.user(name, locale=PSEUDO) for name in ("anna", "ben", "cara"))
        await env.bot.guild_settings.set_language(env.guild.id, PSEUDO)

        # the lobby: ben joins, leaves and joins again, cara joins, anna (the host) starts
        ix = await slash(env, anna, "bundlewar lobby", small=True)
        lobby = ix.message
        match_id = int(lobby.buttons[0]["custom_id"].split(":")[2])
        await stored(env, match_id)
        for user, action in ((ben, "join"), (ben, "leave"), (ben, "join"), (cara, "join")):
            await click(env, user, lobby, f"bw:l:{match_id}:{action}")
            await settled(env, match_id)
        await click(env, anna, lobby, f"bw:l:{match_id}:start")
        thread = await env.wait_for(lambda: lobby.thread, message="no thread")
        match = await service(env).get_match(match_id)
        users = {seat: {anna.id: anna, ben.id: ben, cara.id: cara}[user_id]
                 for seat, user_id in enumerate(match.user_ids)}
        assert len(users) == 3

        # the first step that asks (the first round's cards can steal nothing: they played themselves): one player
        # opens the panel from the board, chooses from the DM, then presses the opened panel's button: refused
        # (chosen already)
        await settled(env, match_id)
        match = await service(env).get_match(match_id)
        waiting = service(env).flow.waiting_for(await _game(env, match_id))
        step, first = match.step, users[waiting[0]]
        board = with_buttons(env.messages(thread), f"bw:open:{match_id}:{step}")
        assert board is not None
        opened = await click(env, first, board, f"bw:open:{match_id}:{step}")
        ephemeral = opened.message
        panel = await dm_panel(env, first, match_id, step)
        await click(env, first, panel, chosen(panel, match_id, step))
        refused = await click(env, first, ephemeral, chosen(ephemeral, match_id, step))
        assert refused.response.ephemeral
        for seat in waiting[1:]:
            panel = await dm_panel(env, users[seat], match_id, step)
            await click(env, users[seat], panel, chosen(panel, match_id, step))

        for _ in range(STEPS):
            if not await play_step(env, users, match_id):
                break

        # a deadline passes: the default is played for the late
        await settled(env, match_id)
        match = await service(env).get_match(match_id)
        assert match.status == "active", "the game ended before its time-out, status and forfeits"
        env.clock.advance(match.deadline_at - env.clock.time() + 5)
        await asyncio.sleep(0.2)
        for _ in range(200):
            await settled(env, match_id)
            if (await service(env).get_match(match_id)).step != match.step:
                break
            await asyncio.sleep(0.05)
        events = await service(env).outbox.events(match_id)
        assert any(q.type == "turn_timeout" for q in events)

        # the status of each player
        for user in users.values():
            await slash(env, user, "bundlewar status")

        # cara forfeits (the others play on), then ben: anna wins
        for user in (cara, ben):
            ix = await slash(env, user, "bundlewar forfeit")
            await click(env, user, ix.message, f"bw:ff:{match_id}:yes")
            await settled(env, match_id)
            if (await service(env).get_match(match_id)).status != "active":
                break
            await play_step(env, users, match_id)
        match = await service(env).get_match(match_id)
        assert match.status == "finished"
        events = await service(env).outbox.events(match_id)
        kinds = {q.type for q in events}
        assert {"step_played", "battle", "war", "take", "out", "turn_timeout", "game_over"} <= kinds, kinds
        assert any(q.type == "step_played" and q.event["steals"] for q in events)

        # the Rematch: a new lobby
        result = await env.wait_for(lambda: with_buttons(env.messages(lobby.channel), f"bw:rm:{match_id}"),
                                    message="no Rematch")
        await click(env, ben, result, f"bw:rm:{match_id}")
        await env.wait_for(lambda: (m := with_buttons(env.messages(lobby.channel), "bw:l:")) is not None
                           and f"bw:l:{match_id}:" not in m.buttons[0]["custom_id"], message="no new lobby")

        names = [f"<@{user.id}>" for user in users.values()] + ["anna", "ben", "cara", "Anna", "Ben", "Cara"]
        assert english_in_messages(every_message(env), names) == []
