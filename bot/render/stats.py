"""Stats, history, head to head, leaderboards, seasons and settings as message text (and the rating chart as a
picture), in the language of ``say`` (a :class:`bot.i18n.Texts`; English by default): the reader's for a private
answer, the server's for a shared or public one.

Players appear as mentions (``<@id>``, rendered by Discord without pinging in embeds); a deleted player's seat
(a negative id, see :mod:`bot.storage.stats`) as "deleted player". Ratings come in as the stored openskill ordinals
and are shown on the displayed scale (:func:`bot.match.ratings.displayed`: 1500 for a new player, whole numbers,
never negative), marked provisional while the player has fewer than the minimum games on them. A slash command
named in a text is named as the reader's Discord shows it (:func:`command`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import COMMAND_NAME, LANGUAGES, N_, Texts
from bot.match.ratings import DISPLAY_START, displayed
from bot.registry import game_class, registry
from bot.render.common import ALT_TEXT_LIMIT, ENGLISH, Picture, Surface, clamp, clamp_line, timestamp
from bot.render.plots import line_chart

DELETED = N_("deleted player")
COMBINED_TITLE = N_("All games")
COMBINED = "all"
OUTCOME_MARKS = {"win": N_("✅ Won"), "loss": N_("❌ Lost"), "draw": N_("🤝 Draw")}
REASON_WORDS = {"forfeit": N_("forfeit"), "timeout": N_("timeout"), "double_timeout": N_("both timed out")}
#: the bot's levels as a board of matches against it names them
LEVEL_WORDS = {"expert": N_("expert"), "hard": N_("hard"), "medium": N_("medium"), "easy": N_("easy")}
#: the name a season gets when it is given none (:func:`bot.storage.seasons.default_name`)
DEFAULT_SEASON_NAME = "Season {number}"


def command(say: Texts, path: str) -> str:
    """A slash command as the reader's Discord names it: ``command(say, "settings show")`` -> ``/settings show``
    (``/einstellungen anzeigen`` in German)."""
    return "/" + " ".join(say.pgettext(COMMAND_NAME, part) for part in path.split())


def game_title(game: str | None, say: Texts = ENGLISH) -> str:
    _ = say
    if game is None or game == COMBINED:
        return _(COMBINED_TITLE)
    return _(game_class(game).title)


def player(user_id: int, say: Texts = ENGLISH) -> str:
    _ = say
    return _(DELETED) if user_id < 0 else f"<@{user_id}>"


def season_name(season: Any, say: Texts = ENGLISH) -> str:
    """A season's name: its own, or "Season N" in the reader's words when it was given none."""
    _ = say
    if season.name == DEFAULT_SEASON_NAME.format(number=season.number):
        return _(N_("Season {number}"), number=season.number)
    return season.name


def rating_text(ordinal: float | None, provisional: bool = False, say: Texts = ENGLISH) -> str:
    """A stored rating as players see it: ``1456``, ``1456 (provisional)``, ``—`` for none."""
    _ = say
    if ordinal is None:
        return "—"
    if provisional:
        return _("{rating} (provisional)", rating=displayed(ordinal))
    return str(displayed(ordinal))


def _games(count: int, say: Texts) -> str:
    return say.ngettext("{count} game", "{count} games", count)


def _wins(count: int, say: Texts) -> str:
    return say.ngettext("{count} win", "{count} wins", count)


def _losses(count: int, say: Texts) -> str:
    return say.ngettext("{count} loss", "{count} losses", count)


def _draws(count: int, say: Texts) -> str:
    return say.ngettext("{count} draw", "{count} draws", count)


OUTCOME_COUNTS = {"win": _wins, "loss": _losses, "draw": _draws}


def _record(wins: int, losses: int, draws: int, say: Texts) -> str:
    return f"{_wins(wins, say)} · {_losses(losses, say)} · {_draws(draws, say)}"


def _short_record(wins: int, losses: int, draws: int | None, say: Texts) -> str:
    """``5W 1L`` (``draws`` ``None``: not shown), ``5W 1L 2D``."""
    _ = say
    if draws is None:
        return _("{wins}W {losses}L", wins=say.number(wins), losses=say.number(losses))
    return _("{wins}W {losses}L {draws}D", wins=say.number(wins), losses=say.number(losses),
               draws=say.number(draws))


def _rate(wins: int, games: int, say: Texts) -> str:
    _ = say
    return _("{percent}%", percent=round(100 * wins / games)) if games else "—"


def _page(page: int, pages: int, say: Texts) -> str:
    _ = say
    return _("Page {page} of {pages}", page=say.number(page), pages=say.number(pages))


def _signed(value: int, say: Texts) -> str:
    return ("+" if value >= 0 else "-") + say.number(abs(value))


def board_title(game: str, season: str, current: bool, say: Texts = ENGLISH) -> str:
    """``season``: the season's name as shown (:func:`season_name`)."""
    _ = say
    title = _("{game} leaderboard", game=game_title(game, say))
    return title if current else f"{title} — {season}"


def board_line(row: Any, say: Texts = ENGLISH) -> str:
    """One ranked player on a board, short enough for a phone: ``**1.** <@id> **1623** · 5W 1L`` (``1D`` only
    with draws). ``row``: a :class:`bot.storage.records.LeaderboardRow`."""
    record = _short_record(row.wins, row.losses, row.draws or None, say)
    return f"**{row.rank}.** {player(row.user_id, say)} **{rating_text(row.rating, say=say)}** · {record}"


def board(page: Any, title: str, say: Texts = ENGLISH) -> Surface:
    """A board's page as an embed's title and text: one :func:`board_line` per ranked player, best first (the
    storage's order: the stored ordinal, which the displayed rating follows). ``page``: a
    :class:`bot.storage.records.LeaderboardPage`."""
    return Surface(title, clamp("\n".join(board_line(row, say) for row in page.rows), say=say))


def chips_title(game: str, say: Texts = ENGLISH) -> str:
    _ = say
    return _("{game} — chips", game=game_title(game, say))


def chips_board(rows: Any, title: str, say: Texts = ENGLISH) -> Surface:
    """A chips board's page (a game played against the house): one line per player, most chips first, with the net
    of their tables. ``rows``: :class:`bot.storage.records.ChipBoardRow`."""
    _ = say
    lines = [_("**{rank}.** {player} — {chips} · net {net} over {tables}", rank=row.rank,
                 player=player(row.user_id, say),
                 chips=say.ngettext("**{count}** chip", "**{count}** chips", row.balance),
                 net=_signed(row.net, say), tables=say.ngettext("{count} table", "{count} tables", row.tables))
             for row in rows]
    return Surface(title, clamp("\n".join(lines), say=say))


def chips_footer(page: int, pages: int, say: Texts = ENGLISH) -> str:
    _ = say
    note = _("Play money of this server: not rated.")
    return f"{_page(page, pages, say)} · {note}" if pages > 1 else note


def bot_board_title(game: str, season: str, current: bool, say: Texts = ENGLISH) -> str:
    _ = say
    title = _("{game} — against me", game=game_title(game, say))
    return title if current else f"{title} — {season}"


def _level(level: str, say: Texts) -> str:
    _ = say
    return _(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level


def bot_board_line(standing: Any, say: Texts = ENGLISH) -> str:
    """One player on a board of matches against the bot, short enough for a phone:
    ``**1.** <@id> · beat **expert** · expert 3W 1L · hard 5W 2L`` (``1D`` only with draws).
    ``standing``: a :class:`bot.services.stats.BotStanding`."""
    _ = say
    records = " · ".join(_("{level} {record}", level=_level(record.level, say),
                             record=_short_record(record.wins, record.losses, record.draws or None, say))
                         for record in standing.records)
    beaten = (" · " + _("beat **{level}**", level=_level(standing.best_beaten, say))
              if standing.best_beaten else "")
    return f"**{standing.rank}.** {player(standing.user_id, say)}{beaten} · {records}"


def bot_board(shown: Any, say: Texts = ENGLISH) -> Surface:
    """A page of a board of matches against the bot (:class:`bot.services.stats.BotBoard`)."""
    return Surface(bot_board_title(shown.game, season_name(shown.season, say), shown.current, say),
                   clamp("\n".join(bot_board_line(standing, say) for standing in shown.rows), say=say))


def bot_board_footer(page: int, pages: int, say: Texts = ENGLISH) -> str:
    _ = say
    lines = [_page(page, pages, say)] if pages > 1 else []
    lines.append(_("Practice matches against me, unrated. Ranked by the strongest level beaten, then the wins at "
                     "it."))
    return "\n".join(lines)


def board_footer(game: str, min_games: int, *, page: int = 1, pages: int = 1, unranked: int = 0,
                 current: bool = True, say: Texts = ENGLISH) -> str:
    """The board's small print: the page, the provisional players not listed (``current``: of the season going
    on), how players get ranked."""
    _ = say
    lines = [_page(page, pages, say)] if pages > 1 else []
    if unranked:
        games = _games(min_games, say)
        if current:
            lines.append(say.ngettext("{count} provisional player (fewer than {games}) not ranked yet.",
                                      "{count} provisional players (fewer than {games}) not ranked yet.", unranked,
                                      games=games))
        else:
            lines.append(say.ngettext("{count} provisional player (fewer than {games}) not ranked.",
                                      "{count} provisional players (fewer than {games}) not ranked.", unranked,
                                      games=games))
    ranked = _("Ranked after {games}; a new rating starts at {start}.", games=_games(min_games, say),
                 start=DISPLAY_START)
    combined = " " + _("One rating over the matches of every game.") if game == COMBINED else ""
    explained = _("{help} explains the ratings.", help=command(say, "help"))
    lines.append(f"{ranked}{combined} {explained}")
    return "\n".join(lines)


def empty_board(min_games: int, unranked: int, season: str | None = None, say: Texts = ENGLISH) -> str:
    """What an empty board says instead (``season``: a past season's name)."""
    _ = say
    if season is not None:
        return _("Nobody was ranked on this board in {season}.", season=season)
    text = _("No ranked players yet: play {games} to be ranked.", games=_games(min_games, say))
    if unranked:
        text += "\n" + say.ngettext("{count} player has played fewer than {games} so far.",
                                    "{count} players have played fewer than {games} so far.", unranked,
                                    games=_games(min_games, say))
    return text


def no_bot_games(game: str, season: str | None = None, say: Texts = ENGLISH) -> str:
    """An empty board of matches against the bot (``season``: a past season's name)."""
    _ = say
    challenge = f"`{command(say, f'{game} challenge')}`"
    if season is None:
        return _("Nobody has played me at {game} this season: challenge me with {command}.",
                   game=game_title(game, say), command=challenge)
    return _("Nobody has played me at {game} in {season}: challenge me with {command}.",
               game=game_title(game, say), season=season, command=challenge)


def everywhere(records: Sequence[Any], here: int, names: Mapping[int, str], say: Texts = ENGLISH) -> str:
    """``/stats``'s lines on every place the player played (:class:`bot.services.stats.PlaceRecord`, most games
    first): the total, then a line per place (``here``: where the command is used; ``names``: the servers the bot
    knows by name; any other place is a DM, a group DM or a server without the bot). Empty when they played in one
    place only, or nowhere."""
    _ = say
    if len(records) < 2:
        return ""
    wins, losses, draws = (sum(getattr(r, key) for r in records) for key in ("wins", "losses", "draws"))
    lines = [_("**Everywhere:** {games} in {places} places: {record}", games=_games(wins + losses + draws, say),
               places=len(records), record=_record(wins, losses, draws, say))]
    for record in records:
        where = _("here") if record.place == here else names.get(record.place) or _("elsewhere")
        lines.append(f"· {where}: {_games(record.games, say)} "
                     f"({_short_record(record.wins, record.losses, record.draws, say)})")
    return "\n".join(lines)


def stats(data: Any, who: str, say: Texts = ENGLISH) -> Surface:
    """``/stats``: :class:`bot.services.stats.PlayerStats` of the player ``who`` (a mention)."""
    _ = say
    title = _("Stats — {game}", game=game_title(data.game, say))
    if not data.games:
        if data.game is None:
            return Surface(title, _("{player} hasn't finished a game on this server yet.", player=who))
        return Surface(title, _("{player} hasn't finished a game of {game} on this server yet.", player=who,
                                game=game_title(data.game, say)))
    lines = [_("**{player}** — {games}: {record} (win rate {rate})", player=who, games=_games(data.games, say),
               record=_record(data.wins, data.losses, data.draws, say), rate=_rate(data.wins, data.games, say))]
    streak = data.current_streak
    if streak.outcome is not None:
        lines.append(_("Current streak: {streak} · best winning streak: {best}",
                       streak=OUTCOME_COUNTS[streak.outcome](streak.length, say),
                       best=_wins(data.best_streak, say)))
    rating, best = rating_text(data.rating, data.provisional, say), rating_text(data.best_rating, say=say)
    if data.game is None:
        lines.append(_("This season's combined rating: {rating} · best ever: {best}", rating=rating, best=best))
    else:
        lines.append(_("This season's rating: {rating} · best ever: {best}", rating=rating, best=best))
    if data.most_played is not None:
        opponent, games = data.most_played
        lines.append(_("Most played opponent: {player} ({games})", player=player(opponent, say),
                       games=_games(games, say)))
    for game, times in getattr(data, "reactions", ()):
        ordered = sorted(times)
        lines.append(_.ngettext("Reaction times ({game}): median **{median} ms**, best {best} ms over {count} press",
                                "Reaction times ({game}): median **{median} ms**, best {best} ms over {count} presses",
                                len(times), game=game_title(game, say), median=_.number(ordered[len(ordered) // 2]),
                                best=_.number(ordered[0])))
    if data.game is None and data.per_game:
        lines.append("")
        for line in data.per_game:
            lines.append(_("**{game}**: {games}, {record} · rating {rating} · best {best}",
                           game=game_title(line.game, say), games=_games(line.games, say),
                           record=_short_record(line.wins, line.losses, line.draws, say),
                           rating=rating_text(line.rating, line.provisional, say),
                           best=rating_text(line.best_rating, say=say)))
    return Surface(title, clamp("\n".join(lines), say=say))


def rating_chart(data: Any, plain_name: str, say: Texts = ENGLISH) -> Picture | None:
    """The rating history as a line chart (one line per series, on the displayed scale); ``None`` without any
    game."""
    _ = say
    series = [(game_title(label, say), [displayed(value) for value in values]) for label, values in data.history
              if values]
    if not series:
        return None
    png = line_chart(series, title=_("{player}: rating history", player=plain_name),
                     x_label=_("matches played"), y_label=_("rating"), say=say)
    described = "; ".join(say.ngettext("{game} from {start} to {end} over {count} match",
                                       "{game} from {start} to {end} over {count} matches", len(values) - 1,
                                       game=label, start=values[0], end=values[-1]) for label, values in series)
    return Picture(png, "rating.png", clamp_line(_("Rating history: {series}", series=described), ALT_TEXT_LIMIT))


def _when(finished_at: float | None) -> str:
    return timestamp(finished_at, "d") if finished_at is not None else "—"


def history(page: Any, who: str, say: Texts = ENGLISH) -> Surface:
    """``/history``: a :class:`bot.services.stats.HistoryPage`, numbered newest first (#1 is the last match)."""
    _ = say
    title = _("Match history")
    if not page.total:
        return Surface(title, _("{player} hasn't finished a game on this server yet.", player=who))
    lines = ["**{}** — {}".format(who, _.ngettext("{count} finished match", "{count} finished matches", page.total))]
    for index, match in enumerate(page.matches, (page.page - 1) * page.per_page + 1):
        opponents = ", ".join(player(o, say) for o in match.opponents) or _("nobody")
        how = REASON_WORDS.get(match.reason or "")
        outcome = _(OUTCOME_MARKS[match.outcome]) + (f" ({_(how)})" if how else "")
        change = f"{displayed(match.rating_after) - displayed(match.rating_before):+d}"
        channel = f"<#{match.play_channel_id}>"
        lines.append(_("**{index}.** {outcome} · {game} vs {opponents} · {when} · {channel} · rating {rating} "
                       "({change}) · match {match}", index=index, outcome=outcome,
                       game=game_title(match.game, say), opponents=opponents, when=_when(match.finished_at),
                       channel=channel, rating=rating_text(match.rating_after, say=say), change=change,
                       match=match.match_id))
    if page.pages > 1:
        lines.append(_page(page.page, page.pages, say))
    return Surface(title, clamp("\n".join(lines), say=say))


def head_to_head(h2h: Any, say: Texts = ENGLISH) -> Surface:
    """``/h2h``: a :class:`bot.services.stats.HeadToHead`."""
    _ = say
    first, second = player(h2h.first, say), player(h2h.second, say)
    title = _("Head to head — {game}", game=game_title(h2h.game, say))
    if not h2h.games:
        return Surface(title, _("{first} and {second} haven't finished a game together on this server yet.",
                                first=first, second=second))
    lines = [_("{first} vs {second}: {games}", first=first, second=second, games=_games(h2h.games, say)),
             f"{first}: {_wins(h2h.first_wins, say)} · {second}: {_wins(h2h.second_wins, say)} · "
             f"{_draws(h2h.draws, say)}"]
    if h2h.others:
        lines.append(_("Won by someone else: {count}", count=_.number(h2h.others)))
    lines.append("")
    lines.append(_("Last matches:"))
    for match in h2h.recent:
        won = _("draw") if match.winner_id is None else _("{player} won", player=player(match.winner_id, say))
        lines.append(f"• {game_title(match.game, say)} · {won} · {_when(match.finished_at)} · "
                     f"<#{match.play_channel_id}>")
    return Surface(title, clamp("\n".join(lines), say=say))


def seasons(items: Sequence[Any], say: Texts = ENGLISH) -> str:
    """``/season list``: every season, the current one last."""
    _ = say
    lines = [_("**Seasons**")]
    for season in items:
        name = season_name(season, say)
        if season.current:
            line = (_("{number}. {name} (current)", number=season.number, name=name) if season.started_at is None
                    else _("{number}. {name} from {start} (current)", number=season.number, name=name,
                           start=timestamp(season.started_at, "d")))
        else:
            line = (_("{number}. {name} to {end}", number=season.number, name=name,
                      end=timestamp(season.ended_at, "d")) if season.started_at is None
                    else _("{number}. {name} from {start} to {end}", number=season.number, name=name,
                           start=timestamp(season.started_at, "d"), end=timestamp(season.ended_at, "d")))
        lines.append(line)
    return clamp("\n".join(lines), say=say)


def rules_text(rules: Mapping[str, Any]) -> str:
    """``{"aces": "low", "stack": 3}`` -> ``aces=low stack=3`` (the form /settings takes them in: the same in
    every language)."""

    def show(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return "none" if value is None else str(value)

    return " ".join(f"{key}={show(value)}" for key, value in sorted(rules.items()))


def _war_pace(pace: str, say: Texts) -> str:
    if pace == "flip":
        return say.pgettext("war pace", "flip")
    if pace == "auto":
        return say.pgettext("war pace", "auto")
    if pace == "instant":
        return say.pgettext("war pace", "instant")
    return pace


def settings(current: Any, games: Sequence[str], say: Texts = ENGLISH) -> str:
    """``/settings show``: a :class:`bot.storage.settings.GuildSettings`."""
    _ = say
    channels = ", ".join(f"<#{c}>" for c in current.start_channels) or _("any channel")
    lines = [
        _("**Server settings**"),
        _("Air War arrangement timer: {seconds} s", seconds=_.number(current.arrange_seconds)),
        _("Air War flip pace: {seconds} s between flips", seconds=_.number(current.flip_pace_ms / 1000)),
        _("War's default pace: {pace}", pace=_war_pace(current.war_pace, say)),
        _("Thread per match: on") if current.thread_per_match else
        _("Thread per match: off (matches play in the channel)"),
        _("Matches may start in: {channels}", channels=channels),
        _("Public messages in: {language}", language=LANGUAGES.get(current.language, current.language)),
        _("Default rules:"),
    ]
    rules: Mapping[str, Mapping[str, Any]] = current.default_rules
    defaults = _("the game’s defaults")
    for game in games:
        given = rules.get(game)
        lines.append(f"• {game_title(game, say)}: {rules_text(given) if given else defaults}")
    declared = [plugin for plugin in registry().plugins if plugin.name in games and plugin.settings]
    if declared:
        lines.append(_("Game settings:"))
    for plugin in declared:
        stored = current.game_settings.get(plugin.name, {})
        lines += [f"• {game_title(plugin.name, say)}: {_(setting.label)}: {stored.get(setting.key, setting.default)}"
                  for setting in plugin.settings]
    return clamp("\n".join(lines), say=say)
