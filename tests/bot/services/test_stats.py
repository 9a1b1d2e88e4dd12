"""The stats service on a real SQLite file, with matches finished by the real match services (Air War and War):
stats and streaks, history pages, head to head, the combined rating (checked against openskill directly), seasons
and deleting a player (their matches and their tournaments anonymised)."""

from __future__ import annotations

import json
import random
import re

import pytest
from openskill.models import PlackettLuce

from bot.match.kernel import MatchKernel
from bot.render import bracket as bracket_render
from bot.services.stats import (
    COMBINED,
    MIN_GAMES,
    MatchNotExportable,
    NothingToDelete,
    OpenMatchBlocksDeletion,
    OpenTournamentBlocksDeletion,
    StatsService,
    Streak,
    UnknownSeason,
)
from bot.services.tournaments import TournamentService
from bot.storage import Database
from bot.storage.diagnostics import dump_tables
from bot.storage.sql import Placeholders
from bot.tournaments import Tournament
from tests.bot.services.support import ALICE, BOB, CAROL, CHANNEL, GUILD, START, FakeClock, open_database

OTHER_GUILD = 2
DAVE = 400


class World:
    """Air War and War services and the stats service on one database; finishes matches by forfeit (the winner
    is the one who did not forfeit) and keeps the expected openskill ratings: per game and combined."""

    def __init__(self, database: Database, clock: FakeClock) -> None:
        self.db = database
        self.clock = clock
        self.airwar = MatchKernel(database, game="airwar", clock=clock, seed_source=lambda: 11,
                                   draft_rng=random.Random(1))
        self.war = MatchKernel(database, game="war", clock=clock, seed_source=lambda: 5)
        self.stats = StatsService(database, clock=clock)
        self.model = PlackettLuce()
        self.per_game: dict[tuple[int, str, int], object] = {}
        self.combined: dict[tuple[int, int], object] = {}
        self.match_ids: list[int] = []

    def _rate(self, table: dict, key_a, key_b, a_wins: bool | None) -> None:
        ra, rb = table.get(key_a) or self.model.rating(), table.get(key_b) or self.model.rating()
        ranks = [1, 1] if a_wins is None else ([1, 2] if a_wins else [2, 1])
        [[ra], [rb]] = self.model.rate([[ra], [rb]], ranks=ranks)
        table[key_a], table[key_b] = ra, rb

    async def play(self, winner: int, loser: int, *, game: str = "airwar", guild: int = GUILD) -> int:
        """``winner`` challenges ``loser`` (or the other way round for variety) and ``loser`` forfeits."""
        self.clock.advance(60)
        service = self.airwar if game == "airwar" else self.war
        first, second = (winner, loser) if len(self.match_ids) % 2 == 0 else (loser, winner)
        options = {} if game == "airwar" else {"game": game, "pace": "flip"}
        update = await service.challenge(guild, CHANNEL, first, second, **options)
        await service.accept(update.match.id, second)
        self.clock.advance(30)
        update = await service.forfeit(update.match.id, loser)
        assert update.match.status == "finished" and update.match.result["winner_id"] == winner
        self._rate(self.per_game, (guild, game, winner), (guild, game, loser), True)
        self._rate(self.combined, (guild, winner), (guild, loser), True)
        self.match_ids.append(update.match.id)
        return update.match.id


@pytest.fixture
async def world(tmp_path, databases):
    database = await open_database(tmp_path / "stats.db", databases)
    yield World(database, FakeClock(START))
    await database.close()


async def test_a_players_stats_count_streaks_opponents_and_ratings(world: World):
    outcomes = [(ALICE, BOB), (ALICE, BOB), (BOB, ALICE), (ALICE, CAROL), (ALICE, CAROL), (ALICE, BOB)]
    for winner, loser in outcomes:
        await world.play(winner, loser)
    await world.play(ALICE, CAROL, game="war")
    await world.play(CAROL, ALICE, game="war")
    await world.play(ALICE, BOB, guild=OTHER_GUILD)  # another server: counts nowhere here

    airwar = await world.stats.player_stats(GUILD, ALICE, "airwar")
    assert (airwar.games, airwar.wins, airwar.losses, airwar.draws) == (6, 5, 1, 0)
    assert airwar.current_streak == Streak("win", 3) and airwar.best_streak == 3
    assert airwar.most_played == (BOB, 4)
    assert airwar.rating == pytest.approx(world.per_game[(GUILD, "airwar", ALICE)].ordinal())
    assert not airwar.provisional  # 6 games on it
    [(label, values)] = airwar.history
    assert label == "airwar" and len(values) == 7 and values[0] == pytest.approx(0.0)
    assert values[-1] == pytest.approx(airwar.rating) and airwar.best_rating == pytest.approx(max(values[1:]))

    everything = await world.stats.player_stats(GUILD, ALICE)
    assert (everything.games, everything.wins, everything.losses) == (8, 6, 2)
    assert everything.current_streak == Streak("loss", 1) and everything.best_streak == 4  # 3 + the War win
    assert everything.most_played == (BOB, 4)  # bob 4, carol 4: the lower id first on a tie
    assert everything.rating == pytest.approx(world.combined[(GUILD, ALICE)].ordinal())
    assert [line.game for line in everything.per_game] == ["airwar", "war"]
    war = everything.per_game[1]
    assert (war.games, war.wins, war.losses, war.draws) == (2, 1, 1, 0)
    assert war.rating == pytest.approx(world.per_game[(GUILD, "war", ALICE)].ordinal())
    assert war.provisional and not everything.per_game[0].provisional and not everything.provisional
    assert (await world.stats.player_stats(GUILD, ALICE, "war")).provisional  # 2 War games: fewer than 3
    assert [label for label, _ in everything.history] == [COMBINED, "airwar", "war"]
    assert len(everything.history[0][1]) == 9

    nobody = await world.stats.player_stats(GUILD, DAVE)
    assert nobody.games == 0 and nobody.current_streak == Streak(None, 0) and nobody.rating is None
    assert nobody.history == () and nobody.most_played is None


async def test_a_rating_is_provisional_until_the_minimum_games_on_it(world: World):
    for games in range(1, MIN_GAMES + 1):
        await world.play(BOB, ALICE)
        for game in ("airwar", None):  # the game's rating and the combined one
            stats = await world.stats.player_stats(GUILD, ALICE, game)
            assert (stats.games, stats.provisional) == (games, games < MIN_GAMES)
    assert not (await world.stats.player_stats(GUILD, ALICE, "war")).provisional  # no War rating at all
    await world.stats.start_season(GUILD)  # a new season: a new rating, provisional again once played
    await world.play(BOB, ALICE)
    assert (await world.stats.player_stats(GUILD, ALICE, "airwar")).provisional


async def test_the_combined_board_is_one_openskill_rating_over_every_game_in_finish_order(world: World):
    await world.play(ALICE, BOB)
    await world.play(BOB, CAROL, game="war")
    await world.play(CAROL, ALICE, game="drunkard")
    await world.play(ALICE, CAROL)
    await world.play(BOB, ALICE, game="war")
    await world.play(CAROL, BOB)
    await world.play(ALICE, BOB, game="todundleben")
    board = await world.stats.leaderboard(GUILD, COMBINED)
    expected = sorted(((GUILD, user) for user in (ALICE, BOB, CAROL)),
                      key=lambda key: -world.combined[key].ordinal())
    assert [row.user_id for row in board.page.rows] == [user for _, user in expected]
    for row in board.page.rows:
        assert row.rating == pytest.approx(world.combined[(GUILD, row.user_id)].ordinal())
    assert {row.user_id: row.games for row in board.page.rows} == {ALICE: 5, BOB: 5, CAROL: 4}
    # read again (and after more games): every match counted once
    again = await world.stats.leaderboard(GUILD, COMBINED)
    assert again.page.rows == board.page.rows
    await world.play(BOB, ALICE)
    rows = (await world.stats.leaderboard(GUILD, COMBINED)).page.rows
    assert {row.user_id: row.rating for row in rows} == pytest.approx(
        {user: world.combined[(GUILD, user)].ordinal() for user in (ALICE, BOB, CAROL)})
    # a game's own board is that game's rating only
    war_board = await world.stats.leaderboard(GUILD, "war")
    assert war_board.page.rows == () and war_board.page.unranked == 3


async def test_history_pages_newest_first_and_head_to_head(world: World):
    ids = [await world.play(ALICE, BOB), await world.play(BOB, ALICE), await world.play(ALICE, CAROL),
           await world.play(ALICE, BOB, game="war"), await world.play(CAROL, BOB)]
    page = await world.stats.history(GUILD, ALICE, 1, per_page=3)
    assert (page.total, page.pages, page.page) == (4, 2, 1)
    assert [m.match_id for m in page.matches] == [ids[3], ids[2], ids[1]]
    assert [m.outcome for m in page.matches] == ["win", "win", "loss"]
    assert page.matches[0].opponents == (BOB,) and page.matches[0].game == "war"
    last = await world.stats.history(GUILD, ALICE, 9, per_page=3)  # clamped
    assert last.page == 2 and [m.match_id for m in last.matches] == [ids[0]]

    h2h = await world.stats.head_to_head(GUILD, ALICE, BOB)
    assert (h2h.games, h2h.first_wins, h2h.second_wins, h2h.draws) == (3, 2, 1, 0)
    assert [m.match_id for m in h2h.recent] == [ids[3], ids[1], ids[0]]
    only_airwar = await world.stats.head_to_head(GUILD, BOB, ALICE, "airwar")
    assert (only_airwar.games, only_airwar.first_wins, only_airwar.second_wins) == (2, 1, 1)

    assert await world.stats.exportable(GUILD, ids[0]) == "airwar"
    with pytest.raises(MatchNotExportable):
        await world.stats.exportable(OTHER_GUILD, ids[0])


async def test_a_new_season_archives_every_board_and_starts_fresh_ones(world: World):
    for winner, loser in [(ALICE, BOB), (ALICE, BOB), (BOB, CAROL), (CAROL, ALICE), (ALICE, CAROL)]:
        await world.play(winner, loser)
    before = await world.stats.leaderboard(GUILD, "airwar")
    combined_before = await world.stats.leaderboard(GUILD, COMBINED)
    assert before.season.number == 1 and before.current and len(before.page.rows) == 3

    world.clock.advance(100)
    closed, new = await world.stats.start_season(GUILD, "  Spring   cup ")
    assert (closed.number, closed.name, closed.ended_at) == (1, "Season 1", world.clock())
    assert (new.number, new.name, new.started_at, new.ended_at) == (2, "Spring cup", world.clock(), None)
    assert [s.number for s in await world.stats.seasons(GUILD)] == [1, 2]
    assert (await world.stats.leaderboard(GUILD, "airwar")).page.rows == ()
    assert (await world.stats.leaderboard(GUILD, COMBINED)).page.rows == ()
    archived = await world.stats.leaderboard(GUILD, "airwar", season=1)
    assert not archived.current and archived.page.rows == before.page.rows
    assert (await world.stats.leaderboard(GUILD, COMBINED, season=1)).page.rows == combined_before.page.rows
    with pytest.raises(UnknownSeason, match=r"^There is no season 3 on this server; it has seasons 1 to 2\.$"):
        await world.stats.leaderboard(GUILD, "airwar", season=3)

    # the new season rates from scratch; stats keep every season's games
    await world.play(BOB, ALICE)
    alice = await world.stats.player_stats(GUILD, ALICE, "airwar")
    assert alice.games == 5 and alice.rating == pytest.approx(PlackettLuce().rate(
        [[PlackettLuce().rating()], [PlackettLuce().rating()]], ranks=[2, 1])[0][0].ordinal())
    async with world.db.read() as conn:
        seasons = [tuple(row) for row in await conn.execute_fetchall(
            "SELECT season, COUNT(*) FROM results GROUP BY season ORDER BY season")]
    assert seasons == [(1, 10), (2, 2)]
    assert [s.number for s in await world.stats.seasons(OTHER_GUILD)] == [1]  # per server


async def test_deleting_a_player_anonymises_their_matches_and_removes_their_stats(world: World):
    await world.play(ALICE, BOB)
    await world.play(BOB, ALICE, game="war")
    await world.play(ALICE, CAROL)
    await world.play(CAROL, BOB)
    await world.play(ALICE, BOB, guild=OTHER_GUILD)
    async with world.airwar.db.transaction() as conn:
        await world.airwar.db.settings.remember_player(conn, GUILD, ALICE, "Alice Liddell", world.airwar.clock())
    await world.stats.start_season(GUILD)
    await world.play(BOB, ALICE)
    bob_combined = (await world.stats.player_stats(GUILD, BOB)).rating

    # an open match refuses, changing nothing
    update = await world.airwar.challenge(GUILD, CHANNEL, ALICE, DAVE)
    async with world.db.read() as conn:
        before = await dump_tables(conn)
    with pytest.raises(OpenMatchBlocksDeletion):
        await world.stats.delete_player(GUILD, ALICE)
    async with world.db.read() as conn:
        assert await dump_tables(conn) == before
    await world.airwar.withdraw(update.match.id, ALICE)

    deleted = await world.stats.delete_player(GUILD, ALICE)
    assert (deleted.matches, deleted.results) == (5, 4)
    assert (await world.stats.player_stats(GUILD, ALICE)).games == 0
    assert (await world.stats.history(GUILD, ALICE)).total == 0
    for game in ("airwar", COMBINED):
        for season in (1, None):
            board = await world.stats.leaderboard(GUILD, game, season=season)
            assert ALICE not in [row.user_id for row in board.page.rows]
    # nothing in this server's data names alice any more; the other server's is untouched
    async with world.db.read() as conn:
        tables = await dump_tables(conn)
        marks = Placeholders(conn)
        other = await conn.execute_fetchall(
            "SELECT COUNT(*) FROM match_seats s JOIN matches m ON m.id = s.match_id"
            f" WHERE m.guild_id = {marks(OTHER_GUILD)} AND s.user_id = {marks(ALICE)}", marks.values)
        marks = Placeholders(conn)
        seats = await conn.execute_fetchall(
            "SELECT s.user_id FROM match_seats s JOIN matches m ON m.id = s.match_id"
            f" WHERE m.guild_id = {marks(GUILD)}", marks.values)
    text = json.dumps({name: rows for name, rows in tables.items()}, default=str)
    assert "Alice Liddell" not in text
    assert next(iter(other))[0] == 1
    assert sorted({row["user_id"] for row in seats}) == [-1, BOB, CAROL, DAVE]  # alice always had seat 0
    other_matches = {row[0] for row in tables["matches"] if row[1] == OTHER_GUILD}
    for name, rows in tables.items():
        for row in rows:
            if ALICE in row:  # only the other server's rows (or rows of its matches) have her id
                assert OTHER_GUILD in row or row[0] in other_matches, (name, row)
            if name in ("matches", "match_events") and row[0] not in other_matches:
                assert not any(isinstance(v, str) and re.search(rf"(?<![\d.]){ALICE}(?![\d.])", v) for v in row), \
                    (name, row)
    # bob's history shows the anonymised opponent; his ratings are as they were
    history = await world.stats.history(GUILD, BOB)
    assert all(opponent < 0 for m in history.matches if CAROL not in m.players for opponent in m.opponents)
    assert (await world.stats.player_stats(GUILD, BOB)).rating == pytest.approx(bob_combined)
    h2h = await world.stats.head_to_head(GUILD, BOB, ALICE)
    assert h2h.games == 0
    with pytest.raises(NothingToDelete):
        await world.stats.delete_player(GUILD, ALICE)
    # both players of a match may delete: the placeholders differ by seat
    await world.stats.delete_player(GUILD, BOB)
    async with world.db.read() as conn:
        marks = Placeholders(conn)
        ids = [tuple(row) for row in await conn.execute_fetchall(
            "SELECT s.match_id, s.user_id FROM match_seats s JOIN matches m ON m.id = s.match_id"
            f" WHERE m.guild_id = {marks(GUILD)} AND s.user_id < 0 ORDER BY s.match_id, s.seat", marks.values)]
    assert all(user_id in (-1, -2) for _, user_id in ids) and len(ids) == len(set(ids))


TOURNAMENT_TABLES = ("tournaments", "tournament_players", "tournament_matches", "tournament_games",
                     "match_events")  # the outbox: the tournaments' channel events (and the matches')


def names_user(value: object, user_id: int) -> bool:
    if isinstance(value, int) and not isinstance(value, bool):
        return value == user_id
    return isinstance(value, str) and re.search(rf"(?<![\d.]){user_id}(?![\d.])", value) is not None


async def test_deleting_a_player_anonymises_their_tournaments_and_is_refused_while_one_is_open(world: World):
    tournaments = TournamentService(world.db, lambda game: world.war, clock=world.clock, seed_source=lambda: 99)
    players = [ALICE, BOB, CAROL, 500]
    update = await tournaments.create(GUILD, CHANNEL, DAVE, "Spring Cup", "war", "round_robin", no_show=0,
                                      pace="instant", rules={"pack": 32, "max_rounds": 200}, organiser_name="Dave")
    tid = update.tournament.id
    for player in players:
        await tournaments.join(tid, player, {ALICE: "Alice Liddell"}.get(player, f"p{player}"))

    # signed up (or organising) a tournament that isn't over: refused, nothing changed
    async with world.db.read() as conn:
        before = await dump_tables(conn)
    with pytest.raises(OpenTournamentBlocksDeletion, match=r"Spring Cup.*leave it while signup is open"):
        await world.stats.check_delete(GUILD, ALICE)
    with pytest.raises(OpenTournamentBlocksDeletion, match="You organise the tournament"):
        await world.stats.delete_player(GUILD, DAVE)
    async with world.db.read() as conn:
        assert await dump_tables(conn) == before
    await tournaments.start(tid, DAVE)
    with pytest.raises(OpenTournamentBlocksDeletion):
        await world.stats.delete_player(GUILD, ALICE)
    for _ in range(50):
        if not (await tournaments.get(tid)).is_open:
            break
        await tournaments.reconcile()
    finished = await tournaments.get(tid)
    assert finished.status == "finished"
    bracket_before = Tournament.from_json(finished.state)

    deleted = await world.stats.delete_player(GUILD, ALICE)
    assert deleted.tournaments == 1 and deleted.matches == 3  # her three round-robin games, anonymised too
    async with world.db.read() as conn:
        tables = await dump_tables(conn)
    for name in TOURNAMENT_TABLES:
        for row in tables[name]:
            assert not any(names_user(value, ALICE) for value in row), (name, row)
    assert "Alice Liddell" not in json.dumps(tables, default=str)
    # her place stays, as placeholder -1 (the first to sign up): same seeds, same results, rating forgotten
    after = await tournaments.get(tid)
    bracket = Tournament.from_json(after.state)
    assert bracket.players == tuple(-1 if p == ALICE else p for p in bracket_before.players)
    assert bracket.ratings[-1] is None
    assert [m.winner for m in bracket.matches()] == [-1 if m.winner == ALICE else m.winner
                                                     for m in bracket_before.matches()]
    assert after.champion_id == (-1 if finished.champion_id == ALICE else finished.champion_id)
    rows = await tournaments.bracket_matches(tid)
    assert sum(-1 in row.players for row in rows) == 3 and all(ALICE not in row.players for row in rows)
    assert [e.user_id for e in await tournaments.entrants(tid)] == [-1, BOB, CAROL, 500]
    names = await tournaments.names(tid)
    assert -1 not in names and names[BOB] == f"p{BOB}"
    shown = bracket_render.standings_text(bracket, names)
    assert shown.count("deleted player") == 1 and "Alice" not in shown and f"p{BOB}" in shown
    assert bracket_render.mention(-1) == "deleted player" and bracket_render.mention(BOB) == f"<@{BOB}>"
    # the others' records of it are untouched
    assert Tournament.from_json(after.state).seed_of(BOB) == bracket_before.seed_of(BOB)

    # the organiser (not a player) may delete now the tournament is over: a placeholder after the players'
    await world.stats.delete_player(GUILD, DAVE)
    async with world.db.read() as conn:
        tables = await dump_tables(conn)
    assert (await tournaments.get(tid)).organiser_id == -5
    for name in TOURNAMENT_TABLES:
        for row in tables[name]:
            assert not any(names_user(value, DAVE) for value in row), (name, row)
    with pytest.raises(NothingToDelete):
        await world.stats.delete_player(GUILD, ALICE)


async def test_the_refusals_are_said_in_the_members_language(world: World):
    from bot.i18n import texts
    from bot.services.stats import InvalidSeasonName, NoBotBoard, NothingToDelete, OpenTournamentBlocksDeletion

    with pytest.raises(UnknownSeason) as refused:
        await world.stats.leaderboard(GUILD, "airwar", season=3)
    assert str(refused.value) == "There is no season 3 on this server; it has season 1."
    assert refused.value.said(texts("de")) == "Auf diesem Server gibt es keine Saison 3; es gibt nur Saison 1."
    with pytest.raises(NoBotBoard) as refused:
        await world.stats.bot_board(GUILD, "war")
    assert str(refused.value).startswith("I don't play War myself")
    assert refused.value.said(texts("ru")).startswith("Сам я не играю в игру «Пьяница», поэтому таблицы матчей "
                                                      "против меня там нет. Выбери игру, в которую я играю: ")
    assert refused.value.said(texts("pl")).startswith("Sam nie gram w grę Wojna, więc nie ma tabeli meczów "
                                                      "przeciwko mnie. Wybierz grę, w którą gram: Wojna powietrzna")
    with pytest.raises(InvalidSeasonName) as refused:
        await world.stats.start_season(GUILD, "x" * 60)
    assert refused.value.said(texts("fr")) == "Le nom d'une saison fait au plus 50 caractères (60 donnés)."
    assert NothingToDelete().said(texts("es")) == ("Este servidor no tiene estadísticas ni historial tuyos: no hay "
                                                   "nada que borrar.")
    organiser = OpenTournamentBlocksDeletion("Cup", 9, organiser=True)
    assert str(organiser) == ("You organise the tournament **Cup** in <#9>, which isn't over; cancel it "
                              "(`/tournament cancel`) or let it finish before you delete your data.")
    de = texts("de")
    cancel = f"`/{de.pgettext('command name', 'tournament')} {de.pgettext('command name', 'cancel')}`"
    assert organiser.said(de) == (f"Du organisierst das Turnier **Cup** in <#9>, das noch nicht vorbei ist; brich es "
                                  f"ab ({cancel}) oder lass es zu Ende gehen, bevor du deine Daten löschst.")


async def test_a_players_record_is_counted_in_every_place_they_played(world: World):
    group_dm = 777  # a DM or group DM counts as a place of its own: its channel id
    await world.play(ALICE, BOB)
    await world.play(BOB, ALICE)
    await world.play(ALICE, CAROL, game="war")
    await world.play(ALICE, BOB, guild=OTHER_GUILD)
    await world.play(CAROL, ALICE, guild=group_dm)
    await world.play(ALICE, CAROL, guild=group_dm)
    await world.play(ALICE, BOB, guild=group_dm)

    places = await world.stats.records_by_place(ALICE)
    by_place = {p.place: (p.wins, p.losses, p.draws) for p in places}
    assert by_place == {GUILD: (2, 1, 0), OTHER_GUILD: (1, 0, 0), group_dm: (2, 1, 0)}
    assert [p.games for p in places] == [3, 3, 1]  # most games first
    war = await world.stats.records_by_place(ALICE, "war")
    assert [(p.place, p.wins, p.games) for p in war] == [(GUILD, 1, 1)]
    assert await world.stats.records_by_place(DAVE) == []
    # each place's own stats still count only its own games
    assert (await world.stats.player_stats(group_dm, ALICE)).games == 3
