"""TournamentService on a real SQLite file, its games played by the real War service at instant pace (and Air War's
service for the ready check and the forfeits): signup, check-in, every format to the end, no-shows, best of N,
disqualification, pause / resume / cancel, restart (a new service on the same file), history."""

from __future__ import annotations

import random

import pytest

from bot.i18n import texts
from bot.match.kernel import MatchKernel
from bot.services.tournaments import TournamentRefused, TournamentService, parse_rules
from bot.storage import Database
from bot.storage.diagnostics import check_consistency
from bot.tournaments import Tournament
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language
from tests.bot.services.support import FakeClock, open_database
from tests.records import match_results

GUILD = 1
CHANNEL = 10
ORGANISER = 7
SMALL = {"pack": 32, "max_rounds": 200}


class World:
    def __init__(self, database: Database, clock: FakeClock, seeds: random.Random) -> None:
        self.db = database
        self.clock = clock
        self.war = MatchKernel(database, game="war", clock=clock, seed_source=lambda: seeds.randrange(2**40))
        self.airwar = MatchKernel(database, game="airwar", clock=clock, seed_source=lambda: seeds.randrange(2**40))
        self.service = self.make_service()

    def make_service(self) -> TournamentService:
        def services(game: str):
            return self.airwar if game == "airwar" else self.war

        return TournamentService(self.db, services, clock=self.clock, seed_source=lambda: 99)


@pytest.fixture
async def world(tmp_path, databases):
    database = await open_database(tmp_path / "t.db", databases)
    yield World(database, FakeClock(), random.Random(5))
    await database.close()


async def create(world: World, format: str, players: int, *, no_show: int = 0, best_of: int = 1, **options):
    update = await world.service.create(GUILD, CHANNEL, ORGANISER, "Cup", options.pop("game", "war"), format,
                                        rules=options.pop("rules", SMALL), no_show=no_show, best_of=best_of,
                                        pace=options.pop("pace", "instant"), **options)
    tid = update.tournament.id
    for user in range(1, players + 1):
        await world.service.join(tid, 1000 + user, f"p{user}")
    return tid


async def drive(world: World, tid: int, limit: int = 500) -> None:
    """Reconcile until the tournament is over (instant games end inside accept)."""
    for _ in range(limit):
        tournament = await world.service.get(tid)
        if not tournament.is_open:
            return
        await world.service.reconcile()
    raise AssertionError("the tournament did not end")


@pytest.mark.parametrize(("format", "players", "matches"), [
    ("single_elimination", 8, 7), ("round_robin", 5, 10), ("swiss", 6, 9), ("double_elimination", 4, None),
])
async def test_each_format_plays_to_a_champion_with_real_games(world, format, players, matches):
    tid = await create(world, format, players)
    update = await world.service.start(tid, ORGANISER)
    assert update.tournament.status == "running"
    assert update.games and all(game.match.status == "finished" for game in update.games)
    await drive(world, tid)
    tournament = await world.service.get(tid)
    assert tournament.status == "finished"
    bracket = Tournament.from_json(tournament.state)
    assert bracket.is_over and tournament.champion_id == bracket.champion
    games = await world.service.games(tid)
    played = [m for m in bracket.matches() if m.outcome and m.outcome.value in ("win", "draw")]
    if matches is not None:
        assert len(played) == matches
    assert len(games) >= len(played) and all(game.counted for game in games)
    # every game is a real finished match with its results (ratings feed the leaderboard)
    for game in games:
        match = await world.war.get_match(game.match_id)
        assert match.status == "finished" and match.options["tournament"] == tid
        assert len(await match_results(world.war.db, game.match_id)) == 2
    rows = await world.service.bracket_matches(tid)
    assert all(row.status == "decided" for row in rows)
    for row in rows:
        if row.outcome == "series":
            assert bracket.match(row.key).winner == row.winner_id
    async with world.db.read() as conn:
        assert await check_consistency(conn) == []
    history, pages = await world.service.history(GUILD)
    assert [t.id for t in history] == [tid] and pages == 1


async def test_signup_rules_and_refusals(world):
    tid = await create(world, "single_elimination", 0, max_players=2)
    with pytest.raises(TournamentRefused, match="two players"):
        await world.service.start(tid, ORGANISER)
    await world.service.join(tid, 1, "a")
    with pytest.raises(TournamentRefused, match="already"):
        await world.service.join(tid, 1, "a")
    await world.service.join(tid, 2, "b")
    with pytest.raises(TournamentRefused, match="full"):
        await world.service.join(tid, 3, "c")
    await world.service.leave(tid, 2)
    with pytest.raises(TournamentRefused, match="not signed up"):
        await world.service.leave(tid, 2)
    with pytest.raises(TournamentRefused, match="organiser"):
        await world.service.start(tid, 1)
    with pytest.raises(TournamentRefused, match="already runs"):
        await world.service.create(GUILD, CHANNEL, 5, "Other", "war", "swiss")
    for bad in ({"best_of": 2}, {"no_show": -1}, {"rules": {"pack": 3}}, {"pace": "slow"}):
        with pytest.raises(TournamentRefused):
            await world.service.create(GUILD, CHANNEL + 1, 5, "X", "war", "swiss", **bad)
    with pytest.raises(TournamentRefused, match="formats"):
        await world.service.create(GUILD, CHANNEL + 1, 5, "X", "war", "ladder")
    # a manager may start someone else's tournament; one player left: cannot start
    with pytest.raises(TournamentRefused, match="two players"):
        await world.service.start(tid, 99, manager=True)
    assert (await world.service.get(tid)).status == "signup"


async def test_signup_closes_by_itself_and_check_in_leaves_out_who_did_not(world):
    closes = world.clock.now + 300
    tid = await create(world, "round_robin", 4, signup_closes_at=closes, check_in=120)
    assert await world.service.next_due(tid) == closes
    await world.service.tick(tid)
    assert (await world.service.get(tid)).status == "signup"  # not due yet
    world.clock.advance(301)
    update = await world.service.tick(tid)
    assert update.tournament.status == "check_in" and update.next_due == world.clock.now + 120
    await world.service.check_in(tid, 1001)
    await world.service.check_in(tid, 1002)
    await world.service.check_in(tid, 1003)
    with pytest.raises(TournamentRefused, match="already"):
        await world.service.check_in(tid, 1003)
    world.clock.advance(121)
    update = await world.service.tick(tid)
    assert update.tournament.status in ("running", "finished")
    started = next(e for e in update.events if e.type == "started")
    assert sorted(started.event["players"]) == [1001, 1002, 1003] and started.event["left_out"] == [1004]


async def test_no_show_forfeits_and_ready_deals_the_game(world):
    tid = await create(world, "single_elimination", 4, no_show=600)
    update = await world.service.start(tid, ORGANISER)
    calls = [e.event for e in update.events if e.type == "call"]
    assert len(calls) == 2 and all(call["deadline_at"] == world.clock.now + 600 for call in calls)
    first, second = calls
    a, b = first["players"]
    with pytest.raises(TournamentRefused, match="isn't your match"):
        await world.service.ready(tid, first["key"], second["players"][0])
    await world.service.ready(tid, first["key"], a)
    with pytest.raises(TournamentRefused, match="ready already"):
        await world.service.ready(tid, first["key"], a)
    done = await world.service.ready(tid, first["key"], b)
    assert len(done.games) == 1 and done.games[0].match.status == "finished"
    await world.service.reconcile()
    # the second match: only one player presses Ready; the other forfeits at the deadline
    d = second["players"][1]
    await world.service.ready(tid, second["key"], d)
    world.clock.advance(601)
    update = await world.service.tick(tid)
    result = next(e.event for e in update.events if e.type == "result" and e.event["key"] == second["key"])
    assert result["winner"] == d and result["outcome"] == "no_show"
    row = await world.service.bracket_match(tid, second["key"])
    assert row.status == "decided" and row.match_id is None
    # the final is called; nobody shows: the better seed goes through
    final = next(e.event for e in update.events if e.type == "call")
    world.clock.advance(601)
    update = await world.service.tick(tid)
    bracket = await world.service.bracket(tid)
    better = min(final["players"], key=bracket.seed_of)
    assert update.tournament.status == "finished" and update.tournament.champion_id == better


async def test_best_of_three_counts_games_until_two_wins(world):
    tid = await create(world, "single_elimination", 2, best_of=3)
    await world.service.start(tid, ORGANISER)
    await drive(world, tid)
    tournament = await world.service.get(tid)
    (row,) = await world.service.bracket_matches(tid)
    assert max(row.wins) == 2 and sum(row.wins) + row.draws == len(await world.service.games(tid))
    assert tournament.champion_id == row.players[row.wins.index(2)]


async def test_pause_resume_disqualify_cancel(world):
    tid = await create(world, "round_robin", 4, no_show=600)
    update = await world.service.start(tid, ORGANISER)
    key = next(e.event for e in update.events if e.type == "call")["key"]
    paused = await world.service.pause(tid, ORGANISER)
    assert paused.next_due is None
    with pytest.raises(TournamentRefused, match="paused"):
        await world.service.ready(tid, key, (await world.service.bracket_match(tid, key)).players[0])
    world.clock.advance(10_000)
    assert (await world.service.tick(tid)).tournament.status == "paused"  # no no-show while paused
    resumed = await world.service.resume(tid, ORGANISER)
    assert resumed.next_due == world.clock.now + 600
    dq = await world.service.disqualify(tid, ORGANISER, 1001)
    forfeits = [e.event for e in dq.events if e.type == "result" and e.event["outcome"] == "forfeit"]
    assert forfeits and all(1001 in f["players"] and f["winner"] != 1001 for f in forfeits)
    with pytest.raises(TournamentRefused):
        await world.service.disqualify(tid, ORGANISER, 1001)
    with pytest.raises(TournamentRefused, match="organiser"):
        await world.service.cancel(tid, 1002)
    cancelled = await world.service.cancel(tid, ORGANISER)
    assert cancelled.tournament.status == "cancelled" and cancelled.next_due is None
    assert all(row.status == "decided" for row in await world.service.bracket_matches(tid))
    history, _ = await world.service.history(GUILD)
    assert history[0].status == "cancelled"


async def test_disqualifying_a_player_mid_game_forfeits_their_real_match(world):
    tid = await world.service.create(GUILD, CHANNEL, ORGANISER, "AW", "airwar", "single_elimination", no_show=0)
    tid = tid.tournament.id
    for user in (1, 2):
        await world.service.join(tid, user)
    update = await world.service.start(tid, ORGANISER)
    (game,) = update.games
    assert game.match.status == "active"
    dq = await world.service.disqualify(tid, ORGANISER, 1)
    assert dq.tournament.status == "finished" and dq.tournament.champion_id == 2
    assert (await world.airwar.get_match(game.match.id)).status == "finished"
    await world.service.reconcile()  # the forfeited game is counted once and changes nothing
    assert (await world.service.get(tid)).champion_id == 2


async def test_a_restart_between_dealing_and_accepting_is_reconciled(world):
    tid = await world.service.create(GUILD, CHANNEL, ORGANISER, "AW", "airwar", "single_elimination", no_show=0)
    tid = tid.tournament.id
    for user in (1, 2):
        await world.service.join(tid, user)
    original = world.airwar.accept

    async def crash(match_id, user_id):
        raise RuntimeError("killed")

    world.airwar.accept = crash
    with pytest.raises(RuntimeError):
        await world.service.start(tid, ORGANISER)
    world.airwar.accept = original
    (row,) = await world.service.bracket_matches(tid)
    assert row.status == "playing" and (await world.airwar.get_match(row.match_id)).status == "challenge"
    restarted = world.make_service()
    updates = await restarted.reconcile()
    assert [u.games[0].match.status for u in updates if u.games] == ["active"]
    forfeit = await world.airwar.forfeit(row.match_id, 1)
    assert forfeit.match.status == "finished"
    await restarted.reconcile()
    tournament = await restarted.get(tid)
    assert tournament.status == "finished" and tournament.champion_id == 2


def test_parse_rules():
    assert parse_rules("face_down=3 aces=low capture_pile=true target=none") == {
        "face_down": 3, "aces": "low", "capture_pile": True, "target": None}
    assert parse_rules("") == {}
    with pytest.raises(TournamentRefused):
        parse_rules("face_down")


@pytest.mark.parametrize(("format", "players", "rounds"), [
    ("single_elimination", 8, ["W1", "W2", "W3"]), ("round_robin", 4, ["R1", "R2", "R3"]),
    ("swiss", 6, ["R1", "R2", "R3"]),
])
async def test_a_round_is_called_whole_once_the_one_before_is_over_and_summed_up_once(world, format, players,
                                                                                         rounds):
    tid = await create(world, format, players)
    await world.service.start(tid, ORGANISER)
    await drive(world, tid)
    queued = await world.service.unshown_events(tid)  # nothing shows them here: the whole queue, in order
    order = [(e.type, e.event["round"]) for e in queued if e.type in ("call", "round_over")]
    assert [label for kind, label in order if kind == "round_over"] == rounds  # each round summed up once
    # a round's calls all come together, after the summary of the round before it
    for index, label in enumerate(rounds):
        calls = [i for i, (kind, called) in enumerate(order) if kind == "call" and called == label]
        assert calls == list(range(calls[0], calls[0] + len(calls)))
        if index:
            assert order.index(("round_over", rounds[index - 1])) < calls[0]
    assert queued[-1].type == "over" and queued[-2].type == "round_over"


async def test_a_late_ready_is_refused_with_what_became_of_the_match(world):
    tid = await create(world, "single_elimination", 4, no_show=600)
    update = await world.service.start(tid, ORGANISER)
    first, second = (e.event for e in update.events if e.type == "call")
    for player in first["players"]:
        await world.service.ready(tid, first["key"], player)
    with pytest.raises(TournamentRefused, match="under way"):  # the game is dealt, not counted yet
        await world.service.ready(tid, first["key"], first["players"][0])
    await world.service.reconcile()
    row = await world.service.bracket_match(tid, first["key"])
    with pytest.raises(TournamentRefused, match=f"This match is over: <@{row.winner_id}> won it."):
        await world.service.ready(tid, first["key"], first["players"][1])
    await world.service.ready(tid, second["key"], second["players"][1])
    world.clock.advance(601)
    await world.service.tick(tid)
    with pytest.raises(TournamentRefused, match="didn't press Ready in time"):
        await world.service.ready(tid, second["key"], second["players"][1])
    await world.service.cancel(tid, ORGANISER)
    with pytest.raises(TournamentRefused, match="cancelled"):
        await world.service.ready(tid, first["key"], first["players"][0])


async def test_refusals_are_said_in_the_members_language(world):
    """Every refusal has the English as ``str`` and the member's language from ``said``: a game's title, a nested
    engine error and a mention are put in it too."""
    de, ru, fr = texts("de"), texts("ru"), texts("fr")
    tid = await create(world, "round_robin", 4, no_show=600, game="airwar", rules={"stack": 3}, pace=None)
    with pytest.raises(TournamentRefused) as caught:
        await world.service.join(tid, 1001, "p1")
    assert str(caught.value) == "You're signed up already."
    assert caught.value.said(de) == "Du bist schon angemeldet."
    with pytest.raises(TournamentRefused) as caught:
        await world.service.start(tid, 1002)
    assert caught.value.said(fr) == f"Seul l'organisateur (<@{ORGANISER}>) ou quelqu'un avec « Gérer le serveur » " \
                                    "peut faire ça."
    with pytest.raises(TournamentRefused) as caught:
        await world.service.create(GUILD, CHANNEL + 1, ORGANISER, "Cup", "airwar", "round_robin", pace="instant")
    assert caught.value.said(ru) == ru("{game} has no pace to choose.", game=ru("Air War"))
    assert "Воздушная война" in caught.value.said(ru)
    await world.service.start(tid, ORGANISER)
    await world.service.disqualify(tid, ORGANISER, 1001)
    with pytest.raises(TournamentRefused) as caught:
        await world.service.disqualify(tid, ORGANISER, 1001)
    assert str(caught.value) == "<@1001> can't be disqualified: player 1001 is already out of this tournament " \
                                "(disqualified)."
    assert caught.value.said(ru) == "<@1001> нельзя дисквалифицировать: игрок 1001 уже выбыл из турнира " \
                                    "(дисквалифицирован)."


async def test_every_refusal_goes_through_the_catalogues(world):
    """In the pseudo-language no refusal met along a tournament's life shows English (mentions and codes aside)."""
    refusals: list[TournamentRefused] = []

    async def refused(call) -> None:
        with pytest.raises(TournamentRefused) as caught:
            await call
        refusals.append(caught.value)

    tid = await create(world, "single_elimination", 4, no_show=600)
    await refused(world.service.join(tid, 1001, "p1"))
    await refused(world.service.leave(tid, 5))
    await refused(world.service.check_in(tid, 1001))
    await refused(world.service.pause(tid, ORGANISER))
    await refused(world.service.create(GUILD, CHANNEL, ORGANISER, "Cup", "war", "single_elimination"))
    await refused(world.service.create(GUILD, CHANNEL + 1, ORGANISER, "", "war", "single_elimination"))
    await refused(world.service.create(GUILD, CHANNEL + 1, ORGANISER, "Cup", "war", "nope"))
    await refused(world.service.create(GUILD, CHANNEL + 1, ORGANISER, "Cup", "war", "swiss", best_of=2))
    await refused(world.service.create(GUILD, CHANNEL + 1, ORGANISER, "Cup", "war", "swiss", no_show=-1))
    with pytest.raises(TournamentRefused) as bad_rules:  # the rule's own refusal is the games' (bot/game.py)
        await world.service.create(GUILD, CHANNEL + 1, ORGANISER, "Cup", "war", "swiss", rules={"pack": 7})
    update = await world.service.start(tid, ORGANISER)
    first, second = (e.event for e in update.events if e.type == "call")
    await refused(world.service.ready(tid, first["key"], 5))
    for player in first["players"]:
        await world.service.ready(tid, first["key"], player)
    await refused(world.service.ready(tid, first["key"], first["players"][0]))
    await world.service.ready(tid, second["key"], second["players"][0])
    await refused(world.service.ready(tid, second["key"], second["players"][0]))
    await world.service.reconcile()
    await refused(world.service.ready(tid, first["key"], first["players"][1]))
    await refused(world.service.disqualify(tid, ORGANISER, 5))
    await refused(world.service.resume(tid, ORGANISER))
    await world.service.cancel(tid, ORGANISER)
    await refused(world.service.ready(tid, first["key"], first["players"][0]))
    await refused(world.service.cancel(tid, ORGANISER))
    await refused(world.service.start(tid, ORGANISER))
    with pseudo_language():
        say = texts(PSEUDO)
        said = [error.said(say) for error in refusals]
        assert bad_rules.value.said(say).startswith(say("Those rules don't work: {error}", error=""))
    assert len(said) == 18 and len(set(said)) == 18
    assert [english_left(text, ["Cup", "single_elimination", "double_elimination", "round_robin", "swiss", "nope"])
            for text in said] == [[]] * len(said), said


async def test_a_swiss_rounds_calls_with_the_bot_in_it_come_together(world):
    """Five players and the bot: round 1's three calls are queued one after the other (the bot's Ready after them),
    so the channel posts them as one call on one message."""
    from bot.render import tournament as wording

    tid = await create(world, "swiss", 5, no_show=600, game="airwar", rules={"stack": 3}, pace=None,
                       bot={"id": 999, "name": "Air War", "level": "medium"})
    update = await world.service.start(tid, ORGANISER)
    events = list(update.events)
    first = next(index for index, e in enumerate(events) if e.type == "call")
    end = wording.call_run(events, first)
    calls = [e for e in events[first:end + 1] if e.type == "call"]
    assert len(calls) == 3 and [e.type for e in events[first:first + 3]] == ["call"] * 3
    assert any(999 in e.event["players"] for e in calls)
    bot_ready = next(index for index, e in enumerate(events) if e.type == "ready")
    assert bot_ready > first + 2 and events[bot_ready].event["user_id"] == 999
    assert wording.call_parts(len(calls)) == [3]
