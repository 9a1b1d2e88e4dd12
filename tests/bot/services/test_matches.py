"""The match service on a real SQLite file: challenges, panels, engagements, deadlines, forfeits, results."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from openskill.models import PlackettLuce

from bot.errors import InvalidRules, InvalidState
from bot.games.airwar.engine import AirWar
from bot.games.airwar.flow import public_board
from bot.match import errors
from bot.match.ending import finish
from bot.match.kernel import CHALLENGE_SECONDS, MatchKernel
from bot.match.timers import Timers
from bot.match.work import Work
from bot.replay import replay
from bot.services.settings import InvalidSetting, SettingsService
from bot.storage import matches as store
from bot.storage import results as results_store
from bot.storage import settings as settings_store
from bot.storage.errors import ConstraintViolation
from bot.storage.settings import GuildSettings
from tests.bot.services.support import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    SEED,
    as_drawn,
    build_and_confirm,
    consistency,
    forfeit_mine,
    play_engagement,
    play_to_the_end,
    reverse,
    rotate,
    start_match,
    table_dump,
)
from tests.records import leaderboard_page, match_results, rating_of

DAVE = 400


def expected_game(policies=(as_drawn, reverse), seed=SEED, rules=None) -> tuple[AirWar, list[dict]]:
    """The same match played on the engine alone."""
    game = AirWar.new(rules or {}, seed=seed)
    events = list(game.opening_events)
    while not game.is_over:
        stacks = game.view(None)["stacks"]
        events += game.apply_move({"orders": [policies[0](list(stacks[0])), policies[1](list(stacks[1]))]})
    return game, events


def engine_events(queued) -> list[dict]:
    """The engine's events out of the queue, without the keys the service adds."""
    service_types = {"challenge", "accepted", "declined", "withdrawn", "expired", "arrange_timeout", "result"}
    out = []
    for q in queued:
        if q.type in service_types:
            continue
        event = dict(q.event)
        if event["type"] == "engagement":
            event.pop("deadline_at")
            event.pop("arrange_seconds")
        out.append(event)
    return out


async def refused(service: MatchKernel, error: type[Exception], call, match: str | None = None):
    """The call raises ``error`` and changes nothing in the database."""
    before = await table_dump(service.db)
    with pytest.raises(error, match=match) as info:
        await call
    assert await table_dump(service.db) == before
    return info.value


# --- a whole match -------------------------------------------------------------------------------------------

async def test_a_full_match_from_challenge_to_result(service, clock):
    challenge = await service.challenge(GUILD, CHANNEL, ALICE, BOB, challenger_name="Alice", opponent_name="Bob")
    match = challenge.match
    assert (match.status, match.deadline_kind, match.deadline_at) == ("challenge", "challenge",
                                                                       clock() + CHALLENGE_SECONDS)
    assert match.user_ids == (ALICE, BOB) and match.rules == {"aces": "high", "deck": "standard", "stack": 5}
    assert [e.type for e in challenge.events] == ["challenge"] and challenge.changes >= {"challenge"}

    accepted = await service.accept(match.id, BOB)
    assert accepted.match.status == "active" and accepted.match.seed == SEED
    assert [e.type for e in accepted.events] == ["accepted", "engagement"]
    opening = accepted.events[1].event
    assert opening["number"] == 1 and opening["deadline_at"] == clock() + 120 == accepted.match.deadline_at
    assert accepted.new_step and accepted.match.deadline_kind == "arrange"

    first = await build_and_confirm(service, match.id, ALICE, as_drawn)
    assert [e.event for e in first.events] == [
        {"type": "order_locked", "engagement": 1, "seat": 0, "waiting_for": [1]}]
    assert first.panel.locked and not first.new_step
    assert (await service.panel(match.id, BOB)).opponent_locked

    clock.advance(30)
    second = await build_and_confirm(service, match.id, BOB, reverse)
    types = [e.type for e in second.events]
    assert types[0] == "order_locked" and "flip" in types and types[-2:] == ["engagement_end", "engagement"]
    flips = types.count("flip")
    # the next deadline leaves the time the flips take to show (1.5 s each by default) on top of the timer
    assert second.match.deadline_at == clock() + 120 + flips * 1.5
    assert second.match.step == 2 and all(seat.draft == () for seat in second.match.seats)

    final = await play_to_the_end(service, match.id)
    game, events = expected_game()
    assert final.status == "finished" and final.deadline_at is None
    assert final.result == {
        "winner": game.outcome.winner, "winner_id": final.user_ids[game.outcome.winner]
        if game.outcome.winner is not None else None, "reason": game.outcome.reason, "detail": game.outcome.detail,
        "engagement": game.engagement, "user_ids": [ALICE, BOB],
    }
    queued = await service.outbox.unshown_events(match.id)
    assert engine_events(queued) == events  # every flip queued, in order, exactly as the engine made them
    assert [q.seq for q in queued] == list(range(1, len(queued) + 1))
    assert queued[-1].type == "result" and queued[-2].type == "game_over"

    results = await match_results(service.db, match.id)
    outcomes = {r.user_id: r.outcome for r in results}
    winner = final.result["winner_id"]
    assert len(results) == 2 and (winner is None or outcomes[winner] == "win")
    for user in (ALICE, BOB):
        rating = await rating_of(service.db, GUILD, user)
        assert rating.games == 1
    assert await consistency(service.db) == []
    assert await service.find_match(ALICE) is None  # both are free again


async def test_the_panel_draft_operations(service):
    match = await start_match(service)
    panel = await service.panel(match.id, ALICE)
    stack = list(panel.stack)
    assert panel.remaining == panel.stack and panel.draft == () and not panel.complete
    update = await service.tap(match.id, ALICE, 1, stack[3])
    assert update.panel.draft == (stack[3],) and stack[3] not in update.panel.remaining
    assert update.changes == {"draft"} and update.events == ()
    await refused(service, errors.DraftError, service.tap(match.id, ALICE, 1, stack[3]), "already placed")
    await refused(service, errors.DraftError, service.tap(match.id, ALICE, 1, "ZZ"), "not in your stack")
    await refused(service, errors.OrderIncomplete, service.confirm(match.id, ALICE, 1), "1 placed")
    assert (await service.reset(match.id, ALICE, 1)).panel.draft == ()
    assert (await service.undo(match.id, ALICE, 1)).changes == frozenset()  # nothing to undo
    shuffled = (await service.random_order(match.id, ALICE, 1)).panel
    assert sorted(shuffled.draft) == sorted(stack) and shuffled.complete
    drawn = (await service.as_drawn(match.id, ALICE, 1)).panel
    assert list(drawn.draft) == stack and drawn.remaining == ()
    assert (await service.undo(match.id, ALICE, 1)).panel.draft == tuple(stack[:-1])
    await service.tap(match.id, ALICE, 1, stack[-1])
    locked = await service.confirm(match.id, ALICE, 1)
    assert locked.panel.locked and locked.panel.draft == tuple(stack)
    for call in (service.tap(match.id, ALICE, 1, stack[0]), service.undo(match.id, ALICE, 1),
                 service.reset(match.id, ALICE, 1), service.random_order(match.id, ALICE, 1),
                 service.as_drawn(match.id, ALICE, 1), service.confirm(match.id, ALICE, 1)):
        await refused(service, errors.AlreadyLocked, call, "Already done")
    # the draft is stored: a new service on the same file sees it
    assert (await service.panel(match.id, ALICE)).draft == tuple(stack)


async def test_the_opponent_never_sees_an_order_before_the_flips(service):
    match = await start_match(service)
    await build_and_confirm(service, match.id, ALICE, reverse)
    status = await service.status(BOB)
    assert status.seat == 1 and status.view["my_order"] is None and status.view["locked"] == [True, False]
    assert "orders" not in status.view
    assert (await service.status(ALICE)).view["my_order"] is not None
    bob_panel = await service.panel(match.id, BOB)
    assert bob_panel.view["seat"] == 1 and bob_panel.view["my_order"] is None and bob_panel.opponent_locked
    assert (await service.panel(match.id, ALICE)).view["my_order"] == list(reversed(bob_panel.view["stacks"][0]))
    spectator = await service.view(match.id)
    assert spectator["my_order"] is None
    update_events = await service.outbox.unshown_events(match.id)
    assert all("cards" not in e.event for e in update_events if e.type == "order_locked")
    draft = list((await service.as_drawn(match.id, BOB, 1)).panel.draft)
    assert (await service.get_match(match.id)).seats[1].draft == tuple(draft)


# --- challenges ----------------------------------------------------------------------------------------------

async def test_decline_withdraw_and_expire(service, clock):
    declined = await service.challenge(GUILD, CHANNEL, ALICE, BOB)
    await refused(service, errors.WrongPlayer, service.decline(declined.match.id, ALICE), f"<@{BOB}>")
    update = await service.decline(declined.match.id, BOB)
    assert (update.match.status, update.match.reason, update.match.deadline_at) == ("cancelled", "declined", None)
    assert [e.event for e in update.events] == [{"type": "declined", "by": BOB}]
    await refused(service, errors.ChallengeClosed, service.decline(declined.match.id, BOB), "declined")
    await refused(service, errors.ChallengeClosed, service.accept(declined.match.id, BOB), "declined")

    withdrawn = await service.challenge(GUILD, CHANNEL, ALICE, BOB)
    await refused(service, errors.WrongPlayer, service.withdraw(withdrawn.match.id, BOB), f"<@{ALICE}>")
    update = await service.withdraw(withdrawn.match.id, ALICE)
    assert (update.match.status, update.match.reason) == ("cancelled", "withdrawn")
    await refused(service, errors.ChallengeClosed, service.withdraw(withdrawn.match.id, ALICE), "withdrawn")

    expiring = await service.challenge(GUILD, CHANNEL, ALICE, BOB)
    mid = expiring.match.id
    clock.advance(CHALLENGE_SECONDS - 1)
    assert await service.expire(mid) is None  # not yet
    assert await service.deadline_due(mid) is None
    clock.advance(1)
    await refused(service, errors.ChallengeClosed, service.accept(mid, BOB), "expired")  # the deadline has passed
    update = await service.deadline_due(mid)
    assert (update.match.status, update.match.reason) == ("cancelled", "expired")
    assert [e.type for e in update.events] == ["expired"] and update.changes >= {"expired"}
    assert await service.expire(mid) is None  # idempotent
    assert await service.deadline_due(mid) is None
    assert (await service.get_match(mid)).status == "cancelled"
    assert await service.find_match(ALICE) is None


async def test_an_accepted_challenge_does_not_expire(service, clock):
    match = await start_match(service)
    clock.advance(CHALLENGE_SECONDS + 1)
    assert await service.expire(match.id) is None
    assert (await service.get_match(match.id)).status == "active"


async def test_refusals_change_nothing(service):
    await refused(service, errors.CannotChallengeSelf, service.challenge(GUILD, CHANNEL, ALICE, ALICE))
    await refused(service, InvalidRules, service.challenge(GUILD, CHANNEL, ALICE, BOB, rules={"stack": 9}))
    await refused(service, InvalidRules, service.challenge(GUILD, CHANNEL, ALICE, BOB, rules={"jokers": 1}))
    await refused(service, InvalidRules, service.challenge(GUILD, CHANNEL, ALICE, BOB, game="chess"))
    await refused(service, errors.UnsupportedGame, service.challenge(GUILD, CHANNEL, ALICE, BOB, game="war"))
    await refused(service, errors.InvalidSetting,
                  service.challenge(GUILD, CHANNEL, ALICE, BOB, arrange_seconds=5), "30 to 600")
    await refused(service, errors.MatchNotFound, service.accept(999, BOB))

    challenge = (await service.challenge(GUILD, CHANNEL, ALICE, BOB)).match
    # busy: both players of an open challenge, in any server
    error = await refused(service, errors.AlreadyInMatch, service.challenge(GUILD, CHANNEL, CAROL, BOB))
    assert error.user_id == BOB and str(error) == f"<@{BOB}> is already in an Air War match."
    error = await refused(service, errors.AlreadyInMatch, service.challenge(2, 20, ALICE, CAROL))
    assert error.user_id == ALICE and str(error).startswith("You're already in an Air War match")
    # the wrong user for each button
    # someone outside the challenge is told who may answer it
    await refused(service, errors.WrongPlayer, service.accept(challenge.id, CAROL), f"Only <@{BOB}> can accept")
    await refused(service, errors.WrongPlayer, service.decline(challenge.id, CAROL), f"Only <@{BOB}> can decline")
    await refused(service, errors.WrongPlayer, service.withdraw(challenge.id, CAROL), f"Only <@{ALICE}> can withdraw")
    await refused(service, errors.WrongPlayer, service.accept(challenge.id, ALICE), f"Only <@{BOB}> can accept")
    await refused(service, errors.MatchNotActive, service.tap(challenge.id, ALICE, 0, "AS"), "hasn't started")
    await refused(service, errors.MatchNotActive, service.forfeit(challenge.id, ALICE))
    # a challenge is not a match to forfeit
    await refused(service, errors.ChallengeNotStarted, forfeit_mine(service, ALICE))

    match = (await service.accept(challenge.id, BOB)).match
    stack = list((await service.panel(match.id, ALICE)).stack)
    for call in (service.tap(match.id, CAROL, 1, stack[0]), service.confirm(match.id, CAROL, 1),
                 service.undo(match.id, CAROL, 1), service.forfeit(match.id, CAROL),
                 service.outbox.set_dm(match.id, CAROL, 1, 2)):
        await refused(service, errors.NotYourMatch, call)
    with pytest.raises(errors.NotYourMatch):
        await service.panel(match.id, CAROL)
    await refused(service, errors.ChallengeClosed, service.accept(match.id, BOB), "already accepted")
    await play_engagement(service, match.id, (as_drawn, as_drawn))
    # a button of engagement 1's panel, now that engagement 2 is being arranged
    error = await refused(service, errors.StalePanel, service.tap(match.id, ALICE, 1, stack[0]))
    assert (error.panel_engagement, error.current_engagement) == (1, 2)
    await refused(service, errors.StalePanel, service.confirm(match.id, ALICE, 1))
    await refused(service, errors.NotInMatch, service.status(CAROL), "not in an Air War match")
    assert await consistency(service.db) == []


async def test_players_are_free_again_after_a_match(service):
    match = await start_match(service)
    await service.forfeit(match.id, ALICE)
    again = await service.challenge(GUILD, CHANNEL, BOB, ALICE)
    assert again.match.user_ids == (BOB, ALICE)


# --- two clicks at once ---------------------------------------------------------------------------------------

async def test_two_concurrent_confirms_by_one_player_apply_once(service):
    match = await start_match(service)
    await service.as_drawn(match.id, ALICE, 1)
    outcomes = await asyncio.gather(*(service.confirm(match.id, ALICE, 1) for _ in range(2)),
                                    return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["AlreadyLocked", "MatchUpdate"]
    queued = await service.outbox.unshown_events(match.id)
    assert [e.type for e in queued].count("order_locked") == 1

    # when the other order is in, the second click finds the engagement played: a stale panel, still one action
    await service.as_drawn(match.id, BOB, 1)
    outcomes = await asyncio.gather(*(service.confirm(match.id, BOB, 1) for _ in range(3)), return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["MatchUpdate", "StalePanel", "StalePanel"]
    match = await service.get_match(match.id)
    assert match.step == 2
    assert len((await service.export(match.id, allow_open=True))["moves"]) == 1


async def test_two_concurrent_accepts_and_challenges(service):
    match = (await service.challenge(GUILD, CHANNEL, ALICE, BOB)).match
    outcomes = await asyncio.gather(service.accept(match.id, BOB), service.accept(match.id, BOB),
                                    return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["ChallengeClosed", "MatchUpdate"]
    outcomes = await asyncio.gather(service.challenge(GUILD, CHANNEL, CAROL, DAVE),
                                    service.challenge(GUILD, CHANNEL, DAVE, CAROL), return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["AlreadyInMatch", "MatchUpdate"]
    taps = (await service.panel(match.id, ALICE)).stack[:3]
    await asyncio.gather(*(service.tap(match.id, ALICE, 1, card) for card in taps))
    assert sorted((await service.panel(match.id, ALICE)).draft) == sorted(taps)


# --- missed deadlines -----------------------------------------------------------------------------------------

async def test_a_missed_deadline_plays_the_stack_as_drawn(service, clock):
    match = await start_match(service)
    await build_and_confirm(service, match.id, BOB, reverse)
    stacks = (await service.view(match.id))["stacks"]
    clock.advance(119)
    assert await service.step_timeout(match.id, 1) is None  # not yet
    clock.advance(1)
    assert await service.step_timeout(match.id, 2) is None  # not that engagement
    update = await service.deadline_due(match.id)
    assert update.timed_out == (0,) and update.forfeited == () and update.changes >= {"timeout", "step"}
    assert update.events[0].event == {
        "type": "arrange_timeout", "engagement": 1, "seats": [0], "user_ids": [ALICE], "misses": [1, 0],
        "as_drawn": [0], "forfeit": []}
    assert update.match.step == 2 and [s.misses for s in update.match.seats] == [1, 0]
    assert await service.step_timeout(match.id, 1) is None  # idempotent
    moves = (await service.export(match.id, allow_open=True))["moves"]
    assert moves == [{"orders": [stacks[0], list(reversed(stacks[1]))]}]


async def test_two_misses_in_a_row_forfeit_and_a_confirm_resets_the_count(service, clock):
    match = await start_match(service)
    clock.advance(200)
    both = await service.deadline_due(match.id)  # both missed once: both stacks as drawn
    assert both.timed_out == (0, 1) and [s.misses for s in both.match.seats] == [1, 1]
    await build_and_confirm(service, match.id, ALICE, rotate)  # Alice is back: her count goes to 0
    clock.advance(200)
    update = await service.deadline_due(match.id)
    assert update.forfeited == (1,) and update.timed_out == (1,)
    assert update.match.status == "finished" and update.match.result["winner"] == 0
    assert update.match.result["reason"] == "timeout"
    assert [e.type for e in update.events] == ["arrange_timeout", "game_over", "result"]
    assert update.events[0].event["forfeit"] == [1]
    assert [s.misses for s in update.match.seats] == [0, 2]
    assert {r.user_id: r.outcome for r in await match_results(service.db, match.id)} == {ALICE: "win", BOB: "loss"}
    assert await service.deadline_due(match.id) is None
    assert await consistency(service.db) == []


async def test_a_confirm_between_misses_keeps_the_player_in(service, clock):
    match = await start_match(service)
    await build_and_confirm(service, match.id, BOB, as_drawn)
    clock.advance(200)
    await service.deadline_due(match.id)  # Alice: 1 miss
    await build_and_confirm(service, match.id, ALICE, as_drawn)
    await build_and_confirm(service, match.id, BOB, as_drawn)  # Alice confirmed: back to 0
    await build_and_confirm(service, match.id, BOB, as_drawn)
    clock.advance(200)
    update = await service.deadline_due(match.id)  # Alice: 1 miss again, not 2
    assert update.forfeited == () and update.match.status == "active"
    assert [s.misses for s in update.match.seats] == [1, 0]


async def test_both_missing_twice_is_a_draw(service, clock):
    match = await start_match(service)
    for _ in range(2):
        clock.advance(1000)
        update = await service.deadline_due(match.id)
    assert update.forfeited == (0, 1) and update.match.result["winner"] is None
    assert update.match.reason == "double_timeout"
    assert {r.outcome for r in await match_results(service.db, match.id)} == {"draw"}
    game_over = next(e.event for e in update.events if e.type == "game_over")
    assert game_over["winner"] is None and game_over["reason"] == "double_timeout"
    assert await consistency(service.db) == []


async def test_a_late_confirm_before_the_timer_ran_counts(service, clock):
    match = await start_match(service)
    clock.advance(500)
    await build_and_confirm(service, match.id, ALICE, as_drawn)
    update = await service.deadline_due(match.id)
    assert update.timed_out == (1,)


# --- forfeits, recorded once ----------------------------------------------------------------------------------

async def test_forfeit(service):
    match = await start_match(service)
    await play_engagement(service, match.id, (as_drawn, reverse))
    update = await forfeit_mine(service, BOB)
    assert update.forfeited == (1,) and update.finished
    assert update.match.result["winner_id"] == ALICE and update.match.reason == "forfeit"
    assert [e.type for e in update.events] == ["game_over", "result"]
    await refused(service, errors.MatchNotActive, service.forfeit(match.id, ALICE), "over")
    await refused(service, errors.NotInMatch, forfeit_mine(service, ALICE))
    await refused(service, errors.MatchNotActive, service.tap(match.id, ALICE, 2, "AS"), "over")
    assert (await service.panel(match.id, ALICE)).finished


async def test_a_result_is_recorded_once(service):
    match = await start_match(service)
    await service.forfeit(match.id, ALICE)
    before = await table_dump(service.db)
    # the code path: a second finish of the same match is refused and rolls back
    game = AirWar.new({}, seed=1)
    game.forfeit(0)
    work_match = await service.get_match(match.id)
    with pytest.raises(RuntimeError, match="no longer active"):
        async with service.db.transaction() as conn:
            await finish(Work(conn, service.store, work_match, 0.0), game, service.flow, service.ratings,
                         service.db.results)
    # the constraint: results of the same match cannot be written twice
    results = await match_results(service.db, match.id)
    with pytest.raises(ConstraintViolation):
        async with service.db.transaction() as conn:
            await results_store.insert_results(conn, results, 0.0)
    assert await table_dump(service.db) == before
    assert (await rating_of(service.db, GUILD, ALICE)).games == 1


async def test_one_match_failing_never_touches_another(service, opener, tmp_path):
    broken = await start_match(service)
    healthy = await start_match(service, CAROL, DAVE)
    async with service.db.transaction() as conn:
        await store.update_match(conn, broken.id, 0.0, state={"game": "airwar", "version": 1})
    # the damage is read after a restart (a running service keeps what it committed in memory)
    service = await opener(tmp_path / "airwar.db")
    with pytest.raises(InvalidState):
        await service.as_drawn(broken.id, ALICE, 1)
    final = await play_to_the_end(service, healthy.id)
    assert final.status == "finished"


# --- restarts -------------------------------------------------------------------------------------------------

async def test_a_restart_mid_match_continues_to_the_identical_result(tmp_path, opener):
    policies = (rotate, reverse)
    plain = await opener(tmp_path / "plain.db")
    match = await start_match(plain)
    final = await play_to_the_end(plain, match.id, policies)
    expected = (final.result, await match_results(plain.db, match.id), await plain.export(match.id),
                [q.event for q in await plain.outbox.unshown_events(match.id)])
    await plain.db.close()

    path = tmp_path / "restarted.db"
    first = await opener(path)
    match = await start_match(first)
    await first.outbox.set_thread(match.id, 555)
    for _ in range(3):
        await play_engagement(first, match.id, policies)
    await first.outbox.set_board_message(match.id, 4, 777)
    await build_and_confirm(first, match.id, ALICE, policies[0])  # seat 0 locked in, then the bot stops
    half = (await first.panel(match.id, BOB)).stack[:2]
    for card in half:
        await first.tap(match.id, BOB, 4, card)
    shown = await first.outbox.unshown_events(match.id)
    await first.outbox.mark_shown(match.id, shown[-3].seq)
    await first.db.close()

    second = await opener(path)
    [resumed] = await second.open_matches()
    assert (resumed.id, resumed.status, resumed.step, resumed.deadline_kind) == (match.id, "active", 4,
                                                                                       "arrange")
    assert resumed.thread_id == 555 and resumed.board_message_id(4) == 777
    assert await second.outbox.matches_with_unshown_events() == [match.id]
    assert [q.seq for q in await second.outbox.unshown_events(match.id)] == [q.seq for q in shown[-2:]]
    panel = await second.panel(match.id, BOB)
    assert panel.draft == tuple(half) and (await second.panel(match.id, ALICE)).locked
    await refused(second, errors.AlreadyLocked, second.confirm(match.id, ALICE, 4))
    await second.reset(match.id, BOB, 4)
    await build_and_confirm(second, match.id, BOB, policies[1])
    final = await play_to_the_end(second, match.id, policies)
    got = (final.result, await match_results(second.db, match.id), await second.export(match.id),
           [q.event for q in await second.outbox.events(match.id)])
    await second.db.close()
    assert got[0] == expected[0] and got[2] == expected[2]
    assert [(r.seat, r.user_id, r.outcome, r.rating_after) for r in got[1]] == [
        (r.seat, r.user_id, r.outcome, r.rating_after) for r in expected[1]]
    strip = [{k: v for k, v in e.items() if k not in ("deadline_at", "expires_at")} for e in expected[3]]
    assert [{k: v for k, v in e.items() if k not in ("deadline_at", "expires_at")} for e in got[3]] == strip


async def test_references_are_kept(service):
    match = (await service.challenge(GUILD, CHANNEL, ALICE, BOB)).match
    await service.outbox.set_challenge_message(match.id, 11)
    await service.accept(match.id, BOB)
    await service.outbox.set_thread(match.id, 12)
    await service.outbox.set_dm(match.id, BOB, 13, 14)
    await service.outbox.set_board_message(match.id, 1, 15)
    record = await service.outbox.set_message(match.id, "result", 16)
    assert (record.challenge_message_id, record.thread_id, record.play_channel_id) == (11, 12, 12)
    assert (record.seats[1].dm_channel_id, record.seats[1].dm_message_id) == (13, 14)
    assert record.messages == {"board:1": 15, "result": 16} and record.board_message_id(1) == 15
    assert (await service.outbox.set_thread(match.id, None)).play_channel_id == CHANNEL


async def test_the_event_queue(service):
    match = await start_match(service)
    queued = await service.outbox.unshown_events(match.id)
    assert [q.type for q in queued] == ["challenge", "accepted", "engagement"]
    assert await service.outbox.mark_shown(match.id, 2) == 2
    assert await service.outbox.mark_shown(match.id, 2) == 0
    assert [q.seq for q in await service.outbox.unshown_events(match.id)] == [3]
    assert [q.shown for q in await service.outbox.events(match.id)] == [True, True, False]
    assert [q.seq for q in await service.outbox.events(match.id, step=1)] == [3]
    await service.outbox.mark_shown(match.id, 3)
    assert await service.outbox.matches_with_unshown_events() == []


# --- export and replay ------------------------------------------------------------------------------------------

async def test_export_replays_to_the_stored_result(service):
    match = await start_match(service, rules={"aces": "low", "stack": 4, "deck": "jokers"})
    await refused(service, errors.ServiceError, service.export(match.id), "once the match is over")
    final = await play_to_the_end(service, match.id, (reverse, rotate))
    exported = await service.export(match.id)
    assert set(exported) == {"game", "rules", "seed", "moves"} and exported["seed"] == SEED
    lines = list(replay(exported))
    summary = lines[-1]
    assert (summary["winner"], summary["reason"], summary.get("detail")) == (
        final.result["winner"], final.result["reason"], final.result["detail"])
    assert lines[:-1] == engine_events(await service.outbox.events(match.id))


async def _replayed_result(service, match_id):
    exported = await service.export(match_id)
    summary = list(replay(exported))[-1]
    return exported["moves"], (summary.get("winner", "absent"), summary["reason"])


async def test_export_of_a_forfeit_replays_to_the_forfeit(service):
    match = await start_match(service)
    await play_engagement(service, match.id, (as_drawn, reverse))
    await build_and_confirm(service, match.id, ALICE, rotate)  # locked, never flipped: stays out of the file
    final = (await forfeit_mine(service, BOB)).match
    moves, result = await _replayed_result(service, match.id)
    assert [set(move) for move in moves] == [{"orders"}, {"forfeit", "reason"}]
    assert moves[-1] == {"forfeit": 1, "reason": "forfeit"}
    assert result == (final.result["winner"], final.result["reason"]) == (0, "forfeit")


async def test_export_of_a_timeout_forfeit_and_of_a_double_timeout(service, clock):
    match = await start_match(service)
    clock.advance(200)
    await service.deadline_due(match.id)  # both play as drawn
    await build_and_confirm(service, match.id, ALICE, rotate)
    clock.advance(200)
    final = (await service.deadline_due(match.id)).match  # Bob's second miss
    moves, result = await _replayed_result(service, match.id)
    assert moves[-1] == {"forfeit": 1, "reason": "timeout"}
    assert result == (final.result["winner"], final.result["reason"]) == (0, "timeout")

    other = await start_match(service, CAROL, BOB + 1)
    for _ in range(2):
        clock.advance(1000)
        final = (await service.deadline_due(other.id)).match
    moves, result = await _replayed_result(service, other.id)
    assert moves[-1] == {"draw": "double_timeout"} and sum("draw" in move for move in moves) == 1
    assert result == (final.result["winner"], final.result["reason"]) == (None, "double_timeout")


# --- settings and the leaderboard -------------------------------------------------------------------------------

async def test_settings(service, clock):
    assert (await service.get_settings(GUILD)).arrange_seconds == 120
    assert (await service.get_settings(GUILD)).flip_pace_ms == 1500
    settings = SettingsService(service.db, clock=clock)
    new = await settings.set_arrange_seconds(GUILD, 45)
    assert (new.arrange_seconds, new.flip_pace_ms) == (45, 1500)
    assert (await settings.set_flip_pace_ms(GUILD, 1000)).arrange_seconds == 45  # the fastest pace
    # faster than one flip a second would break Discord's 5 edits per 5 s on the board
    setters = {"arrange_seconds": settings.set_arrange_seconds, "flip_pace_ms": settings.set_flip_pace_ms}
    for bad in ({"arrange_seconds": 29}, {"arrange_seconds": 601}, {"flip_pace_ms": 999}, {"flip_pace_ms": 500},
                {"flip_pace_ms": 5001}, {"arrange_seconds": True}, {"arrange_seconds": 60.5}):
        [(name, value)] = bad.items()
        await refused(service, InvalidSetting, setters[name](GUILD, value))
    # a pace stored before the minimum was raised counts as the minimum
    async with service.db.transaction() as conn:
        await settings_store.put_settings(conn, GuildSettings(3, 60, 500), clock())
    assert (await service.get_settings(3)).flip_pace_ms == 1000
    assert (await service.get_settings(2)).arrange_seconds == 120  # other servers keep the defaults
    match = await start_match(service)
    assert match.arrange_seconds == 45 and match.deadline_at == clock() + 45
    other = await start_match(service, CAROL, DAVE, arrange_seconds=300)  # the challenge's own timer wins
    assert other.arrange_seconds == 300 and other.deadline_at == clock() + 300
    await settings.set_arrange_seconds(GUILD, 600)  # a running match keeps its timer
    await play_engagement(service, match.id, (as_drawn, as_drawn))
    assert (await service.get_match(match.id)).arrange_seconds == 45


async def test_the_leaderboard(service):
    players = [ALICE, BOB, CAROL, DAVE]
    async with service.db.transaction() as conn:
        for user, name in zip(players, ["Alice", "Bob", "Carol", "Dave"], strict=True):
            await settings_store.remember_player(conn, GUILD, user, name, service.clock())
    # (winner, loser); forfeits make quick results
    games = [(ALICE, BOB), (ALICE, CAROL), (BOB, CAROL), (ALICE, BOB), (CAROL, BOB), (ALICE, CAROL), (DAVE, ALICE)]
    model = PlackettLuce()
    expected = {user: model.rating() for user in players}
    for winner, loser in games:
        match = await start_match(service, winner, loser)
        await service.forfeit(match.id, loser)
        new = model.rate([[expected[winner]], [expected[loser]]], ranks=[1, 2])
        expected[winner], expected[loser] = new[0][0], new[1][0]
    draw = await start_match(service, BOB, CAROL)
    for _ in range(2):  # a draw: both miss twice
        service.clock.advance(1000)
        await service.deadline_due(draw.id)
    new = model.rate([[expected[BOB]], [expected[CAROL]]], ranks=[1, 1])
    expected[BOB], expected[CAROL] = new[0][0], new[1][0]

    board = await leaderboard_page(service.db, GUILD, per_page=2, min_games=3)
    assert (board.page, board.pages, board.ranked, board.unranked) == (1, 2, 3, 1)  # Dave has 1 game: unranked
    page2 = await leaderboard_page(service.db, GUILD, page=2, per_page=2, min_games=3)
    rows = [*board.rows, *page2.rows]
    assert [r.rank for r in rows] == [1, 2, 3]
    order = sorted([ALICE, BOB, CAROL], key=lambda u: -expected[u].ordinal())
    assert [r.user_id for r in rows] == order
    for row in rows:
        assert row.rating == pytest.approx(expected[row.user_id].ordinal())
        assert row.mu == pytest.approx(expected[row.user_id].mu)
    alice = next(r for r in rows if r.user_id == ALICE)
    assert (alice.display_name, alice.wins, alice.losses, alice.draws, alice.games) == ("Alice", 4, 1, 0, 5)
    assert alice.win_rate == pytest.approx(0.8)
    bob = next(r for r in rows if r.user_id == BOB)
    assert (bob.wins, bob.losses, bob.draws) == (1, 3, 1)
    assert (await leaderboard_page(service.db, GUILD, page=99, per_page=2, min_games=3)).page == 2  # clamped
    everyone = await leaderboard_page(service.db, GUILD, min_games=1)
    assert everyone.ranked == 4 and everyone.unranked == 0 and everyone.pages == 1
    assert (await leaderboard_page(service.db, 2)).rows == () and (await leaderboard_page(service.db, 2)).pages == 1
    assert await consistency(service.db) == []


async def test_status_of_a_challenge_and_timers_rearmed_from_stored_deadlines(service, clock):
    challenge = (await service.challenge(GUILD, CHANNEL, ALICE, BOB)).match
    status = await service.status(BOB)
    assert (status.match.id, status.seat, status.view, status.panel) == (challenge.id, 1, None, None)
    match = await start_match(service, CAROL, DAVE)

    async def sleep(seconds: float) -> None:  # time flies: the fake clock jumps to the deadline
        clock.advance(seconds)
        await asyncio.sleep(0)

    timers = Timers(clock=clock, sleep=sleep)
    updates = []

    def on_deadline(match_id: int):
        async def fire() -> None:
            updates.append(await service.deadline_due(match_id))
        return fire

    open_matches = await service.open_matches()  # what a restarted bot re-arms
    assert [(m.id, m.deadline_kind) for m in open_matches] == [(challenge.id, "challenge"), (match.id, "arrange")]
    tasks = [timers.arm(m.id, m.deadline_at, on_deadline(m.id)) for m in open_matches]
    await asyncio.gather(*tasks)
    kinds = sorted(next(iter(u.changes & {"expired", "timeout"})) for u in updates)
    assert kinds == ["expired", "timeout"]
    assert (await service.get_match(challenge.id)).status == "cancelled"
    assert (await service.get_match(match.id)).step == 2


# --- restarts, what the Discord side may show, and the rules it asks for -----------------------------------------

async def test_deadlines_that_passed_while_the_bot_was_away_move_on(service, clock):
    overdue = await start_match(service, arrange_seconds=60)
    later = await start_match(service, CAROL, DAVE, arrange_seconds=600)
    waiting = (await service.challenge(GUILD, CHANNEL, 500, 600)).match
    clock.advance(CHALLENGE_SECONDS + 1)  # the bot was away for a while: two deadlines passed
    before = await table_dump(service.db)

    updates = await service.resume_deadlines()
    [update] = updates
    assert update.match.id == overdue.id and update.match.deadline_at == clock() + 60
    assert update.changes == {"deadline"} and update.timed_out == ()
    assert [q.event for q in update.events] == [
        {"type": "deadline_moved", "engagement": 1, "deadline_at": clock() + 60, "reason": "bot_away"}]
    assert [s.misses for s in update.match.seats] == [0, 0] and update.match.step == 1
    assert await service.deadline_due(overdue.id) is None  # nobody missed anything
    assert (public_board(*await service.outbox.step_record(overdue.id, 1))).deadline_at == clock() + 60
    assert (await service.get_match(later.id)).deadline_at == later.deadline_at  # not due: untouched
    assert (await service.get_match(waiting.id)).deadline_at == waiting.deadline_at  # a challenge just expires
    assert await service.resume_deadlines() == []  # once
    after = await table_dump(service.db)
    changed = {table for table in before if before[table] != after[table]}
    assert changed == {"matches", "match_events"}

    assert (await service.deadline_due(waiting.id)).match.reason == "expired"
    clock.advance(60)  # the moved deadline counts like any other
    assert (await service.deadline_due(overdue.id)).timed_out == (0, 1)
    assert await consistency(service.db) == []


async def test_the_panel_of_an_engagement_that_is_over_shows_how_it_ended_and_nothing_after(service, clock):
    match = await start_match(service, rules={"stack": 3})
    first = await service.panel(match.id, ALICE)
    assert await service.panel_for(match.id, ALICE, 1) == first  # being arranged: the panel as it stands
    await refused(service, errors.StalePanel, service.panel_for(match.id, ALICE, 2))
    alice_order = reverse(list(first.stack))
    await build_and_confirm(service, match.id, ALICE, reverse)
    bob_stack = list((await service.panel(match.id, BOB)).stack)
    await build_and_confirm(service, match.id, BOB, as_drawn)  # engagement 1 is played

    for user, order in ((ALICE, alice_order), (BOB, bob_stack)):
        panel = await service.panel_for(match.id, user, 1)
        assert (panel.ended, panel.engagement, panel.locked, panel.opponent_locked) == ("played", 1, True, True)
        assert list(panel.draft) == order and panel.remaining == () and panel.deadline_at is None
        assert panel.view["engagement"] == 1 and panel.view["stacks"] == first.view["stacks"]
        assert panel.view["deck_bottoms"] == first.view["deck_bottoms"]  # nothing the flips taught
        assert panel.view["my_order"] == order and panel.view["waiting_for"] == []
    second = await service.panel(match.id, ALICE)
    assert second.engagement == 2 and second.view["stacks"] != first.view["stacks"]

    # engagement 2: bob locks in, alice lets the time run out (as drawn); engagement 3: alice forfeits
    await build_and_confirm(service, match.id, BOB, reverse)
    clock.advance((await service.get_match(match.id)).deadline_at - clock())
    assert (await service.deadline_due(match.id)).timed_out == (0,)
    panel = await service.panel_for(match.id, ALICE, 2)
    assert panel.ended == "as_drawn" and panel.draft == second.stack and panel.view["stacks"] == second.view["stacks"]
    assert (await service.panel_for(match.id, BOB, 2)).ended == "played"
    await build_and_confirm(service, match.id, BOB, reverse)
    await service.forfeit(match.id, ALICE)
    alice, bob = (await service.panel_for(match.id, ALICE, 3)), (await service.panel_for(match.id, BOB, 3))
    assert (alice.ended, alice.draft, alice.finished, alice.opponent_locked) == ("over", (), True, True)
    assert (bob.ended, bob.locked, bob.opponent_locked) == ("over", True, False)


async def test_a_second_missed_deadline_ends_the_panel_as_a_forfeit(service, clock):
    match = await start_match(service)
    clock.advance(200)
    await service.deadline_due(match.id)  # both missed once: as drawn
    await build_and_confirm(service, match.id, BOB, reverse)
    clock.advance(200)
    assert (await service.deadline_due(match.id)).forfeited == (0,)
    assert (await service.panel_for(match.id, ALICE, 1)).ended == "as_drawn"
    assert (await service.panel_for(match.id, ALICE, 2)).ended == "timeout"
    assert (await service.panel_for(match.id, BOB, 2)).ended == "over"


async def test_nothing_derived_from_flips_shows_before_the_flips_are_shown(service):
    match = await start_match(service)
    for q in await service.outbox.unshown_events(match.id):
        await service.outbox.mark_shown(match.id, q.seq)
    assert (await service.open_panel(match.id, BOB, 1)).engagement == 1
    await play_engagement(service, match.id, (reverse, as_drawn))  # the flips of engagement 1 are queued
    message = f"The flips of engagement 1 are being shown in <#{CHANNEL}> right now; ask again in a moment."
    await refused(service, errors.StillShowing, service.status(ALICE), message)
    await refused(service, errors.StillShowing, service.open_panel(match.id, BOB, 2), message)
    flips = [q for q in await service.outbox.unshown_events(match.id) if q.type == "flip"]
    await service.outbox.mark_shown(match.id, flips[-2].seq)  # all but the last flip shown: still not
    await refused(service, errors.StillShowing, service.status(BOB))
    await service.outbox.mark_shown(match.id, flips[-1].seq)
    assert (await service.status(ALICE)).view["engagement"] == 2
    assert (await service.open_panel(match.id, BOB, 2)).engagement == 2
    await refused(service, errors.StalePanel, service.open_panel(match.id, BOB, 1))
    await service.outbox.set_thread(match.id, 77)
    moved = await service.outbox.move_to_channel(match.id, 88)  # the thread is gone: the match goes on in its channel
    assert moved.thread_id is None and moved.play_channel_id == CHANNEL
    assert moved.messages["in_channel"] == CHANNEL and moved.messages["moved"] == 88
    await service.forfeit(match.id, BOB)
    await refused(service, errors.MatchNotActive, service.open_panel(match.id, BOB, 2))


async def test_the_public_board_of_an_engagement_at_any_event(service, clock):
    match = await start_match(service)
    queued = await service.outbox.events(match.id, step=1)
    start = next(q for q in queued if q.type == "engagement")
    board = public_board(*await service.outbox.step_record(match.id, 1), start.seq)
    assert board.locked == (False, False) and not board.played and board.deadline_at == start.event["deadline_at"]
    assert board.view["seat"] is None and board.view["my_order"] is None
    assert board.view["stacks"] == start.event["stacks"] and board.view["waiting_for"] == [0, 1]
    await build_and_confirm(service, match.id, BOB, reverse)
    locked = next(q for q in await service.outbox.events(match.id, step=1) if q.type == "order_locked")
    assert (public_board(*await service.outbox.step_record(match.id, 1), locked.seq - 1)).locked == (False, False)
    assert (public_board(*await service.outbox.step_record(match.id, 1), locked.seq)).locked == (False, True)
    clock.advance(200)
    await service.deadline_due(match.id)  # alice missed it: played as drawn
    board = public_board(*await service.outbox.step_record(match.id, 1))
    assert board.played and board.timed_out == (0,) and board.locked == (True, True)  # her stack, as drawn
    assert [e["type"] for e in board.events].count("flip") >= 5
    assert all("order" not in e and "cards" not in e for e in board.events if e["type"] == "order_locked")
    assert public_board(*await service.outbox.step_record(match.id, 9)) is None


async def test_the_cogs_questions_before_it_answers(service):
    before = await table_dump(service.db)
    await service.check_challenge(ALICE, BOB)
    await refused(service, errors.CannotChallengeSelf, service.check_challenge(ALICE, ALICE))
    await refused(service, errors.NotInMatch, service.forfeit_target(ALICE), "You're not in an Air War match.")
    challenge = await service.challenge(GUILD, CHANNEL, ALICE, BOB)
    await refused(service, errors.AlreadyInMatch, service.check_challenge(CAROL, BOB), f"<@{BOB}> is already in")
    # a challenge alice sent that is still waiting does not keep her from sending another (the cog withdraws it
    # first); the match service itself still refuses a second open match
    assert await service.sent_challenge(ALICE) == challenge.match.id and await service.sent_challenge(BOB) is None
    await service.check_challenge(ALICE, CAROL)
    await service.check_challenge(ALICE, BOB)
    await service.check_player(ALICE)
    await refused(service, errors.AlreadyInMatch, service.check_player(BOB), "You're already in")
    await refused(service, errors.AlreadyInMatch, service.check_challenge(BOB, CAROL), "You're already in")
    await refused(service, errors.AlreadyInMatch, service.challenge(GUILD, CHANNEL, ALICE, CAROL), "You're already in")
    await refused(service, errors.ChallengeNotStarted, service.forfeit_target(ALICE),
                  f"Your Air War challenge with <@{BOB}> hasn't started yet: withdraw it with the button")
    await refused(service, errors.ChallengeNotStarted, service.forfeit_target(BOB), "decline it")
    await service.accept(challenge.match.id, BOB)
    assert (await service.forfeit_target(BOB)).id == challenge.match.id
    assert await service.sent_challenge(ALICE) is None  # (accepted: a match being played keeps her from another)
    await refused(service, errors.AlreadyInMatch, service.check_challenge(ALICE, CAROL), "You're already in")
    assert before != await table_dump(service.db)


async def test_matches_against_the_bot_that_ended_without_a_message_are_found(service, clock):
    from bot.match.kernel import OPPONENT_OPTION

    bot_id = 999
    against = await service.challenge(GUILD, CHANNEL, ALICE, bot_id, options={OPPONENT_OPTION: {"seat": 1,
                                                                                                "level": "easy"}})
    await service.accept(against.match.id, bot_id)
    await service.forfeit(against.match.id, ALICE)
    people = await start_match(service, ALICE, BOB)
    await service.forfeit(people.id, BOB)
    since = clock() - 60
    assert await service.finished_against_the_bot_without("accuracy", since) == [against.match.id]
    assert await service.finished_against_the_bot_without("accuracy", clock() + 1) == []  # ended before then
    await service.outbox.set_message(against.match.id, "accuracy", 77)
    assert await service.finished_against_the_bot_without("accuracy", since) == []


async def test_a_lobby_of_four_is_rated_by_finishing_place_and_its_result_lists_that_order(service):
    from bot.games.airwar import render_many
    from bot.games.airwar.engine import finishing_places
    from bot.match.ratings import displayed

    players = [ALICE, BOB, CAROL, DAVE]
    lobby = (await service.open_lobby(GUILD, CHANNEL, ALICE, rules={"stack": 3})).match
    for user in players[1:]:
        await service.join(lobby.id, user)
    await service.start(lobby.id, ALICE)
    for _ in range(300):
        match = await service.get_match(lobby.id)
        if match.status != "active":
            break
        view = await service.view(lobby.id)
        for seat, user in enumerate(match.user_ids):
            if view["in_game"][seat] and not view["locked"][seat]:
                await service.as_drawn(lobby.id, user, match.step)
                await service.confirm(lobby.id, user, match.step)
    view = await service.view(lobby.id)
    assert view["phase"] == "over" and len(view["out_order"]) >= 2
    result = next(event.event for event in await service.outbox.events(lobby.id) if event.type == "result")
    places = finishing_places(result["winner"], view["in_game"], view["out_order"], view.get("together", []))
    assert places[view["out_order"][0]] == 4 and sorted(places)[0] == 1  # the first out is last
    assert result["places"] == places  # (the result event says the places the ratings were moved by)
    order = sorted(range(4), key=lambda seat: (places[seat], seat))
    after = [displayed(change["after"]) - displayed(change["before"]) for change in result["ratings"]]
    for better, worse in itertools.pairwise(order):  # a better place gains more; a shared one alike
        assert (after[better] > after[worse] if places[better] < places[worse]
                else after[better] == after[worse]), (places, after, view.get("together"), view["out_order"])
    stored = {record.seat: record for record in await match_results(service.db, lobby.id)}
    assert [stored[seat].rating_after for seat in range(4)] == [change["after"] for change in result["ratings"]]
    # the result lists them in that order, each with its own rating change
    names = ["Ann", "Ben", "Cy", "Dave"]
    text = render_many.result(view, names, ratings=result["ratings"]).text
    listed = [line for line in text.splitlines() if "**" in line and " · " in line and "rating" in line]
    assert [next(name for name in names if f"**{name}**" in line) for line in listed] == [names[s] for s in order]
    for line, seat in zip(listed, order, strict=True):
        assert f"({after[seat]:+d}" in line
        assert line.startswith("🏆" if seat == result["winner"] else
                               f"={places[seat]}." if places.count(places[seat]) > 1 else f"{places[seat]}.")
    assert "Ratings:" not in text and listed[-1].startswith("4. ") and "out first" in listed[-1]
