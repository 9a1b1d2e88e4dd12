"""Stats, match history, head to head, leaderboards (per game, combined, past seasons), seasons and deleting a
player's data. No Discord here; every refusal is a :class:`~bot.match.errors.ServiceError` whose text is the
user's message, and a refused call changes nothing.

The combined rating. Besides its rating per game (written by the match service when a match finishes), every
player has one combined rating per server: a separate openskill rating (the same Plackett-Luce model, see
:mod:`bot.match.ratings`) updated by every finished match of any game, in the order the matches finished. It
answers "who is the strongest player here across the games" with the same meaning as a game's rating (a surer,
better record rates higher) and, unlike a mean of per-game ratings, it neither rewards playing a single game nor
weighs a game played once like one played a hundred times. It is brought up to date from the stored results
whenever it is read (:meth:`StatsService.catch_up`), so it needs no hook in the match services and gives the same
numbers however often it is read. Like every rating it is stored as openskill's ordinal and shown on the scale of
:func:`bot.match.ratings.displayed`.

Seasons. Starting a season archives every board of the current one (each game's and the combined one) and starts
fresh boards; results and history are kept (stats count every season; the rating shown is this season's).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from bot.i18n import COMMAND_NAME, DEFAULT_LANGUAGE, N_, Texts, texts
from bot.match.errors import ServiceError
from bot.match.ratings import MIN_GAMES, Ratings, is_provisional
from bot.registry import game_class, game_names, registry
from bot.storage import Connection
from bot.storage.port import Storage
from bot.storage.records import BotRecord, LeaderboardPage
from bot.storage.seasons import Season
from bot.storage.stats import COMBINED, Deletion, PlayedMatch, SharedMatch, is_placeholder, placeholder_id
from bot.tournaments import Tournament

__all__ = [
    "COMBINED", "MIN_GAMES", "Board", "Deletion", "GameLine", "HeadToHead", "HistoryPage", "NothingToDelete",
    "OpenMatchBlocksDeletion", "OpenTournamentBlocksDeletion", "PlayedMatch", "PlayerStats", "Season", "SharedMatch",
    "StatsService", "Streak", "UnknownBoard", "UnknownSeason", "is_placeholder", "placeholder_id",
]

SEASON_NAME_LIMIT = 50


class UnknownBoard(ServiceError):
    def __init__(self, game: str) -> None:
        boards = ", ".join((*game_names(), COMBINED))
        super().__init__(f"There is no board {game!r}; the boards are: {boards}.",
                         template=N_("There is no board {board}; the boards are: {boards}."), board=repr(game),
                         boards=boards)


class NoBotBoard(ServiceError):
    """``game``: the game's title (``None``: the combined board); ``games``: the titles of the games the bot
    plays."""

    def __init__(self, game: str | None, games: Sequence[str]) -> None:
        self.game, self.games = game, tuple(games)
        super().__init__(self.said(texts(DEFAULT_LANGUAGE)))

    def said(self, say: Texts) -> str:
        _ = say
        games = ", ".join(_(title) for title in self.games)
        if self.game is None:
            return _("The board of matches against me is one per game. Pick a game I play: {games}.", games=games)
        return _("I don't play {game} myself, so it has no board of matches against me. Pick a game I play: "
                   "{games}.", game=_(self.game), games=games)


class UnknownSeason(ServiceError):
    def __init__(self, season: int, current: int) -> None:
        self.season, self.current = season, current
        super().__init__(self.said(texts(DEFAULT_LANGUAGE)))

    def said(self, say: Texts) -> str:
        _ = say
        if self.current == 1:
            return _("There is no season {season} on this server; it has season 1.", season=self.season)
        return _("There is no season {season} on this server; it has seasons 1 to {current}.", season=self.season,
                   current=self.current)


class InvalidSeasonName(ServiceError):
    pass


class OpenMatchBlocksDeletion(ServiceError):
    def __init__(self, match_ids: Sequence[int]) -> None:
        text = N_("You have a match going on in this server; finish it (or withdraw or decline the challenge) before "
                  "you delete your data.")
        super().__init__(text, template=text)
        self.match_ids = tuple(match_ids)


class OpenTournamentBlocksDeletion(ServiceError):
    def __init__(self, name: str, channel_id: int, organiser: bool) -> None:
        if organiser:
            template = N_("You organise the tournament **{name}** in {channel}, which isn't over; cancel it "
                          "({cancel}) or let it finish before you delete your data.")
        else:
            template = N_("You're in the tournament **{name}** in {channel}, which isn't over; leave it while "
                          "signup is open, or wait until it ends before you delete your data.")
        self.name, self.channel_id, self.organiser, self.template = name, channel_id, organiser, template
        super().__init__(self.said(texts(DEFAULT_LANGUAGE)), template=template)

    def said(self, say: Texts) -> str:
        _ = say
        template = self.template or ""
        cancel = "`/{}`".format(" ".join(say.pgettext(COMMAND_NAME, word) for word in ("tournament", "cancel")))
        params = {"name": self.name, "channel": f"<#{self.channel_id}>"}
        return _(template, **params, cancel=cancel) if self.organiser else _(template, **params)


class NothingToDelete(ServiceError):
    def __init__(self) -> None:
        text = N_("This server has no stats or history of yours: there is nothing to delete.")
        super().__init__(text, template=text)


class MatchNotExportable(ServiceError):
    def __init__(self) -> None:
        text = N_("That match isn't a finished match of this server, so there is no match file for it.")
        super().__init__(text, template=text)


@dataclass(frozen=True)
class Streak:
    """A run of one outcome (``win``, ``loss``, ``draw``; ``None`` with length 0 before any game)."""

    outcome: str | None
    length: int


@dataclass(frozen=True)
class GameLine:
    """One game's line in a player's stats: all-time counts, this season's rating (``None``: not rated this
    season; ``provisional``: fewer than the minimum games on it) and the best rating the player ever reached in
    it. Ratings are stored ordinals."""

    game: str
    games: int
    wins: int
    losses: int
    draws: int
    rating: float | None
    best_rating: float | None
    provisional: bool


@dataclass(frozen=True)
class PlaceRecord:
    """A player's finished matches in one place (a server, or a DM / group DM: its channel id)."""

    place: int
    wins: int
    losses: int
    draws: int

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws


@dataclass(frozen=True)
class PlayerStats:
    """A player's stats in a server, for one game or (``game`` ``None``) every game together.

    Counts and streaks are all-time (every season). ``rating`` is this season's (the game's rating, or the
    combined rating without a game; ``None``: no game this season), ``best_rating`` the best it ever was (stored
    ordinals); ``provisional``: this season's rating has fewer than the minimum games on it.
    ``history`` holds rating series to plot, (label, values): the rating before the first match, then after each
    match (without a game: the combined rating, then one series per game). ``most_played`` is (user id, games),
    ``None`` when there is no opponent (deleted players are not counted). ``per_game``: a line per game played."""

    guild_id: int
    user_id: int
    game: str | None
    games: int
    wins: int
    losses: int
    draws: int
    current_streak: Streak
    best_streak: int
    rating: float | None
    best_rating: float | None
    provisional: bool
    history: tuple[tuple[str, tuple[float, ...]], ...]
    most_played: tuple[int, int] | None
    per_game: tuple[GameLine, ...]
    #: per game whose presses are timed (Speed War), the player's reaction times in ms, oldest first
    reactions: tuple[tuple[str, tuple[int, ...]], ...] = ()


@dataclass(frozen=True)
class HistoryPage:
    guild_id: int
    user_id: int
    page: int
    pages: int
    per_page: int
    total: int
    matches: tuple[PlayedMatch, ...]


@dataclass(frozen=True)
class HeadToHead:
    """Two players' finished matches together (``game`` ``None``: every game). ``others``: won by a third player
    (War for 3-4); ``recent``: the last few, newest first."""

    guild_id: int
    first: int
    second: int
    game: str | None
    games: int
    first_wins: int
    second_wins: int
    draws: int
    others: int
    recent: tuple[SharedMatch, ...]


@dataclass(frozen=True)
class Board:
    """One page of a board (``page.game``: a game or ``all``) of a season; ``current``: the live season."""

    page: LeaderboardPage
    season: Season
    current: bool


@dataclass(frozen=True)
class BotStanding:
    """A player on a game's board of matches against the bot: their ``records`` per level (strongest first) and
    the strongest level they have beaten (``None``: none yet)."""

    rank: int
    user_id: int
    records: tuple[BotRecord, ...]
    best_beaten: str | None


@dataclass(frozen=True)
class BotBoard:
    """A page of a game's board of matches against the bot, in a season (``current``: the live one)."""

    game: str
    season: Season
    current: bool
    page: int
    pages: int
    rows: tuple[BotStanding, ...]


def bot_standings(records: Sequence[BotRecord], levels: Sequence[str]) -> list[BotStanding]:
    """Players ranked by the strongest of ``levels`` (strongest first) they have beaten, then their wins at it,
    then fewer losses in all, then more wins in all."""
    strength = {level: index for index, level in enumerate(levels)}
    by_player: dict[int, list[BotRecord]] = {}
    for record in records:
        if record.level in strength:
            by_player.setdefault(record.user_id, []).append(record)
    entries = []
    for user_id, own in by_player.items():
        own.sort(key=lambda record: strength[record.level])
        beaten = next((record for record in own if record.wins), None)
        key = (strength[beaten.level] if beaten else len(levels), -(beaten.wins if beaten else 0),
               sum(record.losses for record in own), -sum(record.wins for record in own), user_id)
        entries.append((key, user_id, tuple(own), beaten.level if beaten else None))
    entries.sort()
    return [BotStanding(rank, user_id, own, best) for rank, (_, user_id, own, best) in enumerate(entries, start=1)]


def _streaks(outcomes: Sequence[str]) -> tuple[Streak, int]:
    best = run = 0
    for outcome in outcomes:
        run = run + 1 if outcome == "win" else 0
        best = max(best, run)
    if not outcomes:
        return Streak(None, 0), 0
    last, length = outcomes[-1], 0
    for outcome in reversed(outcomes):
        if outcome != last:
            break
        length += 1
    return Streak(last, length), best


class StatsService:
    def __init__(self, database: Storage, *, clock: Callable[[], float] = time.time,
                 ratings: Ratings | None = None, min_games: int = MIN_GAMES) -> None:
        self.db = database
        self.clock = clock
        self.ratings = ratings or Ratings()
        self.min_games = min_games

    # --- the combined rating ----------------------------------------------------------------------------
    async def catch_up(self, conn: Connection, guild_id: int) -> int:
        """Count every finished match of the server not yet in the combined rating, in the order they finished
        (inside the caller's write transaction); returns how many matches were counted."""
        pending = await self.db.stats.pending_results(conn, guild_id)
        now = self.clock()
        for results in pending:
            match_id = results[0].match_id
            if len(results) < 2:  # nobody to be rated against
                await self.db.stats.mark_combined(conn, guild_id, match_id, [])
                continue
            stored = [await self.db.stats.combined_rating(conn, guild_id, r.user_id) for r in results]
            skills = [self.ratings.initial() if row is None else self.ratings.skill(row["mu"], row["sigma"])
                      for row in stored]
            winners = [index for index, r in enumerate(results) if r.outcome == "win"]
            after = self.ratings.rate(skills, winners[0] if len(winners) == 1 else None)
            for result, row, skill in zip(results, stored, after, strict=True):
                counts = {key: 0 if row is None else row[key] for key in ("games", "wins", "losses", "draws")}
                counts["games"] += 1
                counts[{"win": "wins", "loss": "losses"}.get(result.outcome, "draws")] += 1
                await self.db.stats.put_combined_rating(conn, guild_id, result.user_id, mu=skill.mu, sigma=skill.sigma,
                                                rating=skill.ordinal, now=now, **counts)
            await self.db.stats.mark_combined(conn, guild_id, match_id, [
                (r.seat, r.user_id, skill.ordinal, new.ordinal)
                for r, skill, new in zip(results, skills, after, strict=True)
            ])
        return len(pending)

    # --- stats ---------------------------------------------------------------------------------------------
    async def player_stats(self, guild_id: int, user_id: int, game: str | None = None) -> PlayerStats:
        if game is not None and game not in game_names():
            raise UnknownBoard(game)
        async with self.db.transaction() as conn:
            await self.catch_up(conn, guild_id)
            played = await self.db.stats.played_matches(conn, guild_id, user_id)
            ratings = {g: await self.db.results.get_rating(conn, guild_id, g, user_id) for g in game_names()}
            combined = await self.db.stats.combined_rating(conn, guild_id, user_id)
            combined_history = await self.db.stats.combined_history(conn, guild_id, user_id)
            timed = [name for name in game_names() if "ms" in getattr(game_class(name), "measured", ())
                     and game in (None, name)]
            reactions = [(name, tuple(await self.db.stats.reaction_times(conn, guild_id, user_id, name)))
                         for name in timed]
        per_game = []
        series: list[tuple[str, tuple[float, ...]]] = []
        for name in game_names():
            mine = [m for m in played if m.game == name]
            if not mine:
                continue
            rating = ratings[name]
            best = max(m.rating_after for m in mine)
            per_game.append(GameLine(name, len(mine), *self._counts(mine), None if rating is None else rating.rating,
                                     best, rating is not None and is_provisional(rating.games, self.min_games)))
            series.append((name, (mine[0].rating_before, *(m.rating_after for m in mine))))
        chosen = played if game is None else [m for m in played if m.game == game]
        streak, best_streak = _streaks([m.outcome for m in chosen])
        opponents = Counter(o for m in chosen for o in m.opponents if not is_placeholder(o))
        most = min(opponents.items(), key=lambda item: (-item[1], item[0])) if opponents else None
        if game is None:
            rating = None if combined is None else combined["rating"]
            provisional = combined is not None and is_provisional(combined["games"], self.min_games)
            values = [point.rating_after for point in combined_history]
            best_rating = max(values) if values else None
            start = combined_history[0].rating_before if combined_history else 0.0
            history = [(COMBINED, (start, *values)), *series] if values else series
        else:
            stored = ratings[game]
            rating = None if stored is None else stored.rating
            provisional = stored is not None and is_provisional(stored.games, self.min_games)
            line = next((line for line in per_game if line.game == game), None)
            best_rating = None if line is None else line.best_rating
            history = [item for item in series if item[0] == game]
        return PlayerStats(guild_id, user_id, game, len(chosen), *self._counts(chosen), streak, best_streak, rating,
                           best_rating, provisional, tuple(history), most, tuple(per_game),
                           tuple((name, times) for name, times in reactions if times))

    @staticmethod
    def _counts(matches: Sequence[PlayedMatch]) -> tuple[int, int, int]:
        outcomes = Counter(m.outcome for m in matches)
        return outcomes["win"], outcomes["loss"], outcomes["draw"]

    async def records_by_place(self, user_id: int, game: str | None = None) -> list[PlaceRecord]:
        """The player's record in every place they played (servers, DMs, group DMs), most games first."""
        if game is not None and game not in game_names():
            raise UnknownBoard(game)
        async with self.db.read() as conn:
            found = await self.db.stats.records_by_place(conn, user_id, game)
        records = [PlaceRecord(place, counts.get("win", 0), counts.get("loss", 0), counts.get("draw", 0))
                   for place, counts in found.items()]
        return sorted(records, key=lambda record: (-record.games, record.place))

    async def history(self, guild_id: int, user_id: int, page: int = 1, per_page: int = 5,
                      game: str | None = None) -> HistoryPage:
        """The player's finished matches in the server, newest first; ``page`` is 1-based and clamped."""
        per_page = max(1, per_page)
        async with self.db.read() as conn:
            total = await self.db.stats.count_played(conn, guild_id, user_id, game)
            pages = max(1, math.ceil(total / per_page))
            page = min(max(1, page), pages)
            matches = await self.db.stats.played_page(conn, guild_id, user_id, limit=per_page,
                                                      offset=(page - 1) * per_page, game=game)
        return HistoryPage(guild_id, user_id, page, pages, per_page, total, tuple(matches))

    async def head_to_head(self, guild_id: int, first: int, second: int, game: str | None = None,
                           recent: int = 5) -> HeadToHead:
        if first == second:
            raise ServiceError("Pick two different players.", template=N_("Pick two different players."))
        if game is not None and game not in game_names():
            raise UnknownBoard(game)
        async with self.db.read() as conn:
            shared = await self.db.stats.shared_matches(conn, guild_id, first, second, game)
        winners = Counter(m.winner_id for m in shared)
        draws = winners[None]
        others = len(shared) - winners[first] - winners[second] - draws
        return HeadToHead(guild_id, first, second, game, len(shared), winners[first], winners[second], draws,
                          others, tuple(shared[:recent]))

    async def names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        async with self.db.read() as conn:
            return await self.db.stats.names(conn, guild_id, user_ids)

    async def exportable(self, guild_id: int, match_id: int) -> str:
        """The game of a finished match of this server (its match file may be exported); refuses any other."""
        async with self.db.read() as conn:
            found = await self.db.stats.finished_match_guild(conn, match_id)
        if found is None or found[0] != guild_id:
            raise MatchNotExportable()
        return found[1]

    # --- boards and seasons -----------------------------------------------------------------------------------
    async def leaderboard(self, guild_id: int, game: str, *, page: int = 1, per_page: int = 10,
                          season: int | None = None) -> Board:
        """A page of a board: a game's or the combined one (``all``), of the current season or of a closed one
        (``season``: its number). Players with fewer than ``min_games`` games on it are not ranked."""
        if game != COMBINED and game not in game_names():
            raise UnknownBoard(game)
        per_page = max(1, per_page)
        async with self.db.transaction() as conn:
            chosen = await self._season(conn, guild_id, season)
            archived = None if chosen.current else chosen.number
            if archived is None and game == COMBINED:
                await self.catch_up(conn, guild_id)
            ranked, unranked = await self.db.stats.board_counts(conn, guild_id, game, self.min_games, season=archived)
            pages = max(1, math.ceil(ranked / per_page))
            page = min(max(1, page), pages)
            rows = await self.db.stats.board_rows(conn, guild_id, game, min_games=self.min_games, limit=per_page,
                                          offset=(page - 1) * per_page, season=archived)
        board = LeaderboardPage(guild_id, game, page, pages, per_page, self.min_games, ranked, unranked, tuple(rows))
        return Board(board, chosen, chosen.current)

    async def _season(self, conn: Connection, guild_id: int, season: int | None) -> Season:
        """The server's season numbered ``season`` (``None``: the current one); UnknownSeason if there is none."""
        seasons = await self.db.seasons.seasons(conn, guild_id)
        current = seasons[-1]
        if season is not None and not 1 <= season <= current.number:
            raise UnknownSeason(season, current.number)
        return current if season is None else seasons[season - 1]

    async def bot_board(self, guild_id: int, game: str, *, page: int = 1, per_page: int = 10,
                        season: int | None = None) -> BotBoard:
        """A page of ``game``'s board of matches against the bot (unrated, by level) in a season (``None``: this
        one). Raises NoBotBoard for a game the bot does not play."""
        playable = [entry for entry in registry().entries()
                    if entry.plugin.opponent and entry.name == entry.plugin.name]
        if game == COMBINED:
            raise NoBotBoard(None, [entry.engine.title for entry in playable])
        if game not in game_names():
            raise UnknownBoard(game)
        plugin = registry().entry(game).plugin
        if not plugin.opponent or plugin.name != game:
            raise NoBotBoard(game_class(game).title, [entry.engine.title for entry in playable])
        per_page = max(1, per_page)
        async with self.db.read() as conn:
            chosen = await self._season(conn, guild_id, season)
            records = await self.db.stats.bot_records(conn, guild_id, game, since=chosen.started_at,
                                                      until=chosen.ended_at)
        standings = bot_standings(records, plugin.levels)
        pages = max(1, math.ceil(len(standings) / per_page))
        page = min(max(1, page), pages)
        shown = standings[(page - 1) * per_page:page * per_page]
        return BotBoard(game, chosen, chosen.current, page, pages, tuple(shown))

    async def seasons(self, guild_id: int) -> list[Season]:
        async with self.db.read() as conn:
            return await self.db.seasons.seasons(conn, guild_id)

    async def start_season(self, guild_id: int, name: str | None = None) -> tuple[Season, Season]:
        """Archive the current season's boards and start the next season; returns (closed, new)."""
        if name is not None:
            name = " ".join(name.split())
            if not name:
                name = None
            elif len(name) > SEASON_NAME_LIMIT:
                raise InvalidSeasonName(f"A season's name is at most {SEASON_NAME_LIMIT} characters "
                                        f"({len(name)} given).",
                                        template=N_("A season's name is at most {limit} characters ({given} "
                                                    "given)."), limit=SEASON_NAME_LIMIT, given=len(name))
        async with self.db.transaction() as conn:
            await self.catch_up(conn, guild_id)  # the combined board as it stands at the end of the season
            return await self.db.seasons.start_season(conn, guild_id, name, self.clock())

    # --- deleting a player -------------------------------------------------------------------------------------
    async def check_delete(self, guild_id: int, user_id: int) -> None:
        """Refuse what :meth:`delete_player` would refuse now (an open match here, nothing stored)."""
        async with self.db.read() as conn:
            await self._check_delete(conn, guild_id, user_id)

    async def _check_delete(self, conn: Connection, guild_id: int, user_id: int) -> None:
        open_ids = await self.db.stats.open_match_ids(conn, guild_id, user_id)
        if open_ids:
            raise OpenMatchBlocksDeletion(open_ids)
        for tournament in await self.db.tournaments.open_tournaments_of_player(conn, guild_id, user_id):
            entrants = {p.user_id for p in await self.db.tournaments.entrants(conn, tournament.id)}
            raise OpenTournamentBlocksDeletion(tournament.name, tournament.channel_id,
                                               organiser=user_id not in entrants)
        if not await self.db.stats.has_data(conn, guild_id, user_id):
            raise NothingToDelete()

    async def delete_player(self, guild_id: int, user_id: int) -> Deletion:
        """Remove the player's stats and history from this server; their matches stay, anonymised (see
        :mod:`bot.storage.stats`). Refused while they have an open match in the server."""
        async with self.db.transaction() as conn:
            await self._check_delete(conn, guild_id, user_id)
            # their finished matches count in the opponents' combined ratings before their rows go
            await self.catch_up(conn, guild_id)
            deleted = await self.db.stats.delete_player(conn, guild_id, user_id)
            return replace(deleted, tournaments=await self._anonymise_tournaments(conn, guild_id, user_id))

    async def _anonymise_tournaments(self, conn: Connection, guild_id: int, user_id: int) -> int:
        """The player, in every tournament of the server that holds something of them, becomes a placeholder
        (see :func:`bot.storage.tournaments.placeholder_for`), their place in the bracket kept; how many."""
        tournaments = await self.db.tournaments.tournaments_of_player(conn, guild_id, user_id)
        for tournament in tournaments:
            placeholder = await self.db.tournaments.placeholder_for(conn, tournament.id, user_id)
            state = None
            if tournament.has_state:
                bracket = Tournament.from_json(tournament.state or {})
                if user_id in bracket.players:
                    bracket.replace_player(user_id, placeholder)
                    state = bracket.to_json()
            await self.db.tournaments.anonymise_player(conn, tournament.id, user_id, placeholder, state)
        return len(tournaments)
