"""Tournaments end to end: the real bot against the local Discord, players pressing Join and Ready, every game a
real War match played out at once (instant pace) by the War cog; the bracket picture attached and updated.

* an 8-player single elimination where one player never presses Ready (a no-show forfeit), to the champion;
* a 5-player round robin and a 6-player Swiss, to the end, with the standings;
* a restart mid-tournament: a new bot on the same database picks it up (calls, Ready buttons, timers) and ends it;
* the organiser's tools and the refusals.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.e2e.test_airwar import fast_bot, lift_rate_limits
from tests.localdiscord import Env, Message, User
from tests.records import match_results

pytestmark = pytest.mark.e2e

RULES = "pack=32 max_rounds=200"


async def start(make_env, database: Path) -> Env:
    env = await make_env(fast_bot(database))
    lift_rate_limits(env)
    return env


def signup_message(env: Env) -> Message:
    """The tournament's status message: the signup, then the bracket and the results."""
    found = [m for m in env.messages() if m.title.startswith("🏟️")]
    assert found, "no status message"
    return found[-1]


status_message = signup_message


def status_text(env: Env) -> str:
    return status_message(env).body


def call_messages(env: Env) -> list[Message]:
    """The rounds' Ready calls."""
    return [m for m in env.messages() if m.text.startswith("📣")]


def pairings(message: Message) -> list[tuple[str, dict | None]]:
    """A call's numbered lines, each with its match's Ready button (``None``: the call has no buttons)."""
    lines = [line for line in message.text.splitlines() if line[:1].isdigit()]
    buttons = [b for b in message.buttons if b.get("custom_id", "").startswith("tn:ready:")]
    return list(zip(lines, buttons or [None] * len(lines), strict=True))


def open_calls(env: Env, user: User) -> list[tuple[Message, str]]:
    """The user's live Ready buttons: (call message, the button's custom id), one per called match of theirs."""
    calls = []
    for message in call_messages(env):
        for line, button in pairings(message):
            if button is not None and not button.get("disabled") and user.mention in line:
                calls.append((message, button["custom_id"]))
    return calls


def line_of(env: Env, custom_id: str) -> tuple[str, dict]:
    """A match's line on its call and its button, by the button's custom id."""
    for message in call_messages(env):
        for line, button in pairings(message):
            if button is not None and button["custom_id"] == custom_id:
                return line, button
    raise AssertionError(f"no call holds {custom_id}")


async def note(env: Env, user: User) -> str:
    """The user's latest private answer, once it has its text (a deferred answer gets it a moment later)."""
    await env.wait_for(lambda: env.ephemerals(user) and env.ephemerals(user)[-1].text
                       and not env.ephemerals(user)[-1].loading)
    return env.ephemerals(user)[-1].text


def tournament_rows(env: Env):
    return env.bot.get_cog("Tournament").service


async def create(env: Env, organiser: User, format: str, players: list[User], **options) -> int:
    game = options.pop("game", "war")
    if game == "war":  # the other games have no pace
        options.setdefault("pace", "instant")
    ix = await env.slash(organiser, "tournament create", name=options.pop("name", "Friday Cup"), game=game,
                         format=format, rules=options.pop("rules", RULES), **options)
    await ix.wait_response()
    assert ix.response.ephemeral and "is open" in ix.message.text, ix.message.text  # the channel gets the signup
    await env.wait_for(lambda: any("Friday" in m.title for m in env.messages()))
    for player in players:
        join = await env.click(player, signup_message(env), "Join")
        await join.wait_response()
    await env.wait_for(lambda: f"Players ({len(players)})" in signup_message(env).body)
    service = tournament_rows(env)
    tournament = await service.in_channel(env.guild.id, env.channel().id)
    return tournament.id


async def press_ready(env: Env, players: list[User], pressed: set[str], skip: set[int] = frozenset()) -> int:
    """Every player (but ``skip``) presses Ready on each call naming them once; returns the clicks made."""
    clicks = 0
    for player in players:
        if player.id in skip:
            continue
        for message, custom_id in open_calls(env, player):
            if (custom_id, player.id) in pressed:
                continue
            pressed.add((custom_id, player.id))
            ix = await env.click(player, message, custom_id=custom_id)
            await ix.wait_response()
            clicks += 1
    return clicks


async def play_to_the_end(env: Env, tournament_id: int, players: list[User], *, skip: set[int] = frozenset(),
                          no_show_after: float | None = None, limit: int = 200) -> None:
    service = tournament_rows(env)
    pressed: set = set()
    for _ in range(limit):
        tournament = await service.get(tournament_id)
        if not tournament.is_open:
            return
        clicks = await press_ready(env, players, pressed, skip)
        if not clicks:
            rows = [row for row in await service.bracket_matches(tournament_id) if row.status == "called"]
            only_absent = all(ready or player in skip for row in rows
                              for player, ready in zip(row.players, row.ready, strict=True))
            if rows and only_absent and no_show_after is not None:
                env.clock.advance(no_show_after)  # only the absent players keep the bracket waiting
            await asyncio.sleep(0.05)
    raise AssertionError("the tournament did not end")


def bracket_message(env: Env) -> Message:
    """The status message once it carries the bracket picture."""
    message = status_message(env)
    assert message.attachments, "no bracket picture"
    return message


def summaries(env: Env) -> list[Message]:
    """The rounds' summaries."""
    return [m for m in env.messages() if m.text.startswith("🏁")]


async def wait_over(env: Env) -> Message:
    """The status message once it names the champion (and the last round's summary posted)."""
    await env.wait_for(lambda: any("🏆" in m.text and "champion" in m.text for m in env.messages()),
                       timeout=10)
    await env.wait_for(lambda: "🏆 **Champion" in status_text(env)
                       or "without a champion" in status_text(env), timeout=10)
    return bracket_message(env)


async def test_eight_player_single_elimination_with_a_no_show(make_env, tmp_path):
    env = await start(make_env, tmp_path / "t.db")
    organiser = env.user("org")
    players = [env.user(f"p{n}") for n in range(8)]
    tid = await create(env, organiser, "single elimination", players, no_show=1)
    # only the organiser (or Manage Server) starts it
    ix = await env.slash(players[0], "tournament start")
    await ix.wait_response()
    assert "Only the organiser" in (await note(env, players[0]))
    ix = await env.slash(organiser, "tournament start")
    await ix.wait_response()
    # the first round is called on one message: four pairings, a Ready button each
    await env.wait_for(lambda: [len(pairings(m)) for m in call_messages(env)] == [4])
    await env.wait_for(lambda: status_message(env).attachments)
    picture = bracket_message(env)
    first_png = picture.attachments[0].data
    # someone else's Ready button: refused, privately
    message, custom_id = open_calls(env, players[0])[0]
    line, _ = line_of(env, custom_id)
    outsider = next(p for p in players if p.mention not in line)
    ix = await env.click(outsider, message, custom_id=custom_id)
    await ix.wait_response()
    assert (await note(env, outsider)) == "This isn't your match: press the Ready button with your name on it."
    # a Ready of a match the bracket no longer has (a call from before the bracket changed): said so, privately
    ready = next(button for button in message.buttons if button["custom_id"] == custom_id)
    ready["custom_id"] = gone = f"tn:ready:{tid}:W9-9"
    ix = await env.click(outsider, message, custom_id=gone)
    await ix.wait_response()
    ready["custom_id"] = custom_id
    assert (await note(env, outsider)) == "That match is no longer in the tournament; nothing was changed."
    absent = players[7]
    await play_to_the_end(env, tid, players, skip={absent.id}, no_show_after=61)
    final = await wait_over(env)
    service = tournament_rows(env)
    tournament = await service.get(tid)
    assert tournament.status == "finished" and tournament.champion_id in {p.id for p in players}
    assert tournament.champion_id != absent.id
    assert any(f"{absent.mention} didn't show up" in m.text for m in env.messages())
    assert final.attachments[0].data != first_png and final.attachments[0].content_type == "image/png"
    assert f"<@{tournament.champion_id}>" in final.body
    # every game was a real War match, with a thread of its own, and fed the leaderboard
    games = await service.games(tid)
    assert len(games) == 6  # 7 matches, one of them a no-show
    war = env.bot.get_cog("War").service
    for game in games:
        match = await war.get_match(game.match_id)
        assert match.status == "finished" and len(await match_results(war.db, game.match_id)) == 2
    # history
    ix = await env.slash(organiser, "tournament history")
    await ix.wait_response()
    assert "Friday Cup" in (await note(env, organiser))
    assert f"<@{tournament.champion_id}>" in (await note(env, organiser))


@pytest.mark.parametrize(("format", "count", "matches"), [("round robin", 5, 10), ("Swiss", 6, 9)])
async def test_round_robin_and_swiss_to_the_end(make_env, tmp_path, format, count, matches):
    env = await start(make_env, tmp_path / "t.db")
    organiser = env.user("org")
    players = [env.user(f"q{n}") for n in range(count)]
    tid = await create(env, organiser, format, players, no_show=0)
    ix = await env.slash(organiser, "tournament start")
    await ix.wait_response()
    service = tournament_rows(env)
    for _ in range(200):
        if not (await service.get(tid)).is_open:
            break
        await asyncio.sleep(0.05)
    final = await wait_over(env)
    tournament = await service.get(tid)
    assert tournament.status == "finished"
    games = await service.games(tid)
    assert len(games) == matches
    assert "the standings" in final.attachments[0].description  # the picture is the standings table
    ix = await env.slash(players[0], "tournament bracket")
    await ix.wait_response()
    await note(env, players[0])
    answer = env.ephemerals(players[0])[-1]
    assert answer.attachments and "1." in answer.text and "pts" in answer.text


async def test_a_restart_mid_tournament_loses_nothing(make_env, tmp_path):
    database = tmp_path / "t.db"
    env = await start(make_env, database)
    organiser = env.user("org")
    players = [env.user(f"r{n}") for n in range(4)]
    tid = await create(env, organiser, "single elimination", players, no_show=5)
    ix = await env.slash(organiser, "tournament start")
    await ix.wait_response()
    await env.wait_for(lambda: [len(pairings(m)) for m in call_messages(env)] == [2])
    # one match is played; in the other only one player presses Ready before the bot goes down
    pressed: set = set()
    (_, custom_id), = open_calls(env, players[0])
    line, _ = line_of(env, custom_id)
    in_first = [p for p in players if p.mention in line]
    await press_ready(env, in_first, pressed)
    other = next(p for p in players if p not in in_first)
    await press_ready(env, [other], pressed)
    service = tournament_rows(env)
    await env.wait_for(lambda: "🏁" in line_of(env, custom_id)[0])
    await restart(env, database)
    service = tournament_rows(env)
    assert (await service.get(tid)).status == "running"
    # the old Ready buttons still work; the missing player never comes: the no-show timer was re-armed
    await play_to_the_end(env, tid, players, skip={p.id for p in players if p not in in_first and p != other},
                          no_show_after=301)
    await wait_over(env)
    tournament = await service.get(tid)
    assert tournament.status == "finished"
    results = [line for m in summaries(env) for line in m.text.splitlines() if line.startswith("• ")]
    assert len(results) == 3, results  # each match announced once, in its round's summary
    assert sum(line.count("didn't show up") for line in results) == 1


async def all_shown(env: Env, tournament_id: int) -> None:
    """Wait until the tournament and every game of it have shown all their events (nothing more is on its way)."""
    service = tournament_rows(env)
    for _ in range(500):
        games = [game.match_id for game in await service.games(tournament_id)]
        if not await service.unshown_events(tournament_id) and not any(
                [await env.bot.matches.outbox.unshown_events(match_id) for match_id in games]):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"tournament {tournament_id} still has events to show")


async def restart(env: Env, database: Path) -> None:
    """The bot goes down (cleanly) and a new one starts on the same database."""
    await env.bot.close()
    bot = fast_bot(database)(env)
    await env.start_bot(bot)
    await asyncio.wait_for(bot.resumed.wait(), 5)


async def test_organiser_tools_are_logged_and_refused_to_others(make_env, tmp_path):
    env = await start(make_env, tmp_path / "t.db")
    organiser = env.user("org")
    mod = env.user("mod", admin=True)
    players = [env.user(f"s{n}") for n in range(4)]
    tid = await create(env, organiser, "round robin", players, no_show=10)
    leave = await env.click(players[3], signup_message(env), "Leave")
    await leave.wait_response()
    await env.wait_for(lambda: "Players (3)" in signup_message(env).body)
    ix = await env.slash(organiser, "tournament start")
    await ix.wait_response()
    for command in ("tournament pause", "tournament cancel"):
        ix = await env.slash(players[0], command)
        await ix.wait_response()
        assert "Only the organiser" in (await note(env, players[0]))
    ix = await env.slash(organiser, "tournament pause")
    await ix.wait_response()
    assert await note(env, organiser) == "Paused."
    # the organiser's actions show on the status message and the call, not as messages of their own
    await env.wait_for(lambda: f"**Paused** by {organiser.mention}" in status_text(env))
    await env.wait_for(lambda: bool(call_messages(env)) and "paused" in call_messages(env)[0].text)
    ix = await env.slash(mod, "tournament resume")  # Manage Server may
    await ix.wait_response()
    assert await note(env, mod) == "Resumed."
    await env.wait_for(lambda: "Paused" not in status_text(env))
    ix = await env.slash(organiser, "tournament disqualify", player=players[0])
    await ix.wait_response()
    assert await note(env, organiser) == "Disqualified."
    await env.wait_for(lambda: f"**Disqualified:** {players[0].mention}" in status_text(env))
    ix = await env.slash(organiser, "tournament status")
    await ix.wait_response()
    assert "running" in (await note(env, organiser))
    await all_shown(env, tid)  # the disqualification's own consequences (a round decided, the next called) first
    messages_before = len(env.messages())
    ix = await env.slash(organiser, "tournament cancel")
    await ix.wait_response()
    await env.wait_for(lambda: f"**Cancelled** by {organiser.mention}" in status_text(env))
    assert (await tournament_rows(env).get(tid)).status == "cancelled"
    # every Ready button of the tournament is off
    await env.wait_for(lambda: all(b.get("disabled") for m in call_messages(env) for b in m.buttons))
    assert len(env.messages()) == messages_before
