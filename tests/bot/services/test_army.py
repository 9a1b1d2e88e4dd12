"""ArmyService on a real SQLite file: a whole seeded match against the engine alone, the arrangement draft, missed
deadlines (the default, then a forfeit; both at once a draw), refusals that change nothing, restarts."""

from __future__ import annotations

import json

import pytest

from bot.cards import card_label
from bot.games.army.engine import Army, fighting_value
from bot.games.army.flow import (
    ARRANGE_STEP,
    GAME,
    AlreadyChosen,
    ArmyDraftError,
    StaleStep,
    WrongPhase,
    lowest_card,
)
from bot.i18n import texts
from bot.match import errors
from bot.match.kernel import MatchKernel
from bot.replay import replay
from bot.storage.diagnostics import check_consistency
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language
from tests.bot.services.support import ALICE, BOB, CAROL, CHANNEL, GUILD, SEED, forfeit_mine, open_database
from tests.records import leaderboard_page, match_results

TIMER = 60


@pytest.fixture
async def open_army(clock, databases):
    services = []

    async def open_(path, **options):
        database = await open_database(path, databases)
        service = MatchKernel(database, game=GAME, clock=options.pop("clock", clock),
                               seed_source=lambda: options.get("seed", SEED))
        services.append(service)
        return service

    yield open_
    for service in services:
        await service.db.close()


@pytest.fixture
async def army(tmp_path, open_army):
    return await open_army(tmp_path / "army.db")


async def start(service: MatchKernel, *, rules=None, timer=TIMER):
    update = await service.challenge(GUILD, CHANNEL, ALICE, BOB, game=GAME, rules=rules, arrange_seconds=timer)
    return (await service.accept(update.match.id, BOB)).match


def strongest(hand: list[str]) -> str:
    """A simple policy: the highest card, reds first on equal numbers."""
    return max(hand, key=lambda card: (fighting_value(card), card[-1] in "DH"))


def weakest_black(hand: list[str]) -> str:
    blacks = [card for card in hand if card[-1] in "CS"]
    return min(blacks or hand, key=fighting_value)


async def arrange(service: MatchKernel, match_id: int, user_id: int, order) -> None:
    panel = await service.panel(match_id, user_id)
    for army in order(list(panel.dealt)):
        await service.tap(match_id, user_id, ARRANGE_STEP, army)
    await service.confirm(match_id, user_id, ARRANGE_STEP)


async def test_a_seeded_match_plays_to_the_end_like_the_engine_alone(army):
    match = await start(army, rules={"max_rounds": 40})
    assert match.status == "active" and match.step == ARRANGE_STEP and match.deadline_kind == "turn"
    assert match.deadline_at == army.clock() + TIMER
    await arrange(army, match.id, ALICE, lambda dealt: list(reversed(dealt)))
    await arrange(army, match.id, BOB, list)
    moves: list[dict] = []
    policies = {ALICE: strongest, BOB: weakest_black}
    while (match := await army.get_match(match.id)).status == "active":
        step = match.step
        cards = []
        for user_id in (ALICE, BOB):
            panel = await army.panel(match.id, user_id)
            assert panel.phase == "play" and panel.step == step and not panel.locked
            card = policies[user_id](list(panel.hand))
            cards.append(card)
            update = await army.pick(match.id, user_id, step, card)
        moves.append({"plays": cards})
    # the engine alone, same seed, same choices
    game = Army.new({"max_rounds": 40}, seed=SEED)
    dealt = [list(a["army"] for a in game.view(s)["you"]["armies"]) for s in (0, 1)]
    game.apply_move({"armies": [list(reversed(dealt[0])), dealt[1]]})
    for move in moves:
        game.apply_move(move)
    assert game.is_over
    assert match.status == "finished" and match.result["winner"] == game.outcome.winner
    assert match.result["reason"] == game.outcome.reason
    assert match.result["winner_id"] == (ALICE, BOB)[game.outcome.winner]
    assert update.finished
    # each round's reveal is queued with its step; the result once, ratings and the board
    queued = await army.outbox.events(match.id)
    reveals = [q for q in queued if q.type == "reveal"]
    assert [q.event["round"] for q in reveals] == list(range(1, len(moves) + 1))
    assert all(q.step == q.event["round"] + 1 for q in reveals)
    assert [q.type for q in queued].count("result") == 1
    rows = await match_results(army.db, match.id)
    assert sorted((r.user_id, r.outcome) for r in rows) == sorted(
        [((ALICE, BOB)[game.outcome.winner], "win"), ((ALICE, BOB)[1 - game.outcome.winner], "loss")])
    board = await leaderboard_page(army.db, GUILD, GAME, min_games=1)
    assert {row.user_id for row in board.rows} == {ALICE, BOB}
    assert (await leaderboard_page(army.db, GUILD, "airwar", min_games=1)).rows == ()
    # the match file replays to the same end
    exported = await army.export(match.id)
    assert exported["moves"][0] == {"armies": [list(reversed(dealt[0])), dealt[1]]}
    last = list(replay(json.loads(json.dumps(exported))))[-1]
    assert (last["winner"], last["reason"]) == (game.outcome.winner, game.outcome.reason)
    async with army.db.read() as conn:
        assert await check_consistency(conn) == []


async def test_the_army_draft_tap_undo_reset_as_dealt_confirm(army):
    match = await start(army)
    panel = await army.panel(match.id, ALICE)
    dealt = list(panel.dealt)
    assert panel.phase == "arrange" and panel.draft == () and len(dealt) == 3 and len(panel.hand) == 5
    await army.tap(match.id, ALICE, 1, dealt[2])
    assert (await army.panel(match.id, ALICE)).draft == (dealt[2],)
    with pytest.raises(ArmyDraftError, match="already placed"):
        await army.tap(match.id, ALICE, 1, dealt[2])
    with pytest.raises(ArmyDraftError, match="Place all 3 armies"):
        await army.confirm(match.id, ALICE, 1)
    await army.undo(match.id, ALICE, 1)
    assert (await army.panel(match.id, ALICE)).draft == ()
    await army.as_drawn(match.id, ALICE, 1)
    await army.reset(match.id, ALICE, 1)
    assert (await army.panel(match.id, ALICE)).draft == ()
    other = (await army.panel(match.id, BOB)).dealt[0]
    with pytest.raises(ArmyDraftError, match="not one of your armies"):
        await army.tap(match.id, ALICE, 1, other)
    for card in reversed(dealt):
        await army.tap(match.id, ALICE, 1, card)
    update = await army.confirm(match.id, ALICE, 1)
    assert [q.type for q in update.events] == ["chosen"]
    assert update.events[0].event == {"type": "chosen", "seat": 0, "phase": "arrange", "engagement": 1}
    mine = await army.panel(match.id, ALICE)
    assert mine.locked and mine.draft == tuple(reversed(dealt)) and not mine.opponent_locked
    assert (await army.panel(match.id, BOB)).opponent_locked
    with pytest.raises(AlreadyChosen):
        await army.tap(match.id, ALICE, 1, dealt[0])
    with pytest.raises(WrongPhase):
        await army.pick(match.id, ALICE, 1, mine.hand[0])
    update = await army.as_drawn(match.id, BOB, 1)
    update = await army.confirm(match.id, BOB, 1)
    assert [q.type for q in update.events] == ["chosen", "armies_set", "turn"]
    turn = update.events[-1].event
    assert turn["phase"] == "play" and turn["round"] == 1 and update.match.step == 2
    assert turn["players"][0]["front"]["army"] == dealt[2]
    # a hidden army or a hand is in no event
    text = json.dumps([q.event for q in await army.outbox.events(match.id)])
    for hidden in (dealt[0], dealt[1], *mine.hand, *(await army.panel(match.id, BOB)).hand):
        assert f'"{hidden}"' not in text


async def test_refusals_change_nothing(army):
    match = await start(army)
    with pytest.raises(errors.NotYourMatch):
        await army.tap(match.id, CAROL, 1, "AS")
    with pytest.raises(StaleStep, match="round 1"):
        await army.as_drawn(match.id, ALICE, 2)
    with pytest.raises(errors.AlreadyInMatch):
        await army.challenge(GUILD, CHANNEL, CAROL, ALICE, game=GAME)
    await army.check_challenge(CAROL, ALICE, "airwar")  # another game: free
    for user_id in (ALICE, BOB):
        await army.as_drawn(match.id, user_id, 1)
        await army.confirm(match.id, user_id, 1)
    before = await army.outbox.events(match.id)
    panel = await army.panel(match.id, ALICE)
    with pytest.raises(ArmyDraftError, match="not in your hand"):
        await army.pick(match.id, ALICE, 2, (await army.panel(match.id, BOB)).hand[0])
    with pytest.raises(StaleStep, match="the army order, which is over"):
        await army.confirm(match.id, ALICE, 1)
    with pytest.raises(ArmyDraftError, match="ZZ is not in your hand"):
        await army.pick(match.id, ALICE, 2, "ZZ")
    await army.pick(match.id, ALICE, 2, panel.hand[0])
    with pytest.raises(AlreadyChosen, match="round 1"):
        await army.pick(match.id, ALICE, 2, panel.hand[1])
    after = await army.outbox.events(match.id)
    assert len(after) == len(before) + 1 and after[-1].event["type"] == "chosen"
    assert (await army.panel(match.id, ALICE)).chosen == panel.hand[0]
    with pytest.raises(errors.UnsupportedGame):
        await army.challenge(GUILD, CHANNEL, CAROL, 400, game="airwar")


async def test_a_missed_deadline_plays_the_default_and_two_in_a_row_forfeit(army, clock):
    match = await start(army)
    assert await army.deadline_due(match.id) is None  # not due yet
    await army.tap(match.id, BOB, 1, (await army.panel(match.id, BOB)).dealt[1])  # a draft is not a choice
    dealt = {user: (await army.panel(match.id, user)).dealt for user in (ALICE, BOB)}
    await army.as_drawn(match.id, ALICE, 1)
    await army.confirm(match.id, ALICE, 1)
    clock.advance(TIMER)
    update = await army.deadline_due(match.id)
    assert update is not None and update.timed_out == (1,)
    timeout = next(q.event for q in update.events if q.type == "turn_timeout")
    assert timeout["seats"] == [1] and timeout["defaults"] == [1] and timeout["misses"] == [0, 1]
    assert timeout["forfeit"] == []
    # the armies as dealt, not the draft
    assert (await army.panel(match.id, BOB)).dealt == dealt[BOB]
    assert update.match.step == 2 and update.match.seats[1].misses == 1
    assert await army.deadline_due(match.id) is None  # idempotent: the new deadline is not due
    ended = await army.panel_for(match.id, BOB, 1)
    assert ended.ended == "default" and ended.draft == dealt[BOB]
    assert (await army.panel_for(match.id, ALICE, 1)).ended == "played"

    # round 1: Bob misses again, the second in a row: he forfeits (nothing of the round is played)
    alice_hand = (await army.panel(match.id, ALICE)).hand
    await army.pick(match.id, ALICE, 2, alice_hand[0])
    clock.advance(TIMER)
    update = await army.deadline_due(match.id)
    timeout = next(q.event for q in update.events if q.type == "turn_timeout")
    assert timeout["forfeit"] == [1] and timeout["defaults"] == []
    assert update.finished and update.match.result["winner_id"] == ALICE
    assert update.match.reason == "timeout"
    assert not [q for q in update.events if q.type == "reveal"]  # Alice's card stays hers
    assert alice_hand[0] not in json.dumps([q.event for q in await army.outbox.events(match.id)])
    assert (await army.panel_for(match.id, BOB, 2)).ended == "timeout"
    exported = await army.export(match.id)
    assert exported["moves"][-1] == {"forfeit": 1, "reason": "timeout"}
    last = list(replay(exported))[-1]
    assert last["winner"] == 0 and last["reason"] == "timeout"


async def test_a_default_card_is_the_lowest_and_choosing_resets_the_misses(army, clock):
    match = await start(army)
    clock.advance(TIMER)
    update = await army.deadline_due(match.id)  # both miss the arrangement: both as dealt
    timeout = update.events[0].event
    assert timeout["seats"] == [0, 1] and timeout["defaults"] == [0, 1]
    assert update.match.step == 2 and [seat.misses for seat in update.match.seats] == [1, 1]
    for user_id in (ALICE, BOB):  # a choice: back to no misses
        await army.pick(match.id, user_id, 2, (await army.panel(match.id, user_id)).hand[0])
    assert [seat.misses for seat in (await army.get_match(match.id)).seats] == [0, 0]
    bob_hand = list((await army.panel(match.id, BOB)).hand)
    await army.pick(match.id, ALICE, 3, (await army.panel(match.id, ALICE)).hand[0])
    clock.advance(TIMER)
    update = await army.deadline_due(match.id)
    assert [q.type for q in update.events][:3] == ["turn_timeout", "chosen", "reveal"]
    reveal = update.events[2].event
    assert reveal["cards"][1] == min(bob_hand, key=fighting_value) == lowest_card(bob_hand)
    assert [seat.misses for seat in update.match.seats] == [0, 1]
    assert (await army.panel_for(match.id, BOB, 3)).chosen == reveal["cards"][1]


async def test_both_missing_twice_is_a_draw(army, clock):
    match = await start(army)
    clock.advance(TIMER)
    await army.deadline_due(match.id)
    clock.advance(TIMER)
    update = await army.deadline_due(match.id)
    assert update.finished and update.match.result["winner"] is None
    assert update.match.reason == "double_timeout"
    assert sorted(r.outcome for r in await match_results(army.db, match.id)) == ["draw", "draw"]
    assert (await army.export(match.id))["moves"][-1] == {"draw": "double_timeout"}


async def test_a_restart_moves_overdue_deadlines_and_air_war_leaves_army_alone(tmp_path, open_army, clock):
    path = tmp_path / "army.db"
    first = await open_army(path)
    match = await start(first)
    await first.db.close()
    clock.advance(TIMER * 3)  # the bot was away
    again = await open_army(path)
    airwar = MatchKernel(again.db, game="airwar", clock=clock)
    assert await airwar.resume_deadlines() == []
    assert await airwar.deadline_due(match.id) is None  # Air War's timer would time out nothing of Army
    assert (await again.get_match(match.id)).step == ARRANGE_STEP
    moved = await again.resume_deadlines()
    assert len(moved) == 1 and moved[0].match.deadline_at == clock() + TIMER
    assert moved[0].events[0].event["type"] == "deadline_moved"
    assert [m.id for m in await again.open_matches()] == [match.id]
    assert await again.outbox.matches_with_unshown_events() == [match.id]
    # it goes on from the stored state
    for user_id in (ALICE, BOB):
        await again.as_drawn(match.id, user_id, 1)
        await again.confirm(match.id, user_id, 1)
    assert (await again.get_match(match.id)).step == 2


async def test_forfeit_and_status(army):
    update = await army.challenge(GUILD, CHANNEL, ALICE, BOB, game=GAME)
    status = await army.status(BOB, GAME)
    assert status.view is None and status.seat == 1
    with pytest.raises(errors.ChallengeNotStarted):
        await army.forfeit_target(ALICE, GAME)
    await army.accept(update.match.id, BOB)
    status = await army.status(ALICE, GAME)
    assert status.panel.phase == "arrange" and len(status.view["you"]["hand"]) == 5
    with pytest.raises(errors.NotInMatch):
        await army.status(CAROL, GAME)
    result = await forfeit_mine(army, ALICE, GAME)
    assert result.finished and result.match.result["winner_id"] == BOB and result.match.reason == "forfeit"
    game_over = next(q.event for q in result.events if q.type == "game_over")
    assert game_over["front"] == [None, None]  # nothing hidden was shown


async def test_every_refusal_of_a_panel_is_said_in_the_players_language(army):
    """The draft's refusals (the kernel's own "already placed" among them), a stale panel, a choice made already,
    the other phase's button: each in the player's language, the catalogue's words with the cards filled in."""
    de, ru = texts("de"), texts("ru")
    match = await start(army)
    dealt = list((await army.panel(match.id, ALICE)).dealt)
    other = (await army.panel(match.id, BOB)).dealt[0]
    await army.tap(match.id, ALICE, 1, dealt[0])
    refusals = []
    for call in (lambda: army.tap(match.id, ALICE, 1, dealt[0]), lambda: army.tap(match.id, ALICE, 1, other),
                 lambda: army.confirm(match.id, ALICE, 1), lambda: army.pick(match.id, ALICE, 1, "5H"),
                 lambda: army.as_drawn(match.id, ALICE, 2)):
        with pytest.raises(errors.ServiceError) as raised:
            await call()
        refusals.append(raised.value)
    placed, not_yours, incomplete, phase, stale = refusals
    assert placed.said(de) == de("{item} is already placed.", item=card_label(dealt[0]))
    assert not_yours.said(ru) == ru("{army} is not one of your armies.", army=card_label(other))
    assert incomplete.said(de) == de("Place all 3 armies before you confirm ({placed} placed so far).", placed=1)
    assert phase.said(ru) == ru("Set the order of your armies first; the fighting starts when both have.")
    assert stale.said(de).startswith("Dieses Panel gehört zu Runde 1")
    for refusal in refusals:
        assert refusal.said(de) != str(refusal) and refusal.said(ru) != str(refusal)
    with pseudo_language():
        for refusal in refusals:
            assert english_left(refusal.said(texts(PSEUDO)), [card_label(dealt[0]), card_label(other)]) == []
