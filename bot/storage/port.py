"""The storage port: what the match kernel and the services ask of storage, as typed protocols.

:class:`Storage` is a database: its connection contexts (``transaction()``, ``read()``, ``statement()``), its
pipelining of a transaction's writes, and its stores -- :class:`MatchStore`, :class:`ResultStore`,
:class:`SettingsStore`, :class:`StatsStore`, :class:`SeasonStore`, :class:`TournamentStore`,
:class:`PreferenceStore`, :class:`ChipStore` -- whose functions take a connection of one of its contexts first. The
SQLite implementation is :class:`bot.storage.database.Database` and the PostgreSQL one (shared by several bot
processes) :class:`bot.storage.postgres.PostgresDatabase`; the stores of both are this package's modules
(``database.matches`` is :mod:`bot.storage.matches`, ...), which take either database's :class:`Connection` and
run the statement written for the database it says it is (``conn.dialect``, see :mod:`bot.storage.sql`).

Concurrency is part of the contract, so that several processes can share one database: a match's writes may be held
to the version their writer read (``expected_version``: :class:`~bot.storage.errors.VersionConflict` when the match
moved on, checked by the write itself), and a due deadline or a match's unshown events are claimed by one process
at a time (:meth:`MatchStore.claim_deadline`, :meth:`MatchStore.claim_unshown`; see :mod:`bot.storage.matches`).
An implementation raises only :mod:`bot.storage.errors` (a broken rule of the schema is
:class:`~bot.storage.errors.ConstraintViolation` on both), never its driver's exceptions.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar, runtime_checkable

from bot.storage.outbox import EventQueueStore
from bot.storage.records import (
    ActionRecord,
    BotRecord,
    ChipBoardRow,
    ChipEntry,
    LeaderboardRow,
    MatchRecord,
    QueuedEvent,
    RatingRecord,
    ResultRecord,
)
from bot.storage.seasons import Season
from bot.storage.settings import GuildSettings
from bot.storage.sql import Connection as Connection  # the stores' connection (re-exported: callers look here)
from bot.storage.stats import CombinedPoint, Deletion, PendingResult, PlayedMatch, SharedMatch
from bot.storage.tournaments import (
    BracketMatchRecord,
    EntrantRecord,
    GameRecord,
    TournamentEvent,
    TournamentRecord,
)

#: an implementation's connection, as its stores take it
Conn_contra = TypeVar("Conn_contra", contravariant=True)
Conn = TypeVar("Conn", bound=Connection)


class Row(Protocol):
    """A stored row, read by column name."""

    def __getitem__(self, column: str) -> Any: ...


class MatchStore(Protocol[Conn_contra]):
    """Matches, their seats, messages, action log and event queue; claims on their deadlines and events."""

    async def insert_match(
        self, conn: Conn_contra, *, guild_id: int, channel_id: int, game: str, rules: Mapping[str, Any],
        arrange_seconds: int | None, user_ids: Sequence[int], deadline_at: float, now: float,
        options: Mapping[str, Any] | None = None, program_seats: Sequence[int] = (),
    ) -> int: ...
    async def load_match(self, conn: Conn_contra, match_id: int) -> MatchRecord | None: ...
    async def load_match_and_state(self, conn: Conn_contra, match_id: int) -> tuple[MatchRecord | None, str | None]:
        ...
    async def load_matches(self, conn: Conn_contra, match_ids: Iterable[int]) -> list[MatchRecord]: ...
    async def load_state(self, conn: Conn_contra, match_id: int) -> dict[str, Any] | None: ...

    async def update_match(
        self, conn: Conn_contra, match_id: int, now: float, *, expected_version: int | None = None,
        only_status: str | Sequence[str] | None = None, **fields: Any,
    ) -> int:
        """Moves the match's version on by one; held to ``expected_version`` when given (VersionConflict)."""
        ...

    async def open_match_ids(self, conn: Conn_contra, games: Iterable[str] | None = None) -> list[int]: ...
    async def finished_program_matches_without(
        self, conn: Conn_contra, games: Iterable[str], name: str, since: float
    ) -> list[int]: ...
    async def open_matches_of_users(
        self, conn: Conn_contra, user_ids: Iterable[int], games: Iterable[str]
    ) -> dict[int, int]: ...
    async def update_seat(
        self, conn: Conn_contra, match_id: int, seat: int, *, expected_version: int | None = None, **fields: Any
    ) -> None: ...
    async def add_seat(self, conn: Conn_contra, match_id: int, user_id: int) -> int: ...
    async def remove_seat(self, conn: Conn_contra, match_id: int, user_id: int) -> int | None: ...
    async def reset_misses(self, conn: Conn_contra, match_id: int) -> None: ...
    async def reset_drafts(self, conn: Conn_contra, match_id: int) -> None: ...
    async def set_message(
        self, conn: Conn_contra, match_id: int, name: str, message_id: int, *, expected_version: int | None = None
    ) -> None: ...

    async def append_action(
        self, conn: Conn_contra, match_id: int, *, seat: int, step: int, kind: str,
        action: Mapping[str, Any], now: float,
    ) -> int: ...
    async def actions(self, conn: Conn_contra, match_id: int) -> list[ActionRecord]: ...

    #: the matches' events in the outbox (the functions below are its statements)
    EVENTS: EventQueueStore[QueuedEvent]

    # (the outbox's statements for matches: ``owner_id`` is the match's id)
    async def append_events(
        self, conn: Conn_contra, owner_id: int, events: Iterable[Mapping[str, Any]], now: float
    ) -> list[QueuedEvent]: ...
    def numbered_events(
        self, owner_id: int, events: Iterable[Mapping[str, Any]], *, after_seq: int
    ) -> list[QueuedEvent]: ...
    async def insert_events(self, conn: Conn_contra, queued: Sequence[QueuedEvent], now: float) -> None: ...
    async def events(
        self, conn: Conn_contra, owner_id: int, *, unshown_only: bool = False, step: int | None = None,
        after_seq: int = 0,
    ) -> list[QueuedEvent]: ...
    async def mark_shown(self, conn: Conn_contra, owner_id: int, up_to_seq: int) -> int: ...
    async def match_ids_with_unshown_events(self, conn: Conn_contra, games: Iterable[str] | None = None) -> list[int]:
        ...

    async def claim_deadline(
        self, conn: Conn_contra, match_id: int, kind: str, step: int, owner: str, now: float, lease: float
    ) -> bool:
        """``True``: the deadline is due and ``owner`` alone holds it until ``now + lease``."""
        ...

    async def release_deadline(self, conn: Conn_contra, match_id: int, owner: str) -> bool: ...
    async def claim_unshown(self, conn: Conn_contra, owner_id: int, claimant: str, now: float, lease: float) -> bool:
        """``True``: the match has unshown events and ``claimant`` alone shows them until ``now + lease``."""
        ...

    async def release_unshown(self, conn: Conn_contra, owner_id: int, claimant: str) -> bool: ...


class ResultStore(Protocol[Conn_contra]):
    """Results of finished matches and per-game ratings (the boards are :class:`StatsStore`'s)."""

    async def insert_results(self, conn: Conn_contra, results: Iterable[ResultRecord], now: float) -> None: ...
    async def results_of_match(self, conn: Conn_contra, match_id: int) -> list[ResultRecord]: ...
    async def get_rating(self, conn: Conn_contra, guild_id: int, game: str, user_id: int) -> RatingRecord | None: ...
    async def put_rating(self, conn: Conn_contra, rating: RatingRecord, now: float) -> None: ...


class SettingsStore(Protocol[Conn_contra]):
    """Server settings and the players' names."""

    async def get_settings(self, conn: Conn_contra, guild_id: int) -> GuildSettings: ...
    async def put_settings(self, conn: Conn_contra, settings: GuildSettings, now: float) -> None: ...
    async def update_settings(self, conn: Conn_contra, guild_id: int, now: float, **values: Any) -> None: ...
    async def put_default_rules(
        self, conn: Conn_contra, guild_id: int, game: str, rules: Mapping[str, Any], now: float
    ) -> None: ...
    async def add_start_channel(self, conn: Conn_contra, guild_id: int, channel_id: int, now: float) -> bool: ...
    async def remove_start_channel(self, conn: Conn_contra, guild_id: int, channel_id: int) -> bool: ...
    async def clear_start_channels(self, conn: Conn_contra, guild_id: int) -> int: ...
    async def remember_player(
        self, conn: Conn_contra, guild_id: int, user_id: int, display_name: str | None, now: float
    ) -> None: ...


class ChipStore(Protocol[Conn_contra]):
    """Each player's chips in a server and the ledger of their movements (games played against the house). A
    match's movement is written once for its (match, hand, seat, kind): written again, it moves nothing."""

    async def sit_down(
        self, conn: Conn_contra, guild_id: int, user_ids: Sequence[int], *, stake: int, daily_topup: int, day: int,
        now: float,
    ) -> list[int]:
        """Each player's balance as they sit at a table (a new player gets ``stake``, one below it the day's
        top-up)."""
        ...

    async def record(self, conn: Conn_contra, entries: Iterable[ChipEntry], now: float) -> int: ...
    async def balances(self, conn: Conn_contra, guild_id: int, user_ids: Iterable[int]) -> dict[int, int]: ...
    async def ledger(self, conn: Conn_contra, match_id: int) -> list[ChipEntry]: ...
    async def board_count(self, conn: Conn_contra, guild_id: int) -> int: ...
    async def board_rows(self, conn: Conn_contra, guild_id: int, *, limit: int, offset: int) -> list[ChipBoardRow]:
        ...


class PreferenceStore(Protocol[Conn_contra]):
    """Players' own preferences (the same on every server): where their private panels open, and the language
    their client last showed."""

    async def panel_places(self, conn: Conn_contra, user_ids: Iterable[int]) -> dict[int, str]: ...
    async def set_panel_place(self, conn: Conn_contra, user_id: int, place: str, now: float) -> None: ...
    async def languages(self, conn: Conn_contra, user_ids: Iterable[int]) -> dict[int, str]: ...
    async def set_language(self, conn: Conn_contra, user_id: int, language: str, now: float) -> None: ...


class StatsStore(Protocol[Conn_contra]):
    """A player's finished matches, the combined rating's bookkeeping, boards of any season, deleting a player."""

    async def played_matches(
        self, conn: Conn_contra, guild_id: int, user_id: int, game: str | None = None
    ) -> list[PlayedMatch]: ...
    async def reaction_times(self, conn: Conn_contra, guild_id: int, user_id: int, game: str) -> list[int]: ...
    async def count_played(self, conn: Conn_contra, guild_id: int, user_id: int, game: str | None = None) -> int: ...
    async def played_page(
        self, conn: Conn_contra, guild_id: int, user_id: int, *, limit: int, offset: int, game: str | None = None
    ) -> list[PlayedMatch]: ...
    async def shared_matches(
        self, conn: Conn_contra, guild_id: int, first: int, second: int, game: str | None = None
    ) -> list[SharedMatch]: ...
    async def finished_match_guild(self, conn: Conn_contra, match_id: int) -> tuple[int, str] | None: ...
    async def names(self, conn: Conn_contra, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]: ...
    async def pending_results(self, conn: Conn_contra, guild_id: int) -> list[list[PendingResult]]: ...
    async def combined_rating(self, conn: Conn_contra, guild_id: int, user_id: int) -> Row | None: ...
    async def put_combined_rating(
        self, conn: Conn_contra, guild_id: int, user_id: int, *, mu: float, sigma: float, rating: float, games: int,
        wins: int, losses: int, draws: int, now: float,
    ) -> None: ...
    async def mark_combined(
        self, conn: Conn_contra, guild_id: int, match_id: int, points: Sequence[tuple[int, int, float, float]]
    ) -> None: ...
    async def combined_history(self, conn: Conn_contra, guild_id: int, user_id: int) -> list[CombinedPoint]: ...
    async def board_counts(
        self, conn: Conn_contra, guild_id: int, game: str, min_games: int, *, season: int | None = None
    ) -> tuple[int, int]: ...
    async def board_rows(
        self, conn: Conn_contra, guild_id: int, game: str, *, min_games: int, limit: int, offset: int,
        season: int | None = None,
    ) -> list[LeaderboardRow]: ...
    async def bot_records(
        self, conn: Conn_contra, guild_id: int, game: str, *, since: float | None = None, until: float | None = None
    ) -> list[BotRecord]: ...
    async def open_match_ids(self, conn: Conn_contra, guild_id: int, user_id: int) -> list[int]: ...
    async def delete_player(self, conn: Conn_contra, guild_id: int, user_id: int) -> Deletion: ...
    async def has_data(self, conn: Conn_contra, guild_id: int, user_id: int) -> bool: ...


class SeasonStore(Protocol[Conn_contra]):
    """A server's numbered seasons and the boards of the closed ones."""

    async def seasons(self, conn: Conn_contra, guild_id: int) -> list[Season]: ...
    async def start_season(
        self, conn: Conn_contra, guild_id: int, name: str | None, now: float
    ) -> tuple[Season, Season]: ...


class TournamentStore(Protocol[Conn_contra]):
    """Tournaments, their entrants, bracket matches, games and event queue."""

    async def insert_tournament(
        self, conn: Conn_contra, *, guild_id: int, channel_id: int, name: str, game: str, format: str,
        rules: Mapping[str, Any], options: Mapping[str, Any], organiser_id: int, seed: int,
        signup_closes_at: float | None, now: float,
    ) -> int: ...
    async def load_tournament(self, conn: Conn_contra, tournament_id: int) -> TournamentRecord | None: ...
    async def update_tournament(self, conn: Conn_contra, tournament_id: int, now: float, **fields: Any) -> int: ...
    async def open_tournaments(self, conn: Conn_contra) -> list[TournamentRecord]: ...
    async def channel_tournaments(
        self, conn: Conn_contra, guild_id: int, channel_id: int, *, open_only: bool = True
    ) -> list[TournamentRecord]: ...
    async def past_tournaments(
        self, conn: Conn_contra, guild_id: int, *, limit: int, offset: int = 0
    ) -> tuple[list[TournamentRecord], int]: ...

    async def add_entrant(
        self, conn: Conn_contra, tournament_id: int, user_id: int, name: str | None, now: float
    ) -> bool: ...
    async def remove_entrant(self, conn: Conn_contra, tournament_id: int, user_id: int) -> bool: ...
    async def check_in(self, conn: Conn_contra, tournament_id: int, user_id: int) -> bool: ...
    async def entrants(self, conn: Conn_contra, tournament_id: int) -> list[EntrantRecord]: ...
    async def names(self, conn: Conn_contra, tournament_id: int) -> dict[int, str]: ...
    async def ratings_of(
        self, conn: Conn_contra, guild_id: int, game: str, user_ids: Iterable[int]
    ) -> dict[int, float]: ...

    async def insert_bracket_match(
        self, conn: Conn_contra, tournament_id: int, key: str, round: str, players: Sequence[int],
        deadline_at: float | None, now: float,
    ) -> None: ...
    async def load_bracket_match(self, conn: Conn_contra, tournament_id: int, key: str) -> BracketMatchRecord | None:
        ...
    async def bracket_matches(
        self, conn: Conn_contra, tournament_id: int, *, open_only: bool = False, round: str | None = None,
        call_message_id: int | None = None,
    ) -> list[BracketMatchRecord]: ...
    async def update_bracket_match(self, conn: Conn_contra, tournament_id: int, key: str, **fields: Any) -> int: ...
    async def next_deadline(self, conn: Conn_contra, tournament_id: int) -> float | None: ...
    async def stalled_bracket_matches(self, conn: Conn_contra) -> list[tuple[int, str, int | None]]: ...

    async def insert_game(self, conn: Conn_contra, tournament_id: int, key: str, match_id: int) -> int: ...
    async def games(self, conn: Conn_contra, tournament_id: int, key: str | None = None) -> list[GameRecord]: ...
    async def count_game(self, conn: Conn_contra, match_id: int, winner_id: int | None) -> bool: ...
    async def finished_uncounted_games(self, conn: Conn_contra) -> list[tuple[int, str, int]]: ...

    async def append_events(  # the outbox's, for tournaments (``owner_id``: the tournament's id)
        self, conn: Conn_contra, owner_id: int, events: Iterable[Mapping[str, Any]], now: float
    ) -> list[TournamentEvent]: ...
    #: the tournaments' channel events in the outbox (read, claimed and marked through it)
    EVENTS: EventQueueStore[TournamentEvent]

    async def open_tournaments_of_player(
        self, conn: Conn_contra, guild_id: int, user_id: int
    ) -> list[TournamentRecord]: ...
    async def tournaments_of_player(self, conn: Conn_contra, guild_id: int, user_id: int) -> list[TournamentRecord]:
        ...
    async def placeholder_for(self, conn: Conn_contra, tournament_id: int, user_id: int) -> int: ...
    async def anonymise_player(
        self, conn: Conn_contra, tournament_id: int, user_id: int, placeholder: int, state: Mapping[str, Any] | None
    ) -> None: ...


@runtime_checkable
class PipelinedConnection(Protocol):
    """A transaction's connection that can send writes without waiting for each (:meth:`Storage.pipelined`).
    ``wrote``: a statement that may write ran since the caller last read the match back (or said it mirrored it)."""

    wrote: bool

    def send(self, write: Callable[[Any], Awaitable[Any]]) -> None: ...
    async def flush(self) -> None: ...


class Storage(Protocol[Conn]):
    """A database: connection contexts and the stores. ``transaction()``: writes, all or nothing; ``read()``: reads
    that see no transaction land between them; ``statement()``: statements one by one, at most one that writes (it
    commits by itself). :meth:`close` waits for everything in flight."""

    matches: MatchStore[Conn]
    results: ResultStore[Conn]
    settings: SettingsStore[Conn]
    stats: StatsStore[Conn]
    seasons: SeasonStore[Conn]
    tournaments: TournamentStore[Conn]
    preferences: PreferenceStore[Conn]
    chips: ChipStore[Conn]

    @property
    def shared(self) -> bool:
        """Other processes use the database too: the kernel claims deadlines and events and keeps no match in
        memory."""
        ...

    @property
    def closed(self) -> bool: ...
    def transaction(self) -> AbstractAsyncContextManager[Conn]: ...
    def read(self) -> AbstractAsyncContextManager[Conn]: ...
    def statement(self) -> AbstractAsyncContextManager[Conn]: ...
    def pipelined(self, connection: Conn) -> AbstractAsyncContextManager[PipelinedConnection]:
        """The writes sent in the block are done when it ends, or never run if it fails."""
        ...

    async def lock_match(self, connection: Conn, match_id: int) -> None:
        """Inside a transaction: hold the match against every other process's transaction until this one ends
        (a database-wide lock where the backend has none finer: SQLite's writers are one at a time already)."""
        ...

    async def lock_tournament(self, connection: Conn, tournament_id: int) -> None:
        """:meth:`lock_match` for a tournament."""
        ...

    async def announce(self, connection: Conn, payload: str) -> None:
        """Inside a transaction: once it commits, every process listening (:meth:`listen`) receives ``payload``
        (nothing where the backend has no such thing)."""
        ...

    async def listen(self, receive: Callable[[str], None]) -> bool:
        """From now on call ``receive(payload)`` for every announcement committed (this process's too), and
        ``receive("")`` when some may have been missed (the backend lost its way of hearing them for a while);
        ``False``: the backend cannot (SQLite: one process is the whole bot)."""
        ...

    async def close(self) -> None: ...
