"""No English left in Casino War: a table of two played in the pseudo-language (every catalogue string's letters
swapped, see :mod:`tests.bot.i18n.pseudo`), the server's public messages set to it and every player's client
speaking it, through every surface of the game -- the table's message (Join, Deal, the host's status), the refusals
(a table's bad limits, no table, someone else's button, a choice already in, a stale panel), the panels by DM and
from the thread's **Bet** button and the status command's button, a tie with a surrender and a war, a missed bet, a
player who stays and then leaves, two missed bets that close the table, the result, ``/casinowar chips`` and the
rematch's new table -- then every version of every message the bot showed anyone (the channel, the thread, the DMs,
the ephemeral answers) is read for plain English words: a string that never went through a catalogue."""

from __future__ import annotations

import asyncio

import pytest

from bot.games.casinowar.engine import CasinoWar
from tests.bot.i18n.pseudo import PSEUDO, english_in_messages, pseudo_language
from tests.e2e.test_airwar import fast_bot, lift_rate_limits
from tests.localdiscord import Env, Message, User

pytestmark = pytest.mark.e2e

#: dealt from this seed, hand 1 ties for both players (anna bets 10 with the tie bet, ben 20)
SEED = 79
HANDS = 8  #: more than are played: the table closes when anna, alone, misses two bets in a row


def every_message(env: Env) -> list[Message]:
    """Everything the bot showed: every channel's, thread's and DM's messages, the ephemeral answers too."""
    return [message for message in env.world.messages.values() if message.author.id == env.bot.user.id]


def with_buttons(messages: list[Message], prefix: str) -> Message | None:
    """The newest of ``messages`` with a button whose custom id starts with ``prefix`` (whatever its words)."""
    return next((m for m in reversed(messages) if any(b["custom_id"].startswith(prefix) for b in m.buttons)), None)


async def press(env: Env, user: User, message: Message, custom_id: str):
    ix = await env.click(user, message, None, custom_id=custom_id)
    await ix.wait_response()
    return ix


async def slash(env: Env, user: User, command: str, **options):
    ix = await env.slash(user, command, **options)
    await ix.wait_response()
    return ix


class Table:
    """The table being played: its match, thread and players, read from the database and the local Discord."""

    def __init__(self, env: Env, match_id: int, users: tuple[User, User]) -> None:
        self.env = env
        self.match_id = match_id
        self.users = users
        self.service = env.bot.service_for("casinowar")

    async def settled(self) -> None:
        for _ in range(1000):
            if not await self.service.outbox.unshown_events(self.match_id):
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the table still has events to show")

    async def match(self):
        await self.settled()
        return await self.service.get_match(self.match_id)

    async def dm_panel(self, user: User, step: int) -> Message:
        prefix = f"cw:p:{self.match_id}:{step}:"
        return await self.env.wait_for(lambda: with_buttons(self.env.messages(self.env.dm(user)), prefix),
                                       message=f"no DM panel of step {step}")

    async def turn_message(self, step: int) -> Message:
        thread = self.env.world.channels[(await self.match()).thread_id]
        prefix = f"cw:open:{self.match_id}:{step}"
        return await self.env.wait_for(lambda: with_buttons(self.env.messages(thread), prefix),
                                       message=f"no Bet button for step {step}")

    async def panel_here(self, user: User, step: int) -> Message:
        """The user's panel of ``step`` opened from the thread's **Bet** button (ephemeral)."""
        await press(self.env, user, await self.turn_message(step), f"cw:open:{self.match_id}:{step}")
        prefix = f"cw:p:{self.match_id}:{step}:"
        return await self.env.wait_for(lambda: with_buttons(self.env.ephemerals(user), prefix),
                                       message=f"no panel of step {step} in the thread")

    async def miss(self) -> None:
        """The step's deadline passes: whoever has not chosen yet misses it."""
        match = await self.match()
        self.env.clock.advance(match.deadline_at - self.env.clock.time() + 1)
        for _ in range(1000):
            now = await self.service.get_match(self.match_id)
            if now.step != match.step or now.status != "active":
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError(f"step {match.step} outlived its deadline")
        await self.settled()


async def test_a_casino_war_table_shows_no_english_in_the_pseudo_language(make_env, tmp_path):
    with pseudo_language():
        env = await make_env(fast_bot(tmp_path / "casinowar.db", seed=SEED))
        lift_rate_limits(env)
        anna, ben, carl = (env.user(name, locale=PSEUDO) for name in ("anna", "ben", "carl"))
        await env.bot.guild_settings.set_language(env.guild.id, PSEUDO)
        env.channel()

        # refusals before any table: limits that can't be, no table, no chips yet
        await slash(env, carl, "casinowar table", min_bet=100, max_bet=10)
        await slash(env, carl, "casinowar status")
        await slash(env, carl, "casinowar leave")
        await slash(env, carl, "casinowar chips")

        # the table: anna opens it, ben joins, anna's status while it waits, anna deals
        ix = await slash(env, anna, "casinowar table", hands=HANDS)
        lobby = ix.message
        match_id = int(lobby.buttons[0]["custom_id"].split(":")[2])
        table = Table(env, match_id, (anna, ben))
        await press(env, ben, lobby, f"cw:l:{match_id}:join")
        await slash(env, anna, "casinowar status")
        await slash(env, ben, "casinowar status")
        await press(env, anna, lobby, f"cw:l:{match_id}:start")
        await env.wait_for(lambda: lobby.thread, message="no thread for the table")
        engine = CasinoWar.new({"players": 2, "hands": HANDS, "stacks": [1000, 1000]}, seed=SEED)

        # hand 1: anna bets by DM, ben from the thread's Bet button; someone else's button is refused
        await press(env, carl, await table.turn_message(1), f"cw:open:{match_id}:1")
        await press(env, anna, await table.dm_panel(anna, 1), f"cw:p:{match_id}:1:tie:10")
        engine.apply(0, {"type": "bet", "amount": 10, "tie": 10})
        panel = await table.panel_here(ben, 1)
        await press(env, ben, panel, f"cw:p:{match_id}:1:bet:20")
        engine.apply(1, {"type": "bet", "amount": 20, "tie": 0})
        assert engine.phase == "decide" and engine.tied == [0, 1]

        # the tie (step 2): anna opens her panel in the thread too, surrenders by DM (the thread's panel then
        # refuses a second choice), ben goes to war; the old panel is stale after it
        stale = await table.panel_here(anna, 2)
        await press(env, anna, await table.dm_panel(anna, 2), f"cw:p:{match_id}:2:surrender")
        await press(env, anna, stale, f"cw:p:{match_id}:2:war")
        await press(env, ben, await table.dm_panel(ben, 2), f"cw:p:{match_id}:2:war")
        engine.apply(0, {"type": "surrender"})
        engine.apply(1, {"type": "war"})
        await table.settled()
        await press(env, anna, stale, f"cw:p:{match_id}:2:surrender")

        # hand 2: anna bets, ben misses his bet (he sits it out)
        step = engine.step
        await press(env, anna, await table.dm_panel(anna, step), f"cw:p:{match_id}:{step}:bet:10")
        engine.apply(0, {"type": "bet", "amount": 10, "tie": 0})
        await table.miss()
        engine.apply(1, {"type": "sit_out"})

        # every hand after: whoever is seated bets (ben through the status command's button), a tie goes to war;
        # ben stays once and then leaves the table; anna then misses two bets in a row and the table closes
        stayed = False
        while (await table.match()).status == "active":
            step = engine.step
            waiting = engine.waiting()
            if engine.phase == "decide":
                for seat in waiting:
                    user = table.users[seat]
                    await press(env, user, await table.dm_panel(user, step), f"cw:p:{match_id}:{step}:war")
                    engine.apply(seat, {"type": "war"})
                continue
            if engine.seated[1] and engine.hand >= 4:
                await slash(env, ben, "casinowar leave")
                question = with_buttons(env.ephemerals(ben), f"cw:ff:{match_id}:")
                await press(env, ben, question, f"cw:ff:{match_id}:{'yes' if stayed else 'no'}")
                if stayed:
                    engine.forfeit(1)
                    continue
                stayed = True
            if not engine.seated[1]:
                await table.miss()  # anna alone misses her bets: the second miss in a row closes the table
                if not engine.is_over:
                    engine.apply(0, {"type": "sit_out"})
                continue
            for seat in waiting:
                if seat == 1:
                    await slash(env, ben, "casinowar status")
                    opened = with_buttons(env.ephemerals(ben), f"cw:open:{match_id}:{step}")
                    await press(env, ben, opened, f"cw:open:{match_id}:{step}")
                    panel = with_buttons(env.ephemerals(ben), f"cw:p:{match_id}:{step}:")
                    await press(env, ben, panel, f"cw:p:{match_id}:{step}:bet:20")
                    engine.apply(1, {"type": "bet", "amount": 20, "tie": 0})
                else:
                    await press(env, anna, await table.dm_panel(anna, step), f"cw:p:{match_id}:{step}:tie:10")
                    engine.apply(0, {"type": "bet", "amount": 10, "tie": 10})
        assert (await table.match()).status == "finished"
        await env.wait_for(lambda: any(b["custom_id"] == f"cw:rm:{match_id}" for b in lobby.buttons),
                           message="no Rematch button on the result")

        # after the table: the chips, a rematch's new table, which anna closes
        await slash(env, anna, "casinowar chips")
        await press(env, anna, lobby, f"cw:rm:{match_id}")
        rematch = await env.wait_for(lambda: with_buttons(env.messages(lobby.channel), "cw:l:"),
                                     message="no new table for the rematch")
        new_id = int(rematch.buttons[0]["custom_id"].split(":")[2])
        await press(env, anna, rematch, f"cw:l:{new_id}:cancel")
        await env.wait_for(lambda: not rematch.buttons, message="the rematch's table did not close")

        names = [f"<@{user.id}>" for user in (anna, ben, carl)] + ["anna", "ben", "carl"]
        found = english_in_messages(every_message(env), names)
        assert found == [], "\n".join(found)
        kinds = {event.type for event in await table.service.outbox.events(match_id)}
        assert {"tie", "war", "turn_timeout", "stood_up", "result"} <= kinds
        reasons = [event.event["reason"] for event in await table.service.outbox.events(match_id)
                   if event.type == "stood_up"]
        assert reasons[0] == "forfeit" and reasons[-1] in ("timeout", "double_timeout")
