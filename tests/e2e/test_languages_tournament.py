"""No English left in a tournament: a 4-player single-elimination Air War tournament played from create to champion
in the pseudo-language (every catalogue string's letters swapped, see :mod:`tests.bot.i18n.pseudo`), the server's
public messages set to it and every member's client speaking it. On the way: refusals (no tournament yet, a second
Join, a start by someone else, a bracket before the start, someone else's Ready, a Ready while paused, a
disqualification after the end), Join / Leave, pause and resume, a no-show, status, bracket and history. Then every
version of every message the tournament showed (the channel's status message with its bracket pictures, the rounds'
calls and summaries, the private answers) is read for plain English words: a string that never went through a
catalogue.

The games themselves are Air War matches shown by the Air War cog: their threads, DM panels and notes are read
too, so the whole tournament, games and all, is proved free of English.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.services.settings import SettingsService
from tests.bot.i18n.pseudo import PSEUDO, english_in_messages, pseudo_language
from tests.e2e.test_airwar import fast_bot, lift_rate_limits
from tests.e2e.test_tournament_games import lock_in_as_drawn, open_panels
from tests.localdiscord import Env, Interaction, Message, User

pytestmark = pytest.mark.e2e

SEEDS = [11, 12, 13, 14, 15, 16, 17, 18]
def service_of(env: Env):
    return env.bot.get_cog("Tournament").service


def message(env: Env, message_id: int | None) -> Message | None:
    return None if message_id is None else env.world.messages.get(message_id)


async def answered(env: Env, ix: Interaction, user: User) -> Message:
    """The private answer to ``ix`` once it has its text (a deferred answer gets it a moment later)."""
    await ix.wait_response()
    await env.wait_for(lambda: env.ephemerals(user) and env.ephemerals(user)[-1].text
                       and not env.ephemerals(user)[-1].loading)
    found = env.ephemerals(user)[-1]
    assert found.ephemeral_to is not None
    return found


def tournament_messages(env: Env) -> list[Message]:
    """Everything the bot showed: the channel's messages, the games' threads and DMs, every private answer."""
    return [message for message in env.world.messages.values() if message.author.id == env.bot.user.id]


async def ready_buttons(env: Env, tournament_id: int) -> list[tuple[Message, str, tuple[int, int]]]:
    """The live Ready buttons of the called matches: (call message, custom id, the match's players)."""
    found = []
    for row in await service_of(env).bracket_matches(tournament_id):
        call = message(env, row.call_message_id)
        if call is None or row.status != "called":
            continue
        custom_id = f"tn:ready:{tournament_id}:{row.key}"
        if any(b.get("custom_id") == custom_id and not b.get("disabled") for b in call.buttons):
            found.append((call, custom_id, row.players))
    return found


async def play_on(env: Env, tournament_id: int, players: dict[int, User], absent: set[int],
                  seconds: float = 40) -> None:
    """Everyone (but ``absent``) presses Ready on their called matches and plays their Air War panels as drawn; the
    clock jumps past the no-show window when only the absent keep a call waiting; until the tournament is over."""
    service = service_of(env)
    pressed: set[tuple[str, int]] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not (await service.get(tournament_id)).is_open:
            return
        moved = False
        for call, custom_id, pair in await ready_buttons(env, tournament_id):
            for player in pair:
                if player in absent or (custom_id, player) in pressed:
                    continue
                pressed.add((custom_id, player))
                await answered(env, await env.click(players[player], call, custom_id=custom_id), players[player])
                moved = True
        moves = [(user, panel) for user in players.values() for panel in open_panels(env, user)]
        if moves:
            await asyncio.gather(*(lock_in_as_drawn(env, user, panel) for user, panel in moves))
            moved = True
        if not moved:
            called = [row for row in await service.bracket_matches(tournament_id) if row.status == "called"]
            if called and all(ready or player in absent for row in called
                              for player, ready in zip(row.players, row.ready, strict=True)):
                env.clock.advance(61)  # only the absent keep the call waiting: a no-show
            await asyncio.sleep(0.02)
    raise AssertionError("the tournament did not end")


async def test_a_whole_tournament_shows_no_english_in_the_pseudo_language(make_env, tmp_path):
    with pseudo_language():
        env = await make_env(fast_bot(tmp_path / "t.db", seeds=SEEDS))
        lift_rate_limits(env)
        await SettingsService(env.bot.matches.db).set_flip_pace_ms(env.guild.id, 1000)
        await env.bot.guild_settings.set_language(env.guild.id, PSEUDO)
        organiser = env.user("olga", locale=PSEUDO)
        players = [env.user(name, locale=PSEUDO) for name in ("anna", "ben", "cleo", "dan")]
        latecomer = env.user("eve", locale=PSEUDO)
        by_id = {player.id: player for player in players}
        service = service_of(env)

        # nothing to show yet: refused, privately
        await answered(env, await env.slash(organiser, "tournament status"), organiser)
        await answered(env, await env.slash(organiser, "tournament history"), organiser)
        created = await env.slash(organiser, "tournament create", name="Friday Cup", game="airwar",
                                  format="single elimination", rules="stack=3", no_show=1)
        await answered(env, created, organiser)
        tid = (await service.in_channel(env.guild.id, env.channel().id)).id
        status = await env.wait_for(lambda: next((m for m in env.messages(env.channel())
                                                  if any(b.get("custom_id") == f"tn:join:{tid}" for b in m.buttons)),
                                                 None), message="no signup message")
        for player in [*players, latecomer]:
            await answered(env, await env.click(player, status, custom_id=f"tn:join:{tid}"), player)
        await answered(env, await env.click(players[0], status, custom_id=f"tn:join:{tid}"), players[0])  # again
        await answered(env, await env.click(latecomer, status, custom_id=f"tn:leave:{tid}"), latecomer)
        # the signup shows the four who stayed (the status's edits may come together: count none of them)
        await env.wait_for(lambda: status.edited and "(4 " in status.text)
        await answered(env, await env.slash(players[0], "tournament bracket"), players[0])  # not started
        await answered(env, await env.slash(players[0], "tournament start"), players[0])  # not the organiser
        await answered(env, await env.slash(organiser, "tournament status"), organiser)
        await answered(env, await env.slash(organiser, "tournament start"), organiser)

        # the first round is called: someone else's Ready is refused; paused, a Ready is refused; resumed
        calls: list = []
        for _ in range(200):
            calls = await ready_buttons(env, tid)
            if len(calls) == 2:
                break
            await asyncio.sleep(0.02)
        assert calls and len(calls) == 2, calls
        call, custom_id, pair = calls[0]
        outsider = next(player for player in players if player.id not in pair)
        await answered(env, await env.click(outsider, call, custom_id=custom_id), outsider)
        await answered(env, await env.slash(organiser, "tournament pause"), organiser)
        await answered(env, await env.click(by_id[pair[0]], call, custom_id=custom_id), by_id[pair[0]])
        await answered(env, await env.slash(organiser, "tournament status"), organiser)
        await answered(env, await env.slash(organiser, "tournament resume"), organiser)

        # played to the champion; one player of the other match never presses Ready (a no-show)
        absent = {calls[1][2][1]}
        await play_on(env, tid, by_id, absent)
        tournament = await service.get(tid)
        assert tournament.status == "finished" and tournament.champion_id is not None
        await env.wait_for(lambda: any("🏆" in m.text for m in env.messages(env.channel())), timeout=10)
        for _ in range(300):
            if not await service.unshown_events(tid):
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(3.5)  # the status message's last redraw (at most every 3 s)

        # after the end: status, bracket, history, a disqualification refused
        await answered(env, await env.slash(organiser, "tournament status"), organiser)
        await answered(env, await env.slash(players[1], "tournament bracket"), players[1])
        await answered(env, await env.slash(players[2], "tournament history"), players[2])
        await answered(env, await env.slash(organiser, "tournament disqualify", player=players[3]), organiser)

        rows = await service.bracket_matches(tid)
        assert sorted(row.outcome for row in rows) == ["no_show", "series", "series"]  # the no-show was shown too
        assert [event.type for event in await service.unshown_events(tid)] == []
        shown = tournament_messages(env)
        assert sum(m.text.startswith("📣") for m in shown) == 2  # the rounds' calls
        assert sum(m.text.startswith("🏁") for m in shown) == 2  # the rounds' summaries
        assert len([m for m in shown if m.ephemeral_to is not None]) >= 20
        assert any(m.attachments for m in shown)  # the bracket pictures, with their alt text
        everyone = [*players, organiser, latecomer]
        names = [*(f"<@{user.id}>" for user in everyone), *(user.name for user in everyone),
                 *(user.name.capitalize() for user in everyone), "Friday Cup"]
        assert english_in_messages(shown, names) == []
