"""What each web page shows, read from storage in one read, in the server's language: plain data for the templates
(:mod:`bot.web.app` renders them). A page of a server whose pages are not public (``/settings web on``) is
:class:`NotFound`, as is anything unknown.

Nothing secret is served: a match's steps are shown only once it is finished (then every card of it was shown in
Discord), from the events the bot showed and the orders it played; an unfinished match's page names its players
and game and says it is not over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from bot.cards import card_label, describe
from bot.i18n import N_, Texts, texts
from bot.match.export import match_file
from bot.registry import game_names, registry
from bot.render.bracket import points_text, round_name
from bot.render.card_emoji import CARDS
from bot.storage.port import Storage
from bot.storage.records import MatchRecord, QueuedEvent
from bot.storage.web import WEB
from bot.tournaments import Match as BracketMatch
from bot.tournaments import Tournament
from bot.web.reviews import engagement_table

DELETED = N_("deleted player")
DRAW, WON = N_("A draw."), N_("{name} won.")
ENGAGEMENT, GAME_OVER = N_("Engagement {number}"), N_("Game over")
NO_RATED = N_("No rated matches yet.")
#: a board page's rows, a player page's matches
BOARD_ROWS, RECENT_MATCHES, CHART_POINTS = 50, 20, 200


class NotFound(Exception):
    """No such page, or the server's pages are not public."""


@dataclass(frozen=True)
class Card:
    code: str
    label: str  #: the card notation (``10♣``)
    words: str  #: the alt text (``10 of clubs``)


@dataclass
class Line:
    """One thing that happened in a step: its words and the cards it showed."""

    text: str
    cards: list[Card] = field(default_factory=list)


@dataclass
class Side:
    """One seat in an Air War engagement: its stack, the order played, the best order, the accuracy."""

    name: str
    stack: list[Card]
    order: list[Card]
    best: list[Card] | None = None
    accuracy: float | None = None
    costliest: bool = False


@dataclass
class Flip:
    cards: list[Card]
    winner: str | None  #: the name of who won the flip; ``None``: a tie


@dataclass
class Fight:
    """A fight of an Air War engagement: who won it, the cards they kept and the loser's, discarded."""

    winner: str
    kept: list[Card]
    discarded: list[Card]


@dataclass
class Step:
    number: int
    title: str
    lines: list[Line] = field(default_factory=list)
    sides: list[Side] = field(default_factory=list)  #: Air War only
    flips: list[Flip] = field(default_factory=list)  #: Air War only
    won: list[int] = field(default_factory=list)  #: Air War: fights won per seat
    fights: list[Fight] = field(default_factory=list)  #: Air War only


@lru_cache(maxsize=4096)
def card(code: str, say: Texts) -> Card:
    """A card as a page shows it (made once per card and language: a page shows hundreds)."""
    return Card(code, card_label(code), describe(code, say))


def cards_of(value: Any, say: Texts) -> list[Card]:
    """Every card named in an event's value (a card, a list of them, lists of lists), in order."""
    if isinstance(value, str):
        return [card(value, say)] if value in CARDS else []
    if isinstance(value, list | tuple):
        return [found for item in value for found in cards_of(item, say)]
    return []


def player_name(names: Mapping[int, str], user_id: int, say: Texts) -> str:
    if user_id < 0:
        return say(DELETED)
    _ = say
    return names.get(user_id) or _("Player {number}", number=str(user_id)[-4:])


async def language(db: Storage, conn: Any, guild_id: int) -> Texts:
    """The server's words, after checking its pages are public (:class:`NotFound` if not)."""
    if await db.web.get_option(conn, guild_id, WEB) != "on":
        raise NotFound
    return texts((await db.settings.get_settings(conn, guild_id)).language)


def game_title(game: str, say: Texts) -> str:
    return say(registry().entry(game).title)


def when(seconds: float | None) -> str:
    return "" if seconds is None else datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


# --- a match ------------------------------------------------------------------------------------------------

#: the words of an event of a game other than Air War, by its type (``{name}``: the seat's player)
EVENT_WORDS = {
    "flip": N_("{name} flips"),
    "battle": N_("Battle"),
    "war": N_("War!"),
    "take": N_("{name} takes the cards"),
    "out": N_("{name} is out"),
    "reshuffle": N_("Reshuffle"),
    "pot_aside": N_("The pot is set aside"),
    "reveal": N_("Cards revealed"),
    "armies_set": N_("Armies set"),
    "army_fallen": N_("{name}'s army falls"),
    "draw": N_("{name} draws"),
    "dealt": N_("Cards dealt"),
    "tie": N_("A tie"),
    "hand_over": N_("Hand over"),
    "pressed": N_("{name} presses"),
    "unopposed": N_("{name}'s cards go back unopposed"),
}

BATTLE_WON, BATTLE_TIED = N_("Battle: {name} wins"), N_("Battle: a tie")
#: a step's title, by what the game calls its steps
STEP_TITLES = {"round": N_("Round {number}"), "hand": N_("Hand {number}"), None: N_("Step {number}")}


@dataclass
class MatchPage:
    """A match's review: its players, and once it is finished its result, steps and (Air War) accuracies."""

    match: MatchRecord
    say: Texts
    title: str
    names: list[str]
    finished: bool
    result: str
    steps: list[Step]
    reviewed: bool
    accuracy: list[float] | None


async def match_page(db: Storage, match_id: int) -> MatchPage:
    """The match's review (:class:`NotFound`: no such match, a cancelled one, or its server's pages are off)."""
    async with db.read() as conn:
        match = await db.matches.load_match(conn, match_id)
        if match is None or match.status == "cancelled" or match.game not in game_names():
            raise NotFound
        say = await language(db, conn, match.guild_id)
        stored = await db.stats.names(conn, match.guild_id, match.user_ids)
        finished = match.status == "finished"
        events = await db.matches.events(conn, match_id) if finished else []
        actions = await db.matches.actions(conn, match_id) if finished else []
        review = await db.web.get_review(conn, match_id) if finished else None
    names = [player_name(stored, user_id, say) for user_id in match.user_ids]
    title = game_title(match.game, say)
    if not finished:
        return MatchPage(match, say, title, names, False, "", [], False, None)
    if match.game == "airwar" and len(names) == 2:
        moves = match_file(registry().entry(match.game).plugin.flow(), match, actions)["moves"]
        orders = [move["orders"] for move in moves if "orders" in move]
        steps = airwar_steps(events, orders, review, names, say)
    else:
        steps = generic_steps(events, names, say)
    return MatchPage(match, say, title, names, True, result_words(match, names, say), steps, review is not None,
                     None if review is None else review["accuracy"])


def result_words(match: MatchRecord, names: Sequence[str], say: Texts) -> str:
    winner = (match.result or {}).get("winner")
    if winner is None:
        return say(DRAW)
    return say(WON, name=names[winner])


def airwar_steps(events: Iterable[QueuedEvent], orders: Sequence[Sequence[Sequence[str]]],
                 review: Mapping[str, Any] | None, names: Sequence[str], say: Texts) -> list[Step]:
    """One step per engagement: both stacks, both orders (and the best ones with each order's accuracy, once
    reviewed), the flips and the fights won."""
    reviewed = engagement_table(review)
    costliest = review["costliest"] if review is not None else (None, None)
    steps: list[Step] = []
    for queued in events:
        event = queued.event
        kind = event.get("type")
        if kind == "engagement":
            number = event["number"]
            played = orders[number - 1] if number - 1 < len(orders) else None
            item = reviewed.get(number)
            sides = []
            for seat, stack in enumerate(event["stacks"]):
                side = Side(names[seat], cards_of(stack, say), cards_of(played[seat], say) if played else [])
                if item is not None:
                    side.best = cards_of(item["best"][seat], say)
                    side.accuracy = item["accuracy"][seat]
                    side.costliest = costliest[seat] == number
                sides.append(side)
            steps.append(Step(number, say(ENGAGEMENT, number=number), sides=sides, won=[0, 0]))
        elif not steps:
            continue
        elif kind == "flip":
            winner = event.get("winner")
            steps[-1].flips.append(Flip(cards_of(event["cards"], say), None if winner is None else names[winner]))
        elif kind == "fight":
            steps[-1].won[event["winner"]] += 1
            steps[-1].fights.append(Fight(names[event["winner"]], cards_of(event["kept"], say),
                                          cards_of(event["discarded"], say)))
        elif kind == "game_over":
            steps[-1].lines.append(Line(say(GAME_OVER)))
    return [step for step in steps if step.flips or (step.sides and step.sides[0].order)]


def generic_steps(events: Iterable[QueuedEvent], names: Sequence[str], say: Texts) -> list[Step]:
    """One step per step the bot showed (a round, a hand...): each event's words and cards."""
    steps: dict[int, Step] = {}
    for queued in events:
        event = queued.event
        template = EVENT_WORDS.get(event.get("type", ""))
        shown = cards_of([event.get(key) for key in ("card", "cards", "kept", "armies", "army", "drawn")], say)
        if template is None and not shown:
            continue
        seat = event.get("seat")
        if event.get("type") == "battle":  # its winner's name, or a tie
            seat = event.get("winner")
            template = BATTLE_WON if isinstance(seat, int) else BATTLE_TIED
        name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
        text = say(template, name=name) if template is not None else ""
        unit = "round" if "round" in event else "hand" if "hand" in event else None
        number = event.get(unit, queued.step) if unit else queued.step or 0
        step = steps.setdefault(number, Step(number, say(STEP_TITLES.get(unit, STEP_TITLES[None]), number=number)))
        step.lines.append(Line(text, shown))
    return [steps[number] for number in sorted(steps)]


# --- a tournament -------------------------------------------------------------------------------------------


@dataclass
class BracketRow:
    key: str
    players: list[str]
    score: str
    winner: str | None
    games: list[int]


@dataclass
class RoundRows:
    title: str
    rows: list[BracketRow]


@dataclass
class TournamentPage:
    """A tournament: its rounds with each pairing and its games, the standings (round robin, Swiss)."""

    say: Texts
    id: int
    name: str
    game: str
    status: str
    rounds: list[RoundRows]
    standings: list[tuple[int, str, str]]  #: (place, name, points)
    champion: str | None
    version: str  #: changes whenever anything shown changes (the live page polls it)
    live: bool  #: it can still change (not finished or cancelled): the page keeps asking


STATUS_WORDS = {"signup": N_("Sign-up open"), "check_in": N_("Checking in"), "running": N_("Running"),
                "paused": N_("Paused"), "finished": N_("Finished"), "cancelled": N_("Cancelled")}


async def tournament_page(db: Storage, tournament_id: int) -> TournamentPage:
    """The tournament as it stands now (:class:`NotFound`: no such tournament, or its server's pages are off)."""
    async with db.read() as conn:
        record = await db.tournaments.load_tournament(conn, tournament_id)
        if record is None:
            raise NotFound
        say = await language(db, conn, record.guild_id)
        bracket = Tournament.from_json(record.state) if record.has_state else None
        # (the names they signed up with, else the ones the server's boards know)
        known = await db.stats.names(conn, record.guild_id, bracket.players if bracket is not None else ())
        stored = {**known, **await db.tournaments.names(conn, tournament_id)}
        games = await db.tournaments.games(conn, tournament_id)
        rows = await db.tournaments.bracket_matches(conn, tournament_id)
    by_key: dict[str, list[int]] = {}
    for game in games:
        by_key.setdefault(game.key, []).append(game.match_id)
    series = {row.key: row for row in rows}

    def named(player: int | None) -> str:
        return "—" if player is None else player_name(stored, player, say)

    rounds: list[RoundRows] = []
    standings: list[tuple[int, str, str]] = []
    champion = None
    if bracket is not None:
        for round_ in bracket.rounds():
            rounds.append(RoundRows(round_name(bracket, round_.label, say), [
                _bracket_row(match, series.get(match.key), by_key.get(match.key, []), named)
                for match in round_.matches]))
        if not bracket.is_elimination:
            standings = [(row.place, named(row.player), points_text(row.score, say)) for row in bracket.standings()]
        champion = None if bracket.champion is None else named(bracket.champion)
    version = f"{record.updated_at}:{len(games)}:{sum(row.status == 'decided' for row in rows)}"
    return TournamentPage(say, tournament_id, record.name, game_title(record.game, say), say(STATUS_WORDS.get(
        record.status, record.status)), rounds, standings, champion, version,
                          record.status not in ("finished", "cancelled"))


def _bracket_row(match: BracketMatch, row: Any, games: list[int], named: Any) -> BracketRow:
    players = [named(player) for player in match.players if player is not None or not match.is_bye]
    score = "" if row is None else f"{row.wins[0]}–{row.wins[1]}"
    return BracketRow(match.key, players, score, None if match.winner is None else named(match.winner), games)


# --- boards ----------------------------------------------------------------------------------------------------


@dataclass
class BoardPage:
    """A game's leaderboard in a server."""

    say: Texts
    guild_id: int
    game: str
    title: str
    rows: list[tuple[int, int, str, int, int, int, str]]  #: rank, user id, name, wins, losses, draws, rating
    games: list[tuple[str, str]]  #: every game's name and title (the board's menu)
    seasons: list[tuple[int | None, str]]  #: every season's number (``None``: the current one) and name
    season: int | None  #: the season shown (``None``: the current one)


async def board_page(db: Storage, guild_id: int, game: str, season: int | None = None) -> BoardPage:
    """A game's board in the server: the current season's, or a closed season's (``season``)."""
    if game not in game_names():
        raise NotFound
    async with db.read() as conn:
        say = await language(db, conn, guild_id)
        seasons = await db.seasons.seasons(conn, guild_id)
        closed = {found.number for found in seasons if not found.current}
        if season is not None and season not in closed:
            raise NotFound
        rows = await db.stats.board_rows(conn, guild_id, game, min_games=1, limit=BOARD_ROWS, offset=0,
                                         season=season)
    shown = [(row.rank, row.user_id, say(DELETED) if row.user_id < 0 else row.display_name or
              player_name({}, row.user_id, say), row.wins, row.losses, row.draws, say.number(row.rating, digits=1))
             for row in rows]
    menu = [(None if found.current else found.number, found.name) for found in seasons]
    return BoardPage(say, guild_id, game, game_title(game, say), shown,
                     [(name, game_title(name, say)) for name in game_names()], menu if len(menu) > 1 else [], season)


@dataclass
class PlayerPage:
    """A player's page on a game's board: the rating chart and the recent matches."""

    say: Texts
    guild_id: int
    game: str
    title: str
    name: str
    points: list[tuple[float, float]]  #: (finished at, rating after), oldest first
    recent: list[tuple[int, str, str]]  #: (match id, when, outcome words)
    chart: str  #: an SVG polyline's points
    chart_alt: str


OUTCOME_WORDS = {"win": N_("win"), "loss": N_("loss"), "draw": N_("draw")}
CHART_W, CHART_H = 320, 120


async def player_page(db: Storage, guild_id: int, game: str, user_id: int) -> PlayerPage:
    """The player's page (:class:`NotFound`: a deleted player, one without a match of the game there, or the
    server's pages are off)."""
    if game not in game_names() or user_id < 0:
        raise NotFound
    async with db.read() as conn:
        say = await language(db, conn, guild_id)
        results = await db.web.player_results(conn, guild_id, game, user_id, CHART_POINTS)
        stored = await db.stats.names(conn, guild_id, [user_id])
    if not results:
        raise NotFound
    rated = [(result.finished_at, result.rating_after) for result in reversed(results) if result.rated]
    recent = [(result.match_id, when(result.finished_at), say(OUTCOME_WORDS[result.outcome]))
              for result in results[:RECENT_MATCHES]]
    name = player_name(stored, user_id, say)
    if rated:
        alt = say.ngettext("{name}'s rating over {count} match: from {first} to {last}.",
                           "{name}'s rating over {count} matches: from {first} to {last}.", len(rated), name=name,
                           first=say.number(rated[0][1], digits=1), last=say.number(rated[-1][1], digits=1))
    else:
        alt = say(NO_RATED)
    return PlayerPage(say, guild_id, game, game_title(game, say), name, rated, recent, chart_points(rated), alt)


def chart_points(points: Sequence[tuple[float, float]]) -> str:
    """The rating's line on a :data:`CHART_W` x :data:`CHART_H` chart (match by match, left to right)."""
    if not points:
        return ""
    ratings = [rating for _, rating in points]
    low, high = min(ratings), max(ratings)
    span = (high - low) or 1.0
    step = CHART_W / max(1, len(points) - 1)
    return " ".join(f"{index * step:.1f},{CHART_H - 8 - (rating - low) / span * (CHART_H - 16):.1f}"
                    for index, rating in enumerate(ratings))
