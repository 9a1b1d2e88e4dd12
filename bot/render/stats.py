"""Stats, history, head to head, leaderboards, seasons and settings as message text (and the rating chart as a
picture).

Players appear as mentions (``<@id>``, rendered by Discord without pinging in embeds); a deleted player's seat
(a negative id, see :mod:`bot.storage.stats`) as "deleted player". Ratings come in as the stored openskill ordinals
and are shown on the displayed scale (:func:`bot.match.ratings.displayed`: 1500 for a new player, whole numbers,
never negative), marked provisional while the player has fewer than the minimum games on them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games import game_class
from bot.i18n import LANGUAGES
from bot.match.ratings import DISPLAY_START, displayed
from bot.render.common import ALT_TEXT_LIMIT, Picture, Surface, clamp, clamp_line, timestamp
from bot.render.plots import line_chart

DELETED = "deleted player"
COMBINED_TITLE = "All games"
COMBINED = "all"
OUTCOME_WORDS = {"win": ("win", "wins"), "loss": ("loss", "losses"), "draw": ("draw", "draws")}
OUTCOME_MARKS = {"win": "✅ Won", "loss": "❌ Lost", "draw": "🤝 Draw"}
REASON_WORDS = {"forfeit": "forfeit", "timeout": "timeout", "double_timeout": "both timed out"}


def game_title(game: str | None) -> str:
    if game is None or game == COMBINED:
        return COMBINED_TITLE
    return game_class(game).title


def player(user_id: int) -> str:
    return DELETED if user_id < 0 else f"<@{user_id}>"


def rating_text(ordinal: float | None, provisional: bool = False) -> str:
    """A stored rating as players see it: ``1456``, ``1456 (provisional)``, ``—`` for none."""
    if ordinal is None:
        return "—"
    return f"{displayed(ordinal)} (provisional)" if provisional else str(displayed(ordinal))


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _record(wins: int, losses: int, draws: int) -> str:
    return f"{_plural(wins, 'win')} · {_plural(losses, 'loss', 'losses')} · {_plural(draws, 'draw')}"


def _rate(wins: int, games: int) -> str:
    return f"{round(100 * wins / games)}%" if games else "—"


def board_title(game: str, season_name: str, current: bool) -> str:
    title = f"{game_title(game)} leaderboard"
    return title if current else f"{title} — {season_name}"


def board_line(row: Any) -> str:
    """One ranked player on a board, short enough for a phone: ``**1.** <@id> **1623** · 5W 1L`` (``1D`` only
    with draws). ``row``: a :class:`bot.storage.records.LeaderboardRow`."""
    record = f"{row.wins}W {row.losses}L" + (f" {row.draws}D" if row.draws else "")
    return f"**{row.rank}.** {player(row.user_id)} **{rating_text(row.rating)}** · {record}"


def board(page: Any, title: str) -> Surface:
    """A board's page as an embed's title and text: one :func:`board_line` per ranked player, best first (the
    storage's order: the stored ordinal, which the displayed rating follows). ``page``: a
    :class:`bot.storage.records.LeaderboardPage`."""
    return Surface(title, clamp("\n".join(board_line(row) for row in page.rows)))


def chips_board(rows: Any, title: str) -> Surface:
    """A chips board's page (a game played against the house): one line per player, most chips first, with the net
    of their tables. ``rows``: :class:`bot.storage.records.ChipBoardRow`."""
    lines = [f"**{row.rank}.** <@{row.user_id}> — **{row.balance}** chips · net {row.net:+d} over "
             f"{row.tables} {'table' if row.tables == 1 else 'tables'}" for row in rows]
    return Surface(title, clamp("\n".join(lines)))


def bot_board_title(game: str, season_name: str, current: bool) -> str:
    title = f"{game_title(game)} — against me"
    return title if current else f"{title} — {season_name}"


def bot_board_line(standing: Any) -> str:
    """One player on a board of matches against the bot, short enough for a phone:
    ``**1.** <@id> · beat **expert** · expert 3W 1L · hard 5W 2L`` (``1D`` only with draws).
    ``standing``: a :class:`bot.services.stats.BotStanding`."""
    records = " · ".join(f"{record.level} {record.wins}W {record.losses}L" + (f" {record.draws}D" if record.draws
                                                                              else "")
                         for record in standing.records)
    beaten = f" · beat **{standing.best_beaten}**" if standing.best_beaten else ""
    return f"**{standing.rank}.** {player(standing.user_id)}{beaten} · {records}"


def bot_board(shown: Any) -> Surface:
    """A page of a board of matches against the bot (:class:`bot.services.stats.BotBoard`)."""
    return Surface(bot_board_title(shown.game, shown.season.name, shown.current),
                   clamp("\n".join(bot_board_line(standing) for standing in shown.rows)))


def bot_board_footer(page: int, pages: int) -> str:
    lines = [f"Page {page} of {pages}"] if pages > 1 else []
    lines.append("Practice matches against me, unrated. Ranked by the strongest level beaten, then the wins at it.")
    return "\n".join(lines)


def board_footer(game: str, min_games: int, *, page: int = 1, pages: int = 1, unranked: int = 0,
                 current: bool = True) -> str:
    """The board's small print: the page, the provisional players not listed (``current``: of the season going
    on), how players get ranked."""
    games = "game" if min_games == 1 else "games"
    lines = [f"Page {page} of {pages}"] if pages > 1 else []
    if unranked:
        who = "1 provisional player" if unranked == 1 else f"{unranked} provisional players"
        lines.append(f"{who} (fewer than {min_games} {games}) " + ("not ranked yet." if current else "not ranked."))
    combined = " One rating over the matches of every game." if game == COMBINED else ""
    lines.append(f"Ranked after {min_games} {games}; a new rating starts at {DISPLAY_START}.{combined} "
                 "/help explains the ratings.")
    return "\n".join(lines)


def stats(data: Any, who: str) -> Surface:
    """``/stats``: :class:`bot.services.stats.PlayerStats` of the player ``who`` (a mention)."""
    title = f"Stats — {game_title(data.game)}"
    if not data.games:
        where = "" if data.game is None else f" of {game_title(data.game)}"
        return Surface(title, f"{who} hasn't finished a game{where} on this server yet.")
    lines = [f"**{who}** — {_plural(data.games, 'game')}: {_record(data.wins, data.losses, data.draws)} "
             f"(win rate {_rate(data.wins, data.games)})"]
    streak = data.current_streak
    if streak.outcome is not None:
        one, many = OUTCOME_WORDS[streak.outcome]
        lines.append(f"Current streak: {streak.length} {one if streak.length == 1 else many} · "
                     f"best winning streak: {_plural(data.best_streak, 'win')}")
    kind = "combined rating" if data.game is None else "rating"
    lines.append(f"This season's {kind}: {rating_text(data.rating, data.provisional)} · "
                 f"best ever: {rating_text(data.best_rating)}")
    if data.most_played is not None:
        opponent, games = data.most_played
        lines.append(f"Most played opponent: {player(opponent)} ({_plural(games, 'game')})")
    for game, times in getattr(data, "reactions", ()):
        ordered = sorted(times)
        lines.append(f"Reaction times ({game_title(game)}): median **{ordered[len(ordered) // 2]} ms**, best "
                     f"{ordered[0]} ms over {_plural(len(times), 'press', 'presses')}")
    if data.game is None and data.per_game:
        lines.append("")
        for line in data.per_game:
            lines.append(f"**{game_title(line.game)}**: {_plural(line.games, 'game')}, "
                         f"{line.wins}W {line.losses}L {line.draws}D · rating "
                         f"{rating_text(line.rating, line.provisional)} · best {rating_text(line.best_rating)}")
    return Surface(title, clamp("\n".join(lines)))


def rating_chart(data: Any, plain_name: str) -> Picture | None:
    """The rating history as a line chart (one line per series, on the displayed scale); ``None`` without any
    game."""
    series = [(game_title(label), [displayed(value) for value in values]) for label, values in data.history if values]
    if not series:
        return None
    png = line_chart(series, title=f"{plain_name}: rating history", x_label="matches played", y_label="rating")
    described = "; ".join(f"{label} from {values[0]} to {values[-1]} over "
                          f"{_plural(len(values) - 1, 'match', 'matches')}" for label, values in series)
    return Picture(png, "rating.png", clamp_line(f"Rating history: {described}", ALT_TEXT_LIMIT))


def _when(finished_at: float | None) -> str:
    return timestamp(finished_at, "d") if finished_at is not None else "—"


def history(page: Any, who: str) -> Surface:
    """``/history``: a :class:`bot.services.stats.HistoryPage`, numbered newest first (#1 is the last match)."""
    title = "Match history"
    if not page.total:
        return Surface(title, f"{who} hasn't finished a game on this server yet.")
    lines = [f"**{who}** — {_plural(page.total, 'finished match', 'finished matches')}"]
    for index, match in enumerate(page.matches, (page.page - 1) * page.per_page + 1):
        opponents = ", ".join(player(o) for o in match.opponents) or "nobody"
        how = REASON_WORDS.get(match.reason or "", "")
        how = f" ({how})" if how else ""
        change = displayed(match.rating_after) - displayed(match.rating_before)
        lines.append(f"**{index}.** {OUTCOME_MARKS[match.outcome]}{how} · {game_title(match.game)} vs {opponents} · "
                     f"{_when(match.finished_at)} · <#{match.play_channel_id}> · rating "
                     f"{rating_text(match.rating_after)} ({change:+d}) · match {match.match_id}")
    if page.pages > 1:
        lines.append(f"Page {page.page} of {page.pages}")
    return Surface(title, clamp("\n".join(lines)))


def head_to_head(h2h: Any) -> Surface:
    """``/h2h``: a :class:`bot.services.stats.HeadToHead`."""
    first, second = player(h2h.first), player(h2h.second)
    title = f"Head to head — {game_title(h2h.game)}"
    if not h2h.games:
        return Surface(title, f"{first} and {second} haven't finished a game together on this server yet.")
    lines = [f"{first} vs {second}: {_plural(h2h.games, 'game')}",
             f"{first}: {_plural(h2h.first_wins, 'win')} · {second}: {_plural(h2h.second_wins, 'win')} · "
             f"{_plural(h2h.draws, 'draw')}"]
    if h2h.others:
        lines.append(f"Won by someone else: {h2h.others}")
    lines.append("")
    lines.append("Last matches:")
    for match in h2h.recent:
        won = "draw" if match.winner_id is None else f"{player(match.winner_id)} won"
        lines.append(f"• {game_title(match.game)} · {won} · {_when(match.finished_at)} · <#{match.play_channel_id}>")
    return Surface(title, clamp("\n".join(lines)))


def seasons(items: Sequence[Any]) -> str:
    """``/season list``: every season, the current one last."""
    lines = ["**Seasons**"]
    for season in items:
        since = "" if season.started_at is None else f" from {timestamp(season.started_at, 'd')}"
        until = " (current)" if season.current else f" to {timestamp(season.ended_at, 'd')}"
        lines.append(f"{season.number}. {season.name}{since}{until}")
    return clamp("\n".join(lines))


def rules_text(rules: Mapping[str, Any]) -> str:
    """``{"aces": "low", "stack": 3}`` -> ``aces=low stack=3`` (the form /settings takes them in)."""

    def show(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return "none" if value is None else str(value)

    return " ".join(f"{key}={show(value)}" for key, value in sorted(rules.items()))


def settings(current: Any, games: Sequence[str]) -> str:
    """``/settings show``: a :class:`bot.storage.settings.GuildSettings`."""
    channels = ", ".join(f"<#{c}>" for c in current.start_channels) or "any channel"
    lines = [
        "**Server settings**",
        f"Air War arrangement timer: {current.arrange_seconds} s",
        f"Air War flip pace: {current.flip_pace_ms / 1000:g} s between flips",
        f"War's default pace: {current.war_pace}",
        f"Thread per match: {'on' if current.thread_per_match else 'off (matches play in the channel)'}",
        f"Matches may start in: {channels}",
        f"Public messages in: {LANGUAGES.get(current.language, current.language)}",
        "Default rules:",
    ]
    rules: Mapping[str, Mapping[str, Any]] = current.default_rules
    for game in games:
        given = rules.get(game)
        lines.append(f"• {game_title(game)}: {rules_text(given) if given else 'the game’s defaults'}")
    return clamp("\n".join(lines))
