"""The match contract, over every registered game the match kernel plays with a flow (and its variants): a match
played through the kernel on a real SQLite file, by seeded random legal choices, exports a match file that
``python -m bot replay`` plays to the stored result; a forfeit mid-match too. No seat is ever left waiting with
exactly one legal action (the kernel plays it for the seat), except in a flow that asks those (War's Flip)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.game import Game
from bot.match.kernel import MatchKernel
from bot.registry import game_class, registry
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


def assert_no_seat_waits_on_its_only_action(kernel: MatchKernel, game_now: Game) -> None:
    """Every seat the step waits for has a choice to make (more than one legal action), unless the game's flow asks
    a seat's only action (War's Flip: then every waiting seat has exactly that one)."""
    for seat in kernel.flow.waiting_for(game_now):
        legal = game_now.legal_actions(seat)
        if kernel.flow.only_choices_play_themselves:
            assert len(legal) > 1, f"seat {seat} waits with its only action {legal}"
        else:
            assert legal == [{"type": "flip"}]


async def play(kernel: MatchKernel, game: str, chooser: random.Random, *, forfeit_at: int | None = None,
               rules: dict[str, Any] | None = None) -> int:
    """A whole match of ``game`` by random legal choices (each seat's action drawn from the engine's legal ones);
    seat 1 forfeits at step ``forfeit_at`` (in a game where the others play on after a forfeit -- a table against
    the house -- seat 0 plays to the end). Returns the match id."""
    update = await kernel.challenge(GUILD, CHANNEL, ALICE, BOB, game=game, rules=rules)
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
        assert_no_seat_waits_on_its_only_action(kernel, game_now)
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
            assert kernel.flow.waiting_for(game_now)
            assert_no_seat_waits_on_its_only_action(kernel, game_now)
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
            assert_no_seat_waits_on_its_only_action(kernel, game_now)
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


#: games whose seats often have one legal action, with rules that make it likely: Bundle War's card that matches no
#: pile top (nothing to steal) and its pick of a pile top from won cards of one rank; Casino War's tie a seat has
#: too few chips to go to war on (it can only surrender)
ONLY_ACTION_GAMES = [("bundlewar", {}), ("casinowar", {"stake": 120, "min_bet": 10, "max_bet": 100, "hands": 200})]


@pytest.mark.parametrize(("game", "rules"), ONLY_ACTION_GAMES)
async def test_a_seats_only_action_plays_itself_is_logged_and_replays(open_kernel, game, rules):
    """Random matches where seats often have one legal action: the kernel played each of them for the seat (action
    log kind ``only``: replayed from the seed and the log, the seat had exactly that one legal action then), never
    asked one, and the match file replays to the stored result."""
    played_themselves = 0
    for seed in (3, 11, 19, 27):
        kernel = await open_kernel(game, seed)
        match_id = await play(kernel, game, random.Random(seed), rules=rules)
        match = await kernel.get_match(match_id)
        async with kernel.db.read() as conn:
            log = await store.actions(conn, match_id)
        again = game_class(game).new(match.rules, seed=match.seed)
        for action in log:
            if action.kind == kernel.flow.only_kind:
                assert again.legal_actions(action.seat) == [action.action]
                played_themselves += 1
            else:
                assert len(again.legal_actions(action.seat)) > 1
            again.apply(action.seat, action.action)
        assert again.outcome is not None and again.outcome.winner == match.result["winner"]
        last = list(replay(json.loads(json.dumps(await kernel.export(match_id)))))[-1]
        assert (last["winner"], last["reason"]) == (match.result["winner"], match.result["reason"])
    assert played_themselves > 0
