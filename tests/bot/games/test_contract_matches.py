"""The match contract, over every registered game the match kernel plays with a flow (and its variants): a match
played through the kernel on a real SQLite file, by seeded random legal choices, exports a match file that
``python -m bot replay`` plays to the stored result; a forfeit mid-match too."""

from __future__ import annotations

import json
import random

import pytest

from bot.games import game_class, registry
from bot.match.kernel import MatchKernel
from bot.replay import replay
from bot.storage import Database
from bot.storage import matches as store
from bot.storage.diagnostics import check_consistency
from tests.bot.services.support import ALICE, BOB, CHANNEL, GUILD, FakeClock

#: games whose every step waits for the seats' choices (the others have paces: their steps can play themselves)
KERNEL_GAMES = [entry.name for entry in registry().entries() if not entry.plugin.paces]
USERS = (ALICE, BOB)
MAX_STEPS = 400


@pytest.fixture
async def open_kernel(tmp_path):
    databases = []

    async def open_(game: str, seed: int) -> MatchKernel:
        database = await Database.open(tmp_path / f"{game}-{seed}.db")
        databases.append(database)
        return MatchKernel(database, game=game, clock=FakeClock(), seed_source=lambda: seed,
                            draft_rng=random.Random(seed))

    yield open_
    for database in databases:
        await database.close()


async def play(kernel: MatchKernel, game: str, chooser: random.Random, *, forfeit_at: int | None = None) -> int:
    """A whole match of ``game`` by random legal choices (each seat's action drawn from the engine's legal ones);
    seat 1 forfeits at step ``forfeit_at`` (in a game where the others play on after a forfeit -- a table against
    the house -- seat 0 plays to the end). Returns the match id."""
    update = await kernel.challenge(GUILD, CHANNEL, ALICE, BOB, game=game)
    match = (await kernel.accept(update.match.id, BOB)).match
    forfeited = False
    for _ in range(MAX_STEPS):
        if match.status != "active":
            return match.id
        if forfeit_at is not None and match.step >= forfeit_at and not forfeited:
            match = (await kernel.forfeit(match.id, BOB)).match
            forfeited = True
            continue
        async with kernel.db.read() as conn:
            state = await store.load_state(conn, match.id)
        game_now = game_class(game).from_json(state)
        seat = kernel.flow.waiting_for(game_now)[0]
        action = chooser.choice(game_now.legal_actions(seat))
        match = (await kernel.choose(match.id, USERS[seat], kernel.flow.due_step(match.step), action)).match
    raise AssertionError(f"{game} did not end in {MAX_STEPS} choices")


@pytest.mark.parametrize("game", KERNEL_GAMES)
@pytest.mark.parametrize("forfeit_at", [None, 2])
async def test_an_exported_match_replays_to_the_stored_result(open_kernel, game, forfeit_at):
    for seed in (3, 11):
        kernel = await open_kernel(game, seed)
        match_id = await play(kernel, game, random.Random(seed), forfeit_at=forfeit_at)
        match = await kernel.get_match(match_id)
        assert match.status == "finished"
        exported = await kernel.export(match_id)
        json.dumps(exported)  # a file: JSON as it is
        last = list(replay(exported))[-1]
        assert last["winner"] == match.result["winner"]
        assert last["reason"] == match.result["reason"]
        if forfeit_at is not None and kernel.flow.rated:
            assert match.result["reason"] == "forfeit" and match.result["winner"] == 0
        async with kernel.db.read() as conn:
            assert await check_consistency(conn) == []


PACED_GAMES = [entry.name for entry in registry().entries() if entry.plugin.paces]


@pytest.mark.parametrize("game", PACED_GAMES)
@pytest.mark.parametrize("forfeit", [False, True])
async def test_a_self_playing_match_exports_a_file_that_replays_to_its_result(tmp_path, game, forfeit):
    """Games whose steps can play themselves (War and its variants): a match played out at once (the fastest
    pace), or played by choices at the slowest and forfeited after its first step, exports a file that replays to
    the stored result."""
    plugin = registry().entry(game).plugin
    database = await Database.open(tmp_path / f"{game}.db")
    try:
        kernel = MatchKernel(database, game=plugin.name, clock=FakeClock(), seed_source=lambda: 5)
        pace = plugin.paces[0] if forfeit else plugin.paces[-1]
        update = await kernel.challenge(GUILD, CHANNEL, ALICE, BOB, game=game, pace=pace)
        match = (await kernel.accept(update.match.id, BOB)).match
        if forfeit:
            step = kernel.flow.due_step(match.step)
            async with database.read() as conn:
                game_now = game_class(game).from_json(await store.load_state(conn, match.id))
            for seat in kernel.flow.waiting_for(game_now):
                await kernel.choose(match.id, USERS[seat], step, game_now.legal_actions(seat)[0])
            match = (await kernel.forfeit(match.id, BOB)).match
        assert match.status == "finished"
        exported = await kernel.export(match.id)
        last = list(replay(json.loads(json.dumps(exported))))[-1]
        assert (last["winner"], last["reason"]) == (match.result["winner"], match.result["reason"])
        async with database.read() as conn:
            assert await check_consistency(conn) == []
    finally:
        await database.close()


#: games the kernel plays by choices for more than two, each seat with a deck of its own (a lobby of 3 or 4)
MANY_SEAT_GAMES = [name for name in KERNEL_GAMES
                   if game_class(name).max_players > 2 and game_class(name).min_players >= 2]
MORE_USERS = (ALICE, BOB, 300, 400)


@pytest.mark.parametrize("game", MANY_SEAT_GAMES)
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("forfeit_at", [None, 2])
async def test_a_lobby_match_of_three_or_four_exports_a_file_that_replays_to_its_result(open_kernel, game, players,
                                                                                     forfeit_at):
    """A lobby of 3 or 4 started and played by random legal choices (seat 1 forfeiting at step ``forfeit_at``: the
    others play on) exports a file that replays to the stored result, with every seat in the game."""
    for seed in (3, 11):
        kernel = await open_kernel(game, seed)
        lobby = await kernel.open_lobby(GUILD, CHANNEL, ALICE, game=game)
        for user in MORE_USERS[1:players]:
            await kernel.join(lobby.match.id, user)
        match = (await kernel.start(lobby.match.id, ALICE)).match
        assert len(match.seats) == players and match.rules["players"] == players
        chooser = random.Random(seed)
        forfeited = False
        for _ in range(MAX_STEPS * players):
            if match.status != "active":
                break
            if forfeit_at is not None and match.step >= forfeit_at and not forfeited:
                match = (await kernel.forfeit(match.id, BOB)).match
                forfeited = True
                continue
            async with kernel.db.read() as conn:
                game_now = game_class(game).from_json(await store.load_state(conn, match.id))
            assert game_now.num_players == players
            seat = chooser.choice(kernel.flow.waiting_for(game_now))
            action = chooser.choice(game_now.legal_actions(seat))
            match = (await kernel.choose(match.id, MORE_USERS[seat], kernel.flow.due_step(match.step), action)).match
        assert match.status == "finished"
        exported = await kernel.export(match.id)
        last = list(replay(json.loads(json.dumps(exported))))[-1]
        assert (last["winner"], last["reason"]) == (match.result["winner"], match.result["reason"])
        if forfeit_at is not None:
            assert match.result["winner"] != 1
        async with kernel.db.read() as conn:
            assert await check_consistency(conn) == []
