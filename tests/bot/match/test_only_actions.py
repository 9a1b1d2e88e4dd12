"""The match kernel plays a seat's only legal action for it: in the transaction that made the seat wait, logged as
``only``, step after step while steps play themselves (within a bound), with each step's events tagged with it and
the chips they move on the ledger; War's Flip is asked."""

from __future__ import annotations

import json

import pytest

from bot.match import kernel as kernel_module
from bot.match.kernel import Change, MatchKernel
from bot.registry import game_class
from bot.replay import replay
from bot.storage import Database
from bot.storage import matches as store
from tests.bot.services.support import ALICE, BOB, CHANNEL, GUILD, FakeClock

#: Bundle War on the short pack, seeds whose first round is a plain battle / a tie (a war)
PLAIN_SEED, WAR_SEED = 3, 1
#: Casino War at one seat with 10 chips: seed whose first hand is a tie (the seat can't raise: it surrenders)
TIED_HAND_SEED = 39
SHORT_PACK = {"pack": 32}


@pytest.fixture
async def open_kernel(tmp_path):
    databases = []

    async def open_(game: str, seed: int) -> MatchKernel:
        database = await Database.open(tmp_path / f"{game}-{seed}-{len(databases)}.db")
        databases.append(database)
        return MatchKernel(database, game=game, clock=FakeClock(), seed_source=lambda: seed)

    yield open_
    for database in databases:
        await database.close()


async def log_of(kernel: MatchKernel, match_id: int):
    async with kernel.db.read() as conn:
        return await store.actions(conn, match_id)


async def game_of(kernel: MatchKernel, match_id: int):
    async with kernel.db.read() as conn:
        return game_class((await kernel.get_match(match_id)).game).from_json(await store.load_state(conn, match_id))


async def test_cards_that_can_only_be_played_play_themselves_at_the_deal(open_kernel):
    # no pile is on the table before the first round: neither card can steal, so round 1's step asks nobody
    kernel = await open_kernel("bundlewar", PLAIN_SEED)
    challenge = await kernel.challenge(GUILD, CHANNEL, ALICE, BOB, game="bundlewar", rules=SHORT_PACK)
    update = await kernel.accept(challenge.match.id, BOB)
    assert Change.ONLY in update.changes and Change.STEP in update.changes
    log = await log_of(kernel, update.match.id)
    assert [(a.seat, a.step, a.kind, a.action) for a in log] == [
        (0, 1, "only", {"type": "play"}), (1, 1, "only", {"type": "play"})]
    played = [q.event for q in update.events if q.type == "step_played"]
    assert [entry["seat"] for entry in played[0]["played"]] == [0, 1]  # the public line shows both cards
    assert any(q.type == "turn" and q.event["phase"] == "top" for q in update.events)
    # the round's winner picks the top of their pile from two ranks: asked, with a deadline
    game = await game_of(kernel, update.match.id)
    waiting = kernel.flow.waiting_for(game)
    assert update.match.step == 2 and len(waiting) == 1 and len(game.legal_actions(waiting[0])) == 2
    assert update.match.deadline_kind == "turn" and update.match.deadline_at is not None


async def test_steps_that_play_themselves_go_on_step_after_step(open_kernel):
    # a tie in round 1: the war's cards are looked at with still no pile to steal, so the war's step plays itself too
    kernel = await open_kernel("bundlewar", WAR_SEED)
    challenge = await kernel.challenge(GUILD, CHANNEL, ALICE, BOB, game="bundlewar", rules=SHORT_PACK)
    update = await kernel.accept(challenge.match.id, BOB)
    log = await log_of(kernel, update.match.id)
    assert {a.kind for a in log} == {"only"}
    assert sorted({a.step for a in log if a.action["type"] == "play"}) == [1, 2]
    assert [q.type for q in update.events].count("step_played") >= 2
    assert any(q.type == "war" for q in update.events)
    game = await game_of(kernel, update.match.id)
    assert all(len(game.legal_actions(seat)) > 1 for seat in kernel.flow.waiting_for(game))
    assert update.match.step == game.step


async def test_the_kernel_plays_at_most_its_bound_then_asks(open_kernel, monkeypatch):
    monkeypatch.setattr(kernel_module, "MAX_ONLY_CHOICES", 1)
    kernel = await open_kernel("bundlewar", PLAIN_SEED)
    challenge = await kernel.challenge(GUILD, CHANNEL, ALICE, BOB, game="bundlewar", rules=SHORT_PACK)
    update = await kernel.accept(challenge.match.id, BOB)
    assert [(a.seat, a.kind) for a in await log_of(kernel, update.match.id)] == [(0, "only")]
    game = await game_of(kernel, update.match.id)
    assert kernel.flow.waiting_for(game) == [1] and game.legal_actions(1) == [{"type": "play"}]
    assert update.match.step == 1 and update.match.deadline_kind == "turn"
    # asked as usual: its choice plays the step (and the next one that plays itself, one at a time)
    chosen = await kernel.choose(update.match.id, BOB, 1, {"type": "play"})
    assert chosen.match.step == 2


async def test_a_seat_left_waiting_on_its_only_action_misses_nothing_at_the_deadline(open_kernel, monkeypatch):
    # a seat still waiting with its only action when the deadline comes (the bound stopped the kernel, or the match
    # was stored before it played those) plays it then: no miss, no timeout, the step goes on
    monkeypatch.setattr(kernel_module, "MAX_ONLY_CHOICES", 1)
    kernel = await open_kernel("bundlewar", PLAIN_SEED)
    challenge = await kernel.challenge(GUILD, CHANNEL, ALICE, BOB, game="bundlewar", rules=SHORT_PACK)
    match = (await kernel.accept(challenge.match.id, BOB)).match
    monkeypatch.undo()
    kernel.clock.advance(match.deadline_at - kernel.clock() + 1)
    update = await kernel.deadline_due(match.id)
    assert update is not None and Change.TIMEOUT not in update.changes and Change.ONLY in update.changes
    assert not any(q.type == "turn_timeout" for q in update.events)
    assert [(a.seat, a.step, a.kind) for a in await log_of(kernel, match.id)] == [(0, 1, "only"), (1, 1, "only")]
    assert update.match.step == 2 and [seat.misses for seat in update.match.seats] == [0, 0]
    assert update.match.deadline_at > kernel.clock()


async def test_a_tie_a_seat_cannot_raise_for_surrenders_by_itself_and_its_chips_move(open_kernel):
    # one seat with 10 chips bets them all; the hand is a tie, and going to war needs 10 more: it can only surrender,
    # which plays itself in the bet's transaction: the half back is on the ledger, and with 5 chips (under the
    # smallest bet) the player stands up and the table closes
    kernel = await open_kernel("casinowar", TIED_HAND_SEED)
    lobby = await kernel.open_lobby(GUILD, CHANNEL, ALICE, game="casinowar", rules={"stake": 10})
    match = (await kernel.start(lobby.match.id, ALICE)).match
    assert match.rules["stacks"] == [10]
    update = await kernel.choose(match.id, ALICE, 1, {"type": "bet", "amount": 10, "tie": 0})
    log = await log_of(kernel, match.id)
    assert [(a.step, a.kind, a.action) for a in log] == [
        (1, "bet", {"type": "bet", "amount": 10, "tie": 0}), (2, "only", {"type": "surrender"})]
    assert update.finished and Change.ONLY in update.changes
    by_step = {q.type: q.step for q in update.events if q.type in ("war", "dealt", "hand_over")}
    assert by_step["dealt"] == 1 and by_step["hand_over"] == 2  # each step's events tagged with their step
    async with kernel.db.read() as conn:
        assert await kernel.db.chips.balances(conn, GUILD, [ALICE]) == {ALICE: 5}
        ledger = await kernel.db.chips.ledger(conn, match.id)
    assert sum(entry.amount for entry in ledger) == -5
    assert update.match.result["outcomes"] == ["loss"]
    exported = await kernel.export(match.id)
    assert exported["moves"][-1] == {"seat": 0, "action": {"type": "surrender"}}
    last = list(replay(json.loads(json.dumps(exported))))[-1]
    assert (last["winner"], last["reason"]) == (update.match.result["winner"], update.match.result["reason"])


async def test_wars_flip_is_asked_though_it_is_the_only_action(open_kernel):
    kernel = await open_kernel("war", 5)
    challenge = await kernel.challenge(GUILD, CHANNEL, ALICE, BOB, game="war", pace="flip")
    update = await kernel.accept(challenge.match.id, BOB)
    game = await game_of(kernel, update.match.id)
    assert kernel.flow.waiting_for(game) == [0, 1]
    assert all(game.legal_actions(seat) == [{"type": "flip"}] for seat in (0, 1))
    assert await log_of(kernel, update.match.id) == [] and Change.ONLY not in update.changes
