"""What the storage layer hands out: frozen records built from rows (no SQL here, no engine objects)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.storage.sql import Row


class Status(StrEnum):
    """A match's status (``matches.status``): a challenge or lobby, being played, or over one way or the other."""

    CHALLENGE = "challenge"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"


OPEN_STATUSES = (Status.CHALLENGE, Status.ACTIVE)
FINAL_STATUSES = (Status.FINISHED, Status.CANCELLED)


@dataclass(frozen=True)
class SeatRecord:
    """One seat of a match: seat 0 is the challenger, seat 1 the opponent."""

    seat: int
    user_id: int
    dm_channel_id: int | None = None
    dm_message_id: int | None = None
    #: the battle order being built in the DM panel for the current engagement (cards, in play order)
    draft: tuple[str, ...] = ()
    #: arrangement deadlines missed in a row
    misses: int = 0


@dataclass(frozen=True)
class MatchRecord:
    """A match as stored (without the engine's hidden state).

    ``status`` is a :class:`Status`; ``reason`` says why a match was
    cancelled (``declined``, ``withdrawn``, ``expired``) or how it finished (the outcome's reason: ``short_stack``,
    ``out_of_cards``, ``forfeit``, ``timeout``, ``double_timeout``). ``step`` is the step the game is at (its flow
    says what a step is: Air War's engagement, Army's arrangement and rounds, War's rounds played).
    ``deadline_kind`` is ``challenge`` (the challenge or lobby expires at ``deadline_at``) or one of the flow's kinds
    (Air War's ``arrange``: step ``step``'s orders are due), ``None`` when no deadline runs. ``result`` (finished
    matches) is ``{"winner": seat | None, "winner_id": user id | None, "reason", "detail", "engagement" (the step it
    ended at), "user_ids": [...]}``. ``messages`` maps message names (``"board:3"``,
    ``"result"``, anything the Discord side chose) to message ids. Times are Unix seconds.
    """

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    challenge_message_id: int | None
    game: str
    rules: dict[str, Any]
    #: the service's per-match options (JSON object), e.g. War's pace
    options: dict[str, Any]
    arrange_seconds: int | None
    seed: int | None
    status: Status
    reason: str | None
    step: int
    deadline_at: float | None
    deadline_kind: str | None
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    started_at: float | None
    finished_at: float | None
    seats: tuple[SeatRecord, ...]
    messages: dict[str, int] = field(default_factory=dict)
    #: counts the writes of the match's row (see :func:`bot.storage.matches.update_match`)
    version: int = 0

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @property
    def user_ids(self) -> tuple[int, ...]:
        return tuple(seat.user_id for seat in self.seats)

    @property
    def challenger_id(self) -> int:
        return self.seats[0].user_id

    @property
    def opponent_id(self) -> int:
        return self.seats[1].user_id

    @property
    def play_channel_id(self) -> int:
        """Where the match is played: its thread, or the channel when there is no thread."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def board_message_id(self, step: int) -> int | None:
        return self.messages.get(board_message_name(step))

    def with_seat(self, seat: int, **changes: Any) -> MatchRecord:
        """This match with seat ``seat``'s record changed (``SeatRecord`` fields)."""
        seats = list(self.seats)
        seats[seat] = replace(seats[seat], **changes)
        return replace(self, seats=tuple(seats))


def board_message_name(step: int) -> str:
    """The name under which step ``step``'s board message is stored."""
    return f"board:{step}"


@dataclass(frozen=True)
class QueuedEvent:
    """One event of a match's queue: ``seq`` counts from 1 per match; ``shown`` once the Discord side showed it."""

    match_id: int
    seq: int
    #: the step it belongs to (``None``: none, e.g. a challenge's events)
    step: int | None
    type: str
    event: dict[str, Any]
    shown: bool = False


@dataclass(frozen=True)
class ActionRecord:
    """One entry of a match's action log. ``kind``: ``order`` (confirmed by the player), ``as_drawn`` (played as
    drawn when the player missed the deadline), ``forfeit`` (the player gave up), ``timeout`` (forfeited by the
    timer)."""

    match_id: int
    seq: int
    seat: int
    step: int
    kind: str
    action: dict[str, Any]
    created_at: float


@dataclass(frozen=True)
class ResultRecord:
    match_id: int
    seat: int
    guild_id: int
    game: str
    user_id: int
    outcome: str  # win | loss | draw
    rating_before: float
    rating_after: float
    #: the result counts for the ratings (``False``: a game against the house; its ratings are 0)
    rated: bool = True


@dataclass(frozen=True)
class ChipEntry:
    """One chip movement (``chip_ledger``): ``amount`` chips to the player (negative: to the house); a match's
    movement is named once by (``match_id``, ``hand``, ``seat``, ``kind``), a grant's ``match_id`` is ``None``."""

    guild_id: int
    user_id: int
    match_id: int | None
    hand: int
    seat: int
    kind: str
    amount: int


@dataclass(frozen=True)
class ChipBoardRow:
    """A player on a server's chips board: the balance, the net of their tables, how many tables."""

    rank: int
    user_id: int
    display_name: str | None
    balance: int
    net: int
    tables: int


@dataclass(frozen=True)
class RatingRecord:
    """A player's openskill rating and record in one server and game; ``rating`` is the ordinal (mu - 3 sigma)."""

    guild_id: int
    game: str
    user_id: int
    mu: float
    sigma: float
    rating: float
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    user_id: int
    display_name: str | None
    wins: int
    losses: int
    draws: int
    games: int
    win_rate: float  # wins / games, 0.0 .. 1.0 (draws count as games)
    rating: float  # openskill ordinal (mu - 3 sigma): what the board is sorted by
    mu: float
    sigma: float

    @classmethod
    def ranked(cls, rows: Iterable[Row], offset: int = 0) -> list[LeaderboardRow]:
        """A board's page from its rows (best first: ``user_id``, ``display_name``, ``wins``, ``losses``, ``draws``,
        ``games``, ``rating``, ``mu``, ``sigma``), ranked from ``offset + 1``."""
        return [cls(rank=offset + index + 1, user_id=row["user_id"], display_name=row["display_name"],
                    wins=row["wins"], losses=row["losses"], draws=row["draws"], games=row["games"],
                    win_rate=row["wins"] / row["games"] if row["games"] else 0.0, rating=row["rating"],
                    mu=row["mu"], sigma=row["sigma"])
                for index, row in enumerate(rows)]


@dataclass(frozen=True)
class BotRecord:
    """A player's results against the bot at one ``level`` of a game."""

    user_id: int
    level: str
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True)
class LeaderboardPage:
    """One page of a server's board. ``page`` is 1-based (clamped to 1 .. ``pages``); ``pages`` is at least 1.
    ``ranked`` players have ``min_games`` or more games; ``unranked`` is how many have played fewer (not listed)."""

    guild_id: int
    game: str
    page: int
    pages: int
    per_page: int
    min_games: int
    ranked: int
    unranked: int
    rows: tuple[LeaderboardRow, ...]
