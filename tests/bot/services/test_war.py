"""The match kernel playing War on a real SQLite file: challenges and lobbies, the three paces, AFK, votes, caps,
results, resume."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.errors import InvalidRules
from bot.games.war.engine import War
from bot.games.war.flow import FLIP, NotInWarGame, WarGameNotActive, card_history, pause_after
from bot.match import errors
from bot.match.errors import AlreadyOut, NotStartedYet
from bot.match.kernel import LOBBY_IDLE_SECONDS, MatchKernel
from bot.match.ratings import places_by_count
from bot.storage.diagnostics import check_consistency
from tests.bot.services.support import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    SEED,
    forfeit_mine,
    open_database,
    start_match,
)
from tests.records import match_results, rating_of

DAVE = 400
ERIN = 500
SMALL = {"pack": 32, "max_rounds": 30}


@pytest.fixture
async def war(tmp_path, clock, databases):
    database = await open_database(tmp_path / "war.db", databases)
    service = MatchKernel(database, game="war", clock=clock, seed_source=lambda: SEED, draft_rng=random.Random(7))
    yield service
    await database.close()


async def challenge(war: MatchKernel, pace: str = "auto", rules=None, **options):
    update = await war.challenge(GUILD, CHANNEL, ALICE, BOB, rules=rules if rules is not None else SMALL, pace=pace,
                                 **options)
    return update.match


async def drive_auto(war: MatchKernel, match_id: int) -> None:
    while True:
        match = await war.get_match(match_id)
        if match.status != "active":
            return
        assert match.deadline_kind == "round"
        update = await war.auto_step(match_id, match.step + 1)
        assert update is not None


def reference(rules, seed: int = SEED) -> War:
    game = War.new(War.resolve_rules({**rules, "players": rules.get("players", 2)}), seed=seed)
    game.play_out()
    return game


async def test_challenge_auto_plays_like_the_engine_and_records_once(war):
    match = await challenge(war)
    assert match.options["pace"] == "auto" and match.status == "challenge"
    update = await war.accept(match.id, BOB)
    assert update.match.status == "active" and update.match.deadline_kind == "round"
    # a stale or repeated round does nothing
    assert await war.auto_step(match.id, 5) is None
    await drive_auto(war, match.id)
    final = await war.get_match(match.id)
    expected = reference(SMALL)
    assert final.status == "finished"
    assert final.result["winner"] == expected.outcome.winner
    assert final.result["reason"] == expected.outcome.reason
    assert final.step == expected.stats.rounds
    assert (await war.view(match.id))["card_counts"] == expected.view(None)["card_counts"]
    rows = await match_results(war.db, match.id)
    assert sorted(r.user_id for r in rows) == [ALICE, BOB]
    assert (await rating_of(war.db, GUILD, ALICE, "war")).games == 1
    points, every, rounds = card_history(await war.get_match(match.id))
    assert points[0] == [16, 16] and rounds[-1] == expected.stats.rounds
    assert points[-1] == expected.view(None)["card_counts"]
    assert every == 1 and len(points) == expected.stats.rounds + 1
    # each round's events were queued, then a game_over and a result
    types = [q.type for q in await war.outbox.events(match.id)]
    assert types.count("battle") == expected.stats.rounds and types[-2:] == ["game_over", "result"]
    assert await war.auto_step(match.id, final.step + 1) is None
    async with war.db.read() as conn:
        assert await check_consistency(conn) == []


async def test_instant_plays_out_at_accept_and_says_capped(war):
    rules = {"pack": 52, "max_rounds": 7}
    match = await challenge(war, "instant", rules)
    update = await war.accept(match.id, BOB)
    assert update.match.status == "finished" and update.match.reason == "capped"
    types = [q.type for q in update.events]
    assert "played_out" in types and types[-2:] == ["game_over", "result"] and "battle" not in types
    points, _, rounds = card_history(await war.get_match(match.id))
    assert rounds == list(range(8)) and len(points) == 8
    expected = reference(rules)
    assert update.match.result["winner"] == expected.outcome.winner


async def test_history_is_thinned_for_long_games(war):
    rules = {"return_order": "played", "max_rounds": 10_000}  # 1082 rounds with this seed
    match = await challenge(war, "instant", rules)
    await war.accept(match.id, BOB)
    points, every, rounds = card_history(await war.get_match(match.id))
    expected = reference(rules)
    assert expected.stats.rounds > 1000 and len(points) <= 1001 + 1 and every == 2
    assert rounds[-1] == expected.stats.rounds and points[-1] == expected.view(None)["card_counts"]
    assert sum(points[0]) == 52


async def test_flip_pace_resolves_on_the_last_flip_and_afk(war, clock):
    match = await challenge(war, "flip")
    update = await war.accept(match.id, BOB)
    match = update.match
    assert match.deadline_kind == "turn" and match.deadline_at == clock() + 120
    assert [q.type for q in update.events][-1] == "turn"
    update = await war.pick(match.id, ALICE, 1, FLIP)
    assert update.match.step == 0
    with pytest.raises(errors.NotYourTurn):
        await war.pick(match.id, ALICE, 1, FLIP)
    with pytest.raises(errors.StaleRound):
        await war.pick(match.id, BOB, 2, FLIP)
    with pytest.raises(errors.NotYourMatch):
        await war.pick(match.id, CAROL, 1, FLIP)
    update = await war.pick(match.id, BOB, 1, FLIP)
    assert update.match.step == 1
    # round 2: Bob flips, Alice misses: flipped for; round 3: she misses again: she forfeits
    await war.pick(match.id, BOB, 2, FLIP)
    assert await war.step_timeout(match.id, 2) is None  # not due yet
    clock.advance(121)
    update = await war.deadline_due(match.id)
    timeout = next(q.event for q in update.events if q.type == "turn_timeout")
    assert timeout["auto_flipped"] == [0] and timeout["forfeit"] == []
    assert update.match.step == 2 and update.match.seats[0].misses == 1
    await war.pick(match.id, BOB, 3, FLIP)
    clock.advance(121)
    update = await war.deadline_due(match.id)
    assert update.match.status == "finished"
    assert update.match.result["winner"] == 1 and update.match.reason == "timeout"


async def test_everyone_missing_twice_is_a_draw(war, clock):
    match = await challenge(war, "flip")
    await war.accept(match.id, BOB)
    clock.advance(121)
    update = await war.deadline_due(match.id)
    assert sorted(next(q.event for q in update.events if q.type == "turn_timeout")["auto_flipped"]) == [0, 1]
    clock.advance(121)
    update = await war.deadline_due(match.id)
    assert update.match.status == "finished" and update.match.reason == "double_timeout"
    assert update.match.result["winner"] is None


async def test_vote_needs_everyone_still_in(war):
    match = await challenge(war, "flip")
    await war.accept(match.id, BOB)
    update = await war.vote(match.id, ALICE, "auto")
    assert update.match.options["pace"] == "flip" and update.match.options["votes"] == {"auto": [ALICE]}
    update = await war.vote(match.id, ALICE, "auto")  # a second click takes it back
    assert update.match.options["votes"] == {}
    await war.vote(match.id, ALICE, "instant")
    update = await war.vote(match.id, BOB, "auto")  # both want at least auto
    assert update.match.options["pace"] == "auto" and update.match.deadline_kind == "round"
    with pytest.raises(errors.VoteError):
        await war.vote(match.id, BOB, "auto")
    await war.vote(match.id, ALICE, "instant")
    update = await war.vote(match.id, BOB, "instant")
    assert update.match.status == "finished"
    assert [q.type for q in update.events][-2:] == ["game_over", "result"]


async def test_lobby_join_leave_start_four_players(war, clock):
    update = await war.open_lobby(GUILD, CHANNEL, ALICE, rules={"max_rounds": 40}, pace="auto")
    lobby = update.match
    assert lobby.options["lobby"] and lobby.deadline_at == clock() + LOBBY_IDLE_SECONDS
    with pytest.raises(errors.LobbyError):
        await war.start(lobby.id, ALICE)  # alone
    with pytest.raises(errors.LobbyError):
        await war.accept(lobby.id, ALICE)
    for user in (BOB, CAROL, DAVE):
        clock.advance(60)
        update = await war.join(lobby.id, user)
    assert update.match.user_ids == (ALICE, BOB, CAROL, DAVE)
    assert update.match.deadline_at == clock() + LOBBY_IDLE_SECONDS
    with pytest.raises(errors.LobbyError):
        await war.join(lobby.id, ERIN)  # full
    with pytest.raises(errors.LobbyError):
        await war.join(lobby.id, BOB)  # in it
    update = await war.leave(lobby.id, BOB)
    assert update.match.user_ids == (ALICE, CAROL, DAVE)
    with pytest.raises(errors.LobbyError):
        await war.leave(lobby.id, ALICE)  # the host cancels instead
    with pytest.raises(errors.LobbyError):
        await war.start(lobby.id, CAROL)
    await war.join(lobby.id, ERIN)
    update = await war.start(lobby.id, ALICE)
    assert update.match.status == "active" and update.match.rules["players"] == 4
    await drive_auto(war, lobby.id)
    final = await war.get_match(lobby.id)
    expected = reference({"max_rounds": 40, "players": 4})
    assert final.result["winner"] == expected.outcome.winner and final.result["reason"] == expected.outcome.reason
    results = {record.seat: record for record in await match_results(war.db, lobby.id)}
    assert len(results) == 4
    # rated by place: the winner, then the others by the cards they ended with (as many: the same change)
    counts = expected.view(None)["card_counts"]
    places = places_by_count(expected.outcome.winner, counts)
    gain = {seat: record.rating_after - record.rating_before for seat, record in results.items()}
    for better, worse in itertools.permutations(range(4), 2):
        if places[better] < places[worse]:
            assert gain[better] > gain[worse], (places, gain)
        elif places[better] == places[worse]:
            assert gain[better] == pytest.approx(gain[worse]), (places, gain)
    async with war.db.read() as conn:  # (the checks still expect two seats per match)
        assert await check_consistency(conn) == []


async def test_lobby_refusals_and_expiry(war, clock):
    update = await war.open_lobby(GUILD, CHANNEL, ALICE, game="war", rules={"jokers": 2, "joker_each": True})
    lobby = update.match
    await war.join(lobby.id, BOB)
    with pytest.raises(errors.LobbyError, match="its rules can be played by at most 2 players"):
        await war.join(lobby.id, CAROL)  # two jokers go evenly to two players only
    assert (await war.get_match(lobby.id)).user_ids == (ALICE, BOB)
    with pytest.raises(errors.AlreadyInMatch):
        await war.open_lobby(GUILD, CHANNEL, BOB)
    with pytest.raises(errors.AlreadyInMatch):  # the whole War family
        await war.challenge(GUILD, CHANNEL, DAVE, BOB, game="drunkard")
    clock.advance(LOBBY_IDLE_SECONDS + 1)
    with pytest.raises(errors.LobbyError):
        await war.join(lobby.id, DAVE)
    update = await war.deadline_due(lobby.id)
    assert update.match.status == "cancelled" and update.match.reason == "expired"
    await war.open_lobby(GUILD, CHANNEL, BOB, game="todundleben")  # free again


async def test_bad_rules_and_paces_are_refused(war):
    with pytest.raises(InvalidRules):
        await war.challenge(GUILD, CHANNEL, ALICE, BOB, rules={"joker_each": True})
    with pytest.raises(errors.InvalidSetting):
        await war.challenge(GUILD, CHANNEL, ALICE, BOB, pace="slow")
    with pytest.raises(errors.CannotChallengeSelf):
        await war.challenge(GUILD, CHANNEL, ALICE, ALICE)
    with pytest.raises(errors.UnsupportedGame):
        await war.challenge(GUILD, CHANNEL, ALICE, BOB, game="airwar")


async def test_forfeit_with_three_players_goes_on(war):
    update = await war.open_lobby(GUILD, CHANNEL, ALICE, rules={"max_rounds": 50}, pace="flip")
    lobby = update.match
    await war.join(lobby.id, BOB)
    await war.join(lobby.id, CAROL)
    await war.start(lobby.id, ALICE)
    await war.pick(lobby.id, ALICE, 1, FLIP)
    update = await forfeit_mine(war, CAROL)
    assert update.match.status == "active"
    view = await war.view(lobby.id)
    assert view["in_game"] == [True, True, False]
    update = await forfeit_mine(war, BOB)
    assert update.match.status == "finished" and update.match.result["winner"] == 0


async def test_air_war_service_ignores_war_matches_and_war_resumes_turns(war, clock, tmp_path):
    airwar = MatchKernel(war.db, game="airwar", clock=clock, seed_source=lambda: SEED)
    air = await start_match(airwar, CAROL, DAVE)
    match = await challenge(war, "flip")
    await war.accept(match.id, BOB)
    assert [m.id for m in await airwar.open_matches()] == [air.id]
    assert match.id not in await airwar.outbox.matches_with_unshown_events()
    assert [m.id for m in await war.open_matches()] == [match.id]
    assert await war.outbox.matches_with_unshown_events() == [match.id]
    clock.advance(1000)
    moved = await war.resume_deadlines()
    assert [u.match.id for u in moved] == [match.id]
    assert moved[0].match.deadline_at == clock() + 120
    assert all(u.match.id == air.id for u in await airwar.resume_deadlines())


async def test_restart_continues_auto_from_stored_state(war, tmp_path, clock, databases):
    match = await challenge(war, "auto")
    await war.accept(match.id, BOB)
    update = await war.auto_step(match.id, 1)  # one run of rounds
    played = update.match.step
    await war.db.close()
    restarted = MatchKernel(await open_database(tmp_path / "war.db", databases), game="war", clock=clock,
                            seed_source=lambda: SEED, draft_rng=random.Random(7))
    try:
        [again] = await restarted.open_matches()
        assert again.step == played and again.deadline_kind == "round"
        shown = War.new(War.resolve_rules({**SMALL, "players": 2}), seed=SEED)
        for _ in range(played):
            shown.play_round()
        assert again.deadline_at == clock() + pause_after(shown)
        await drive_auto(restarted, match.id)
        assert (await restarted.get_match(match.id)).result["winner"] == reference(SMALL).outcome.winner
    finally:
        await restarted.db.close()


async def test_lobby_rules_are_checked_for_the_players_who_can_play_them(war):
    # a target of 20 cards needs three players or more (two start with 26 each)
    with pytest.raises(InvalidRules):
        await war.challenge(GUILD, CHANNEL, ALICE, BOB, rules={"target": 20})
    lobby = (await war.open_lobby(GUILD, CHANNEL, ALICE, rules={"target": 20})).match
    await war.join(lobby.id, BOB)
    with pytest.raises(errors.LobbyError) as refused:
        await war.start(lobby.id, ALICE)
    assert "can't be played by 2 players" in str(refused.value) and "by 3 or 4 players" in str(refused.value)
    assert (await war.get_match(lobby.id)).status == "challenge"
    await war.join(lobby.id, CAROL)
    update = await war.start(lobby.id, ALICE)
    assert update.match.status == "active" and update.match.rules["players"] == 3
    # two jokers each way with two decks: two or four players, not three
    lobby = (await war.open_lobby(GUILD, CHANNEL, DAVE, rules={"jokers": 2, "joker_each": True, "decks": 2})).match
    assert war.playable_counts("war", lobby.rules) == [2, 4]
    await war.join(lobby.id, ERIN)
    await war.join(lobby.id, 600)
    with pytest.raises(errors.LobbyError, match=r"by 2 or 4 players: wait for someone to join or ask someone"):
        await war.start(lobby.id, DAVE)
    await war.join(lobby.id, 700)
    assert (await war.start(lobby.id, DAVE)).match.rules["players"] == 4
    with pytest.raises(InvalidRules):  # nobody can play it
        await war.open_lobby(GUILD, CHANNEL, 800, rules={"target": 200})


async def test_forfeit_refusals_in_the_projects_words(war):
    with pytest.raises(NotInWarGame, match="You're not in a game of War, Drunkard, Tod und Leben or Double War"):
        await war.forfeit_target(ALICE)
    match = await challenge(war)
    with pytest.raises(NotStartedYet, match="withdraw it"):
        await war.forfeit_target(ALICE)
    with pytest.raises(NotStartedYet, match="decline it"):
        await war.forfeit_target(BOB)
    await war.withdraw(match.id, ALICE)
    lobby = (await war.open_lobby(GUILD, CHANNEL, ALICE, rules={"max_rounds": 50}, pace="flip")).match
    await war.join(lobby.id, BOB)
    await war.join(lobby.id, CAROL)
    with pytest.raises(NotStartedYet, match="Cancel it"):
        await war.forfeit_target(ALICE)
    with pytest.raises(NotStartedYet, match="Leave it"):
        await war.forfeit_target(CAROL)
    await war.start(lobby.id, ALICE)
    assert (await war.forfeit_target(CAROL)).id == lobby.id
    await war.check_forfeit(lobby.id, CAROL)  # asks, changes nothing
    assert (await war.view(lobby.id))["in_game"] == [True, True, True]
    await war.forfeit(lobby.id, CAROL)
    before = len(await war.outbox.events(lobby.id))
    for refused in (war.forfeit_target(CAROL), war.check_forfeit(lobby.id, CAROL), war.forfeit(lobby.id, CAROL),
                    war.pick(lobby.id, CAROL, 1, FLIP), war.vote(lobby.id, CAROL, "auto")):
        with pytest.raises(AlreadyOut) as error:
            await refused
        assert str(error.value).startswith("You're out of this game already") and "seat" not in str(error.value)
    assert len(await war.outbox.events(lobby.id)) == before
    with pytest.raises(errors.NotYourMatch):
        await war.forfeit(lobby.id, DAVE)
    update = await war.forfeit(lobby.id, BOB)
    assert update.match.status == "finished" and update.match.result["winner"] == 0
    # a question answered after the end
    for refused in (war.forfeit(lobby.id, ALICE), war.check_forfeit(lobby.id, ALICE),
                    war.pick(lobby.id, ALICE, 1, FLIP), war.vote(lobby.id, ALICE, "auto")):
        with pytest.raises(WarGameNotActive, match="This game is over already; nothing changed"):
            await refused
    assert len(await match_results(war.db, lobby.id)) == 3
    async with war.db.read() as conn:
        assert await check_consistency(conn) == []


async def test_status_of_a_challenge_and_a_game(war):
    with pytest.raises(NotInWarGame):
        await war.status(ALICE)
    match = await challenge(war, "flip")
    status = await war.status(BOB)
    assert (status.match.id, status.seat, status.view) == (match.id, 1, None)
    await war.accept(match.id, BOB)
    await war.pick(match.id, ALICE, 1, FLIP)
    status = await war.status(ALICE)
    assert status.seat == 0 and status.view["card_counts"] == [15, 16] and status.view["to_flip"] == [1]
    assert status.view["table"][0] is not None  # her flip is on the table, out of her count
