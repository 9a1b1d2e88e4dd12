"""The match service keeps each open match as last committed in memory: what it answers from memory is always what
the database holds (a second service on the same file reads only the database)."""

from __future__ import annotations

import random

import pytest

from bot.games.airwar.flow import public_board
from bot.match import errors
from bot.match.kernel import MatchKernel
from bot.services import USER_ERRORS
from bot.storage import settings as settings_store
from tests.bot.services.support import ALICE, BOB, start_match


async def same_as_stored(service: MatchKernel, reader: MatchKernel, match_id: int) -> None:
    assert await service.get_match(match_id) == await reader.get_match(match_id)
    seqs = [queued.seq for queued in await reader.outbox.events(match_id)]
    assert seqs == list(range(1, len(seqs) + 1))  # numbered from memory, without gaps
    known = service._known(match_id)
    if known is not None and known.event_seq is not None:
        assert known.event_seq == seqs[-1]
    for user_id in (ALICE, BOB):
        assert await service.panel(match_id, user_id) == await reader.panel(match_id, user_id)
    match = await reader.get_match(match_id)
    if match.status == "active":
        assert await service.view(match_id, ALICE) == await reader.view(match_id, ALICE)
        board = public_board(*await service.outbox.step_record(match_id, match.step))
        assert board == public_board(*await reader.outbox.step_record(match_id, match.step))


async def random_reference(service: MatchKernel, match_id: int, rng: random.Random) -> None:
    """What the presenter stores after it sends something: a message id, a DM, a thread."""
    match = await service.get_match(match_id)
    message_id = rng.randrange(1, 10**12)
    kind = rng.choice(["message", "board", "dm", "thread", "challenge"])
    if kind == "message":
        name = rng.choice(["result", "link", "afk:1", "dm:1:0"])
        stored = await service.outbox.set_message(match_id, name, message_id)
    elif kind == "board":
        stored = await service.outbox.set_board_message(match_id, match.step, message_id)
    elif kind == "dm":
        stored = await service.outbox.set_dm(match_id, rng.choice((ALICE, BOB)), rng.randrange(1, 10**12), message_id)
    elif kind == "thread":
        stored = await service.outbox.set_thread(match_id, rng.choice([None, message_id]))
    else:
        stored = await service.outbox.set_challenge_message(match_id, message_id)
    assert stored == await service.get_match(match_id)


async def random_click(service: MatchKernel, match_id: int, rng: random.Random) -> None:
    """One click a player could make, right or wrong (a card already placed, a stale panel, confirm too early)."""
    match = await service.get_match(match_id)
    user_id = rng.choice((ALICE, BOB))
    panel = await service.panel(match_id, user_id)
    engagement = match.step - (1 if rng.random() < 0.05 else 0)
    kind = rng.choices(["tap", "undo", "reset", "random", "drawn", "confirm", "forfeit"],
                       [10, 1, 0.3, 0.5, 0.5, 8 if panel.complete else 0.5, 0.003])[0]
    try:
        if kind == "tap":
            cards = panel.remaining if panel.remaining and rng.random() < 0.9 else panel.stack
            card = rng.choice(cards) if cards else "AS"
            await service.tap(match_id, user_id, engagement, card)
        elif kind == "confirm":
            await service.confirm(match_id, user_id, engagement)
        elif kind == "forfeit":
            await service.forfeit(match_id, user_id)
        else:
            action = {"undo": service.undo, "reset": service.reset, "random": service.random_order,
                      "drawn": service.as_drawn}[kind]
            await action(match_id, user_id, engagement)
    except USER_ERRORS:
        pass


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_memory_answers_what_the_database_holds(service, opener, tmp_path, clock, seed):
    reader = await opener(tmp_path / "airwar.db")
    rng = random.Random(seed)
    match = await start_match(service)
    await same_as_stored(service, reader, match.id)
    for _ in range(1500):
        if rng.random() < 0.005:  # a deadline passes now and then
            clock.advance(1000)
            await service.deadline_due(match.id)
        elif rng.random() < 0.1:
            await random_reference(service, match.id, rng)
        else:
            await random_click(service, match.id, rng)
        await same_as_stored(service, reader, match.id)
        if (await reader.get_match(match.id)).status != "active":
            break
    assert (await reader.get_match(match.id)).status == "finished"
    assert service._known(match.id) is None  # a finished match is forgotten: its answers come from the database


async def test_a_failed_step_is_forgotten_and_changes_nothing(service, opener, tmp_path):
    reader = await opener(tmp_path / "airwar.db")
    match = await start_match(service)
    panel = await service.panel(match.id, ALICE)
    await service.tap(match.id, ALICE, 1, panel.stack[0])
    with pytest.raises(errors.DraftError):  # a tap refused by the match in memory: nothing to forget
        await service.tap(match.id, ALICE, 1, panel.stack[0])
    assert service._known(match.id) is not None
    await same_as_stored(service, reader, match.id)
    with pytest.raises(USER_ERRORS):  # an order not complete, refused inside the transaction
        await service.confirm(match.id, ALICE, 1)
    assert service._known(match.id) is None  # read again from the database
    await same_as_stored(service, reader, match.id)
    assert (await service.panel(match.id, ALICE)).draft == (panel.stack[0],)


async def test_a_step_seen_by_a_restarted_service(service, opener, tmp_path):
    match = await start_match(service)
    panel = await service.panel(match.id, BOB)
    await service.tap(match.id, BOB, 1, panel.stack[-1])
    restarted = await opener(tmp_path / "airwar.db")
    assert (await restarted.panel(match.id, BOB)).draft == (panel.stack[-1],)
    assert (await restarted.get_match(match.id)).seats[1].draft == (panel.stack[-1],)


async def test_a_challenge_answers_what_it_stored(service, opener, tmp_path):
    """The challenge sends its players and its event without waiting for each: its record is the one stored, its
    event the one queued, and both players are remembered."""
    reader = await opener(tmp_path / "airwar.db")
    update = await service.challenge(1, 10, ALICE, BOB, challenger_name="Alice", opponent_name="Bob")
    assert update.match == await reader.get_match(update.match.id)
    assert list(update.events) == await reader.outbox.events(update.match.id)
    assert [event.type for event in update.events] == ["challenge"]
    async with reader.db.read() as conn:
        names = [await settings_store.display_name(conn, 1, user_id) for user_id in (ALICE, BOB)]
    assert names == ["Alice", "Bob"]
