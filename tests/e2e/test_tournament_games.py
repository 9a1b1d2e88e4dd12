"""Tournaments of other games than War, end to end: every game is a real match of its game played through the
game's own buttons by scripted players, and the results feed the game's leaderboard.

* a 4-player Air War round robin: each player locks in every engagement's stack from the DM panel (the "as drawn"
  and confirm buttons), two games at a time, to the champion and the standings; then ``/leaderboard`` ranks all
  four (three games each) with the wins the tournament's games gave them.
"""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from bot.services.settings import SettingsService
from tests.e2e.test_airwar import fast_bot, lift_rate_limits
from tests.e2e.test_tournament import create, note, tournament_rows, wait_over
from tests.localdiscord import Env, Message, User
from tests.records import match_results, rating_of

pytestmark = pytest.mark.e2e

SEEDS = [11, 12, 13, 14, 15, 16, 17, 18]


def open_panels(env: Env, user: User) -> list[Message]:
    """The user's Air War arrangement panels (DMs) that still wait for an order."""
    panels = []
    for message in env.messages(user):
        keys = {b.get("custom_id", "").rsplit(":", 1)[-1] for b in message.buttons if not b.get("disabled")}
        if "drawn" in keys:  # confirm is enabled once an order is chosen
            panels.append(message)
    return panels


def button(message: Message, key: str) -> str:
    return next(b["custom_id"] for b in message.buttons if b.get("custom_id", "").endswith(f":{key}"))


async def lock_in_as_drawn(env: Env, user: User, panel: Message) -> bool:
    """Play the stack as drawn; ``False`` when the panel was stale (answered privately, nothing changed)."""
    for key in ("drawn", "confirm"):
        ix = await env.click(user, panel, custom_id=button(panel, key))
        await ix.wait_response()
        if ix.response.ephemeral:
            return False
    return True


async def play_airwar_to_the_end(env: Env, tournament_id: int, players: list[User], seconds: float = 30) -> int:
    """Every player locks in each panel that waits for them, until the tournament is over; returns the orders."""
    service = tournament_rows(env)
    orders = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not (await service.get(tournament_id)).is_open:
            return orders
        moves = [(user, panel) for user in players for panel in open_panels(env, user)]
        results = await asyncio.gather(*(lock_in_as_drawn(env, user, panel) for user, panel in moves))
        orders += sum(results)
        if not moves:
            await asyncio.sleep(0.02)
    raise AssertionError("the tournament did not end")


async def test_an_airwar_round_robin_played_through_the_panels_feeds_the_leaderboard(make_env, tmp_path):
    env = await make_env(fast_bot(tmp_path / "t.db", seeds=SEEDS))  # a deal of its own for every game
    lift_rate_limits(env)
    await SettingsService(env.bot.matches.db).set_flip_pace_ms(env.guild.id, 1000)  # pace_sleep does not really wait
    organiser = env.user("org")
    players = [env.user(name) for name in ("ann", "ben", "cat", "dan")]
    tid = await create(env, organiser, "round robin", players, no_show=0, game="airwar", rules="stack=7")
    ix = await env.slash(organiser, "tournament start")
    await ix.wait_response()
    orders = await play_airwar_to_the_end(env, tid, players)
    final = await wait_over(env)

    service = tournament_rows(env)
    tournament = await service.get(tid)
    assert tournament.status == "finished" and tournament.game == "airwar"
    games = await service.games(tid)
    assert len(games) == 6 and all(game.counted for game in games)
    matches = env.bot.matches
    wins = dict.fromkeys((p.id for p in players), 0)
    for game in games:
        match = await matches.get_match(game.match_id)
        assert match.game == "airwar" and match.status == "finished"
        assert match.result["reason"] != "forfeit"  # played out, engagement by engagement
        if game.winner_id is not None:
            wins[game.winner_id] += 1
    assert orders >= 2 * 6  # at least one engagement per game, both players
    assert sum(wins.values()) >= 3, wins  # these deals give decisive games (draws count for nobody)
    assert "the standings" in final.attachments[0].description  # the picture is the standings table
    bracket = await service.bracket(tid)
    assert {row.player: row.wins for row in bracket.standings()} == wins
    # the games count on the Air War leaderboard like any other match: three games each, ranked
    for player in players:
        rating = await rating_of(matches.db, env.guild.id, player.id)
        assert rating is not None and rating.games == 3 and rating.wins == wins[player.id]
    ix = await env.slash(players[0], "leaderboard", game="airwar")
    await ix.wait_response()
    board = ix.message.body if ix.message.embeds else ix.message.text
    rows = {int(user): int(won) for user, won in re.findall(r"<@(\d+)> \*\*\d+\*\* · (\d+)W", board)}
    assert rows == wins, board
    ix = await env.slash(players[0], "tournament history")
    await ix.wait_response()
    assert "Air War, round robin" in (await note(env, players[0]))


async def test_an_odd_round_robin_seats_the_bot_at_its_level_always_ready_and_unrated(make_env, tmp_path):
    from bot.match.kernel import OPPONENT_OPTION
    from tests.e2e.test_tournament import press_ready

    env = await make_env(fast_bot(tmp_path / "t.db", seeds=SEEDS))
    lift_rate_limits(env)
    await SettingsService(env.bot.matches.db).set_flip_pace_ms(env.guild.id, 1000)
    organiser = env.user("org")
    for game, level, refusal in (("war", "hard", "I don't play War myself"),
                                 ("army", "expert", "I play Army at these levels: hard, medium, easy")):
        ix = await env.slash(organiser, "tournament create", name="Odd Cup", game=game, format="round robin",
                             bot=level)
        await ix.wait_response()
        assert ix.response.ephemeral and refusal in ix.message.text, ix.message.text
    players = [env.user(name) for name in ("ann", "ben", "cat")]
    tid = await create(env, organiser, "round robin", players, no_show=1, game="airwar", rules="stack=3",
                       bot="medium")
    ix = await env.slash(organiser, "tournament start")
    await ix.wait_response()
    service = tournament_rows(env)
    bot_id = env.bot_user.id
    pressed: set = set()
    hints = 0
    deadline = time.monotonic() + 60
    while (await service.get(tid)).is_open:
        assert time.monotonic() < deadline, "the tournament did not end"
        clicks = await press_ready(env, players, pressed)
        moves = [(user, panel) for user in players for panel in open_panels(env, user)]
        hints += sum(any("Hint" in b.get("label", "") for b in panel.buttons) for _, panel in moves)
        await asyncio.gather(*(lock_in_as_drawn(env, user, panel) for user, panel in moves))
        if not moves and not clicks:
            await asyncio.sleep(0.02)
    await wait_over(env)

    assert [p.user_id for p in await service.entrants(tid)] == [*(p.id for p in players), bot_id]
    rows = await service.bracket_matches(tid)
    against_bot = [row for row in rows if bot_id in row.players]
    assert len(rows) == 6 and len(against_bot) == 3
    for row in against_bot:  # ready without a click: the bot never presses anything
        assert row.ready[row.players.index(bot_id)]
    games = await service.games(tid)
    matches = env.bot.matches
    for game in games:
        match = await matches.get_match(game.match_id)
        assert match.status == "finished" and game.counted and match.result["reason"] != "forfeit"
        rated = [result.rated for result in await match_results(matches.db, game.match_id)]
        if bot_id in match.user_ids:
            assert match.options[OPPONENT_OPTION] == {"seat": match.user_ids.index(bot_id), "level": "medium"}
            assert rated == [False, False]
        else:
            assert rated == [True, True]
    for player in players:  # only the games between people move ratings
        rating = await rating_of(matches.db, env.guild.id, player.id)
        assert rating is not None and rating.games == 2
    assert env.messages(env.dm(env.bot_user)) == [] and hints == 0  # no panel for the bot, no hint in a tournament
    bracket = await service.bracket(tid)
    assert bot_id in {row.player for row in bracket.standings()}
