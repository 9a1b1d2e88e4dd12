"""Casino War through the match kernel on a real SQLite file: a table of one, chips stored with the step that moves
them (and never twice), the daily top-up, unrated results, and no tournaments."""

from __future__ import annotations

import pytest

from bot.games.casinowar.flow import CasinoWarFlow
from bot.games.casinowar.odds import main_bet_edge, tie_bet_edge
from bot.match.kernel import SECONDS_PER_DAY, MatchKernel
from bot.rules_text import rules_text
from bot.services.tournaments import TournamentRefused, TournamentService
from bot.storage.diagnostics import check_consistency
from bot.storage.records import ChipEntry
from tests.bot.services.support import ALICE, CHANNEL, GUILD, FakeClock, open_database
from tests.records import match_results, rating_of

RULES = {"hands": 2, "stake": 500, "daily_topup": 100, "tie_bet": 10}


@pytest.fixture
async def kernel(tmp_path, databases):
    database = await open_database(tmp_path / "casinowar.db", databases)
    yield MatchKernel(database, game="casinowar", clock=FakeClock(), seed_source=lambda: 4)
    await database.close()


async def balance(kernel: MatchKernel, user_id: int = ALICE) -> int:
    async with kernel.db.read() as conn:
        return (await kernel.db.chips.balances(conn, GUILD, [user_id]))[user_id]


async def play_table(kernel: MatchKernel) -> int:
    """A table of one, opened and dealt by its host, who bets 10 with the tie bet each hand and goes to war."""
    lobby = await kernel.open_lobby(GUILD, CHANNEL, ALICE, rules=RULES)
    match = (await kernel.start(lobby.match.id, ALICE)).match
    assert match.status == "active" and match.rules["stacks"] == [500]  # dealt with the balance: the stake
    while match.status == "active":
        panel = await kernel.panel(match.id, ALICE)
        item = "war" if panel.phase == "decide" else "tie:10"
        match = (await kernel.pick(match.id, ALICE, match.step, item)).match
    return match.id


async def test_a_table_of_one_stores_every_movement_once_and_is_not_rated(kernel):
    match_id = await play_table(kernel)
    match = await kernel.get_match(match_id)
    net = match.result["outcomes"]
    async with kernel.db.read() as conn:
        ledger = await kernel.db.chips.ledger(conn, match_id)
        assert await check_consistency(conn) == []
    total = sum(entry.amount for entry in ledger)
    assert await balance(kernel) == 500 + total
    assert net == ["win" if total > 0 else "loss" if total < 0 else "draw"]
    # the same movements written again (a step replayed after a crash) move nothing
    async with kernel.db.transaction() as conn:
        assert await kernel.db.chips.record(conn, ledger, 0.0) == 0
    assert await balance(kernel) == 500 + total
    results = await match_results(kernel.db, match_id)
    assert [r.rated for r in results] == [False] and await rating_of(kernel.db, GUILD, ALICE) is None
    exported = await kernel.export(match_id)
    assert exported["moves"][0] == {"seat": 0, "action": {"type": "bet", "amount": 10, "tie": 10}}


async def test_a_failed_step_moves_no_chips(kernel):
    lobby = await kernel.open_lobby(GUILD, CHANNEL, ALICE, rules=RULES)
    match = (await kernel.start(lobby.match.id, ALICE)).match
    with pytest.raises(RuntimeError):
        async with kernel.db.transaction() as conn:
            await kernel.db.chips.record(conn, [ChipEntry(GUILD, ALICE, match.id, 1, 0, "bet", -10)], 0.0)
            raise RuntimeError("the process dies before the step commits")
    assert await balance(kernel) == 500


async def test_the_daily_top_up_raises_a_low_balance_once_a_day_up_to_the_stake(kernel):
    async with kernel.db.transaction() as conn:
        assert await kernel.db.chips.sit_down(conn, GUILD, [ALICE], stake=500, daily_topup=100, day=3, now=0) == [500]
        await kernel.db.chips.record(conn, [ChipEntry(GUILD, ALICE, None, 3, 0, "lost", -450)], 0)
        assert await kernel.db.chips.sit_down(conn, GUILD, [ALICE], stake=500, daily_topup=100, day=3, now=0) == [50]
        assert await kernel.db.chips.sit_down(conn, GUILD, [ALICE], stake=500, daily_topup=100, day=4, now=0) == [150]
        assert await kernel.db.chips.sit_down(conn, GUILD, [ALICE], stake=500, daily_topup=100, day=4, now=0) == [150]
    assert SECONDS_PER_DAY == 86_400


async def test_tournaments_refuse_casino_war(kernel):
    service = TournamentService(kernel.db, lambda game: kernel, clock=FakeClock(), seed_source=lambda: 1)
    with pytest.raises(TournamentRefused, match="against the house"):
        await service.create(GUILD, CHANNEL, ALICE, "House cup", "casinowar", "single_elimination")
    assert CasinoWarFlow.tournaments is False and CasinoWarFlow.rated is False


def test_the_rules_text_gives_the_exact_house_edge():
    body = rules_text("casinowar").body
    for figure in (main_bet_edge(6), main_bet_edge(6, bonus=False), main_bet_edge(6, war=False), tie_bet_edge(6)):
        assert f"**{float(figure) * 100:.2f}%**" in body
