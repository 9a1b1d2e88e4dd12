"""A tournament's messages in the channel, as text: its status message, the Ready call of each round and the summary
of each round once it is over.

Pure: takes the stored records (:mod:`bot.storage.tournaments`), the bracket (:class:`bot.tournaments.Tournament`)
and plain names (player id -> display name, for button labels). Players are mentioned in messages (a deleted
player, a negative id, is "deleted player"). Rules are in the game's own words: each game's ``render.rules_text``.
Every text is in the language of ``say`` (a :class:`~bot.i18n.Texts`, English by default): the server's for the
channel's messages, the member's for a private answer.

A Ready call is one message per round, or several when a round has more than :data:`CALLS_PER_MESSAGE` matches:
each match has its own line and its own Ready button, and Discord allows 25 buttons and 2,000 characters per
message; :data:`CALLS_PER_MESSAGE` keeps the longest lines of a call within the characters (see
:func:`call_parts`).
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any

from bot.i18n import Texts
from bot.registry import game_class, registry
from bot.render.bracket import FORMAT_NAMES, mention, player_name, points_text, round_name
from bot.render.common import (
    BUTTON_LABEL_LIMIT,
    EMBED_DESCRIPTION_LIMIT,
    EMBED_TITLE_LIMIT,
    ENGLISH,
    MESSAGE_LIMIT,
    clamp,
    clamp_line,
    join_words,
    name,
    timestamp,
)
from bot.storage.tournaments import BracketMatchRecord, EntrantRecord, TournamentEvent, TournamentRecord
from bot.tournaments import Format, Match, MatchOutcome, Round, Tournament

#: the matches one Ready call message holds at most (Discord: 25 buttons, 2,000 characters; a line can take ~100)
CALLS_PER_MESSAGE = 16
#: players named on the status message before the rest are counted
PLAYERS_LISTED = 100
#: results a round's summary lists before the rest are counted (the bracket picture has them all)
SUMMARY_LIMIT = MESSAGE_LIMIT - 100
NAME_IN_LABEL = 30


# --- the game's words ----------------------------------------------------------------------------------------


def _game_render(game: str) -> ModuleType | None:
    try:
        return import_module(f"{registry().entry(game).plugin.package}.render")
    except ImportError:
        return None


def _takes_say(function: Any) -> bool:
    try:
        return "say" in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def rules_words(game: str, rules: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    """The rules as the game words them (its ``render.rules_text``: War's takes the game's name too, a variant's
    defaults being its own; in ``say``'s language where it takes one); a game without one: the rules that differ
    from its defaults, ``key: value``."""
    _ = say
    module = _game_render(game)
    describe = getattr(module, "rules_text", None)
    if callable(describe):
        positional = [p for p in inspect.signature(describe).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        takes_game = len(positional) >= 2
        extra = {"say": say} if _takes_say(describe) else {}
        return str(describe(game, rules, **extra) if takes_game else describe(rules, **extra))
    changed = [f"{option.key}: {_value(rules[option.key], say)}" for option in game_class(game).options
               if option.key != "players" and option.key in rules and rules[option.key] != option.default]
    return " · ".join(changed) or _("standard rules")


def _value(value: Any, say: Texts = ENGLISH) -> str:
    _ = say
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return say.pgettext("no value", "none") if value is None else str(value)


def pace_words(game: str, pace: str, say: Texts = ENGLISH) -> str:
    """A pace as the game words it (its ``render.PACE_WORDS``, marked for the catalogues), else its name."""
    words = getattr(_game_render(game), "PACE_WORDS", {})
    return say(str(words[pace])) if pace in words else pace


def title(tournament: TournamentRecord, say: Texts = ENGLISH) -> str:
    return (f"{tournament.name} · {say(game_class(tournament.game).title)} · "
            f"{say(FORMAT_NAMES[Format(tournament.format)])}")


def settings_line(tournament: TournamentRecord, say: Texts = ENGLISH) -> str:
    """How matches are played: games per match, the Ready window, the pace."""
    _ = say
    options = tournament.options
    best_of = options.get("best_of", 1)
    parts = [_("one game per match") if best_of == 1
             else _.ngettext("best of {count} game", "best of {count} games", best_of)]
    no_show = options.get("no_show", 0)
    if no_show:
        parts.append(_.ngettext("press Ready within {count} minute of a call",
                                "press Ready within {count} minutes of a call", max(1, no_show // 60)))
    else:
        parts.append(_("games start as soon as a match is called"))
    if "pace" in options:
        parts.append(_("pace: {pace}", pace=pace_words(tournament.game, options["pace"], say)))
    return " · ".join(parts)


# --- rounds ----------------------------------------------------------------------------------------------------


def _round(bracket: Tournament, label: str) -> Round | None:
    return next((round_ for round_ in bracket.rounds() if round_.label == label), None)


# --- the Ready call ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CallButton:
    """One match's button on a call: ``key`` (the bracket match), its label, and whether it can still be pressed."""

    key: str
    label: str
    live: bool


def call_parts(count_: int) -> list[int]:
    """How many of a round's ``count_`` called matches each of its call messages holds: as few messages as
    :data:`CALLS_PER_MESSAGE` allows, evenly filled (32 matches: 16 and 16)."""
    messages = max(1, -(-count_ // CALLS_PER_MESSAGE))
    size, extra = divmod(count_, messages)
    return [size + (1 if index < extra else 0) for index in range(messages)]


def call_run(events: Sequence[TournamentEvent], start: int) -> int:
    """The index of the last ``call`` event of the round whose call starts at ``events[start]``: the calls of the
    same round that follow it, with the bot's Ready of those matches between them, are one call (posted on as
    few messages as :func:`call_parts` says; a round split over two runs would read "(1 of 2)", "(2 of 2)" where
    one message holds it all)."""
    label = events[start].event["round"]
    keys = {events[start].event["key"]}
    end = start
    for index in range(start + 1, len(events)):
        event = events[index]
        if event.type == "call" and event.event["round"] == label:
            keys.add(event.event["key"])
            end = index
        elif not (event.type == "ready" and event.event["key"] in keys):
            break
    return end


def _score(row: BracketMatchRecord, best_of: int, say: Texts = ENGLISH) -> str:
    """A decided series' score after its result (`` 2–1``); one game a match: the drawn games played again
    before it (`` (after 1 drawn game)``), else nothing."""
    if sum(row.wins) + row.draws == 0:
        return ""
    if best_of <= 1:
        if not row.draws or not sum(row.wins):
            return ""
        return " " + say.ngettext("(after {count} drawn game)", "(after {count} drawn games)", row.draws)
    return f" {max(row.wins)}–{min(row.wins)}"


def call_state(row: BracketMatchRecord, best_of: int, say: Texts = ENGLISH) -> str:
    """Where a called match stands, after its pairing: empty while it waits for Ready."""
    _ = say
    if row.status == "called":
        return ""
    if row.status == "waiting":
        return " — " + (_("⏳ waits for a player's other game") if row.outcome == "busy" else _("▶️ starting"))
    if row.status == "playing":
        return " — " + playing_words(row, say)
    return " — " + result_words(row, best_of, say)


def playing_words(row: BracketMatchRecord, say: Texts = ENGLISH) -> str:
    """A match whose game is under way: which game, and how the games before it went (a drawn game is played
    again: "Game 1 was a draw: ▶️ playing game 2"; a series' score in the call's order of players)."""
    _ = say
    played = sum(row.wins) + row.draws
    if not played:
        return _("▶️ playing")
    if not sum(row.wins):
        return _.ngettext("Game {count} was a draw: ▶️ playing game {number}",
                          "Games 1–{count} were draws: ▶️ playing game {number}", row.draws, number=played + 1)
    score = f"{row.wins[0]}–{row.wins[1]}"
    if row.draws:
        score += ", " + _.ngettext("{count} draw", "{count} draws", row.draws)
    return _("▶️ playing game {number} ({score})", number=played + 1, score=score)


def result_words(row: BracketMatchRecord, best_of: int, say: Texts = ENGLISH) -> str:
    """A decided match's result, short (players mentioned)."""
    _ = say
    winner = None if row.winner_id is None else mention(row.winner_id, say)
    if row.outcome == "cancelled":
        return _("✖️ called off")
    if row.outcome == "no_show":
        return _("🏁 {winner} wins: no-show", winner=winner)
    if row.outcome == "double_no_show":
        return _("🏁 {winner} goes on: no-shows", winner=winner) if winner else _("🏁 a draw: no-shows")
    if row.outcome == "disqualified":
        return _("🏁 {winner} wins by forfeit", winner=winner)
    if winner is None:
        return _("🏁 a draw{score}", score=_score(row, best_of, say))
    return _("🏁 {winner} wins{score}", winner=winner, score=_score(row, best_of, say))


def call_text(tournament: TournamentRecord, round_title: str, rows: Sequence[BracketMatchRecord], *,
              first_number: int, part: tuple[int, int], bye: int | None = None, say: Texts = ENGLISH) -> str:
    """One Ready call message: the round, what to do by when, one numbered line per match (``first_number`` the
    first line's number within the round); ``part`` (this message, of how many) when the round takes several."""
    _ = say
    best_of = tournament.options.get("best_of", 1)
    ready_check = bool(tournament.options.get("no_show", 0))
    which = " " + _("({number} of {total})", number=part[0], total=part[1]) if part[1] > 1 else ""
    head = f"📣 **{tournament.name}** · **{round_title}**{which}: "
    called = [row for row in rows if row.status == "called"]
    if not tournament.is_open:
        head += _("over.") if tournament.status == "finished" else _("the tournament was cancelled.")
    elif not called:
        head += _("every match here is under way or over.")
    elif not ready_check:
        head += _("your games start now.")
    elif tournament.status == "paused":
        head += _("⏸️ the tournament is paused; press **Ready** on your match once it goes on.")
    else:
        deadlines = [row.deadline_at for row in called if row.deadline_at is not None]
        if deadlines:
            head += _("press **Ready** on your match by {time}; who doesn't forfeits. A game starts once both "
                      "players are ready.", time=timestamp(min(deadlines)))
        else:
            head += _("press **Ready** on your match; who doesn't forfeits. A game starts once both players are "
                      "ready.")
    lines = [head]
    for number, row in enumerate(rows, start=first_number):
        marks = [" ✅" if ready and row.status == "called" else "" for ready in row.ready]
        first, second = (mention(player, say) + mark for player, mark in zip(row.players, marks, strict=True))
        lines.append(f"{number}. " + _.pgettext("a call's pairing, short", "{first} vs {second}", first=first,
                                                 second=second)
                     + call_state(row, best_of, say))
    if bye is not None:
        lines.append(_("Bye this round: {player}.", player=mention(bye, say)))
    return clamp("\n".join(lines), say=say)


def call_buttons(tournament: TournamentRecord, rows: Sequence[BracketMatchRecord],
                 names: Mapping[int, str], say: Texts = ENGLISH) -> list[CallButton]:
    """A Ready button per match (none when the tournament has no ready check): live while the match waits for its
    players' Ready and the tournament is open; else disabled, saying why."""
    _ = say
    if not tournament.options.get("no_show", 0):
        return []
    buttons = []
    for row in rows:
        first, second = (clamp_line(player_name(names, player, say=say), NAME_IN_LABEL) for player in row.players)
        live = row.status == "called" and tournament.is_open
        if live:
            label = _("Ready: {first} vs {second}", first=first, second=second)
        elif row.outcome == "cancelled" or (row.status != "decided" and not tournament.is_open):
            label = _("{first} vs {second}: called off", first=first, second=second)
        elif row.status == "decided":
            label = _("{first} vs {second}: over", first=first, second=second)
        else:
            label = _("{first} vs {second}: under way", first=first, second=second)
        buttons.append(CallButton(row.key, clamp_line(label, BUTTON_LABEL_LIMIT), live))
    return buttons


def bye_of(bracket: Tournament, label: str) -> int | None:
    """The player with a bye in a round-robin or Swiss round (``None``: nobody, or an elimination round)."""
    round_ = _round(bracket, label)
    if round_ is None or round_.bracket != "rounds":
        return None
    return next((match.winner for match in round_.matches if match.outcome is MatchOutcome.BYE), None)


# --- the summary of a round ------------------------------------------------------------------------------------


def _summary_line(match: Match, row: BracketMatchRecord | None, best_of: int, say: Texts) -> str | None:
    _ = say
    first, second = match.players
    if match.outcome is MatchOutcome.BYE:
        return _("{player} had a bye", player=mention(match.winner, say))
    if match.outcome is MatchOutcome.VOID or first is None or second is None:
        return None
    winner = mention(match.winner, say)
    if row is None or row.outcome == "disqualified" or match.outcome is MatchOutcome.FORFEIT:
        loser = second if match.winner == first else first
        return _("{winner} wins by forfeit ({loser} was disqualified)", winner=winner, loser=mention(loser, say))
    score = _score(row, best_of, say)
    if match.winner is None:
        if row.outcome == "double_no_show":
            return _("{first} and {second} drew{score} (neither showed up)", first=mention(first, say),
                     second=mention(second, say), score=score)
        return _("{first} and {second} drew{score}", first=mention(first, say), second=mention(second, say),
                 score=score)
    loser = mention(second if match.winner == first else first, say)
    if row.outcome == "no_show":
        return _("{winner} goes through: {loser} didn't show up", winner=winner, loser=loser)
    if row.outcome == "double_no_show":
        return _("{winner} goes through: neither showed up, the better seed goes on", winner=winner)
    return _("{winner} beat {loser}{score}", winner=winner, loser=loser, score=score)


def summary_text(tournament: TournamentRecord, bracket: Tournament, label: str,
                 rows: Mapping[str, BracketMatchRecord], names: Mapping[int, str], *,
                 champion: int | None = None, over: bool = False, say: Texts = ENGLISH) -> str:
    """The message that sums up a round once it is over: each match's result; in round robin and Swiss the
    leaders; ``over``: the tournament ended with it (and ``champion`` won it)."""
    _ = say
    best_of = tournament.options.get("best_of", 1)
    round_ = _round(bracket, label)
    lines = ["🏁 " + _("**{name}** · **{round}** is over:", name=tournament.name,
                       round=round_name(bracket, label, say))]
    results = [] if round_ is None else [line for match in round_.matches
                                          if (line := _summary_line(match, rows.get(match.key), best_of, say))]
    tail: list[str] = []
    if not bracket.is_elimination:
        leaders = " · ".join(
            _("{place}. {player} {points} pts", place=row.place, player=name(player_name(names, row.player, say=say)),
              points=points_text(row.score, say))
            for row in bracket.standings()[:3])
        tail.append(_("Final standings: {leaders}", leaders=leaders) if over
                    else _("Leaders: {leaders}", leaders=leaders))
    if over:
        tail.append("🏆 " + (_("{player} is the champion of **{name}**!", player=mention(champion, say),
                                name=tournament.name) if champion is not None
                               else _("**{name}** is over, without a champion.", name=tournament.name)))
        final = bracket.matches()[-1] if bracket.is_elimination else None
        if final is not None and final.outcome is MatchOutcome.WIN and final.loser is not None:
            tail.append("🥈 " + _("Runner-up: {player} (lost the final)", player=mention(final.loser, say)))
    size = len(lines[0]) + sum(len(line) + 1 for line in tail)
    shown = 0
    for line in results:
        if size + len(line) + 3 > SUMMARY_LIMIT:
            break
        lines.append(f"• {line}")
        size += len(line) + 3
        shown += 1
    if shown < len(results):
        lines.append(_.ngettext("… and {count} more: the bracket has them all.",
                                "… and {count} more: the bracket has them all.", len(results) - shown))
    return clamp("\n".join(lines + tail), say=say)


def champion_text(tournament: TournamentRecord, champion: int | None, say: Texts = ENGLISH) -> str:
    """The end, when no round's summary carried it (a Swiss that could not pair another round)."""
    _ = say
    if champion is None:
        return "🏆 " + _("**{name}** is over, without a champion.", name=tournament.name)
    return "🏆 " + _("**{name}** is over: {player} is the champion!", name=tournament.name,
                      player=mention(champion, say))


# --- the status message ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StatusText:
    title: str
    description: str


def status_text(tournament: TournamentRecord, entrants: Sequence[EntrantRecord], bracket: Tournament | None,
                open_rows: Sequence[BracketMatchRecord], *, by: int | None = None,
                say: Texts = ENGLISH) -> StatusText:
    """The tournament's one status message, whatever its stage (the bracket picture goes with it once it runs):
    what is happening now, how it is played, its rules, its players. ``by``: who paused or cancelled it."""
    _ = say
    headline = _headline(tournament, bracket, open_rows, by, len(entrants), say)
    lines = [headline, "",
             _("**How:** {settings}", settings=settings_line(tournament, say)),
             _("**Rules:** {rules}", rules=rules_words(tournament.game, tournament.rules, say)),
             _("**Organiser:** {player}", player=mention(tournament.organiser_id, say))]
    if bracket is None:
        note = bot_seat_note(tournament, say)
        if note:
            lines.insert(1, note)
        checking = tournament.status == "check_in"
        players = [mention(p.user_id, say) + (" ✅" if checking and p.checked_in else "") for p in entrants]
        listed = _listing(players, _("nobody yet"), say)
        lines.append(_("**Players ({count}):** {players}", count=len(players), players=listed))
    else:
        seeds = [f"{seed}. {mention(player, say)}" for seed, player in enumerate(bracket.players, start=1)]
        listed = _listing(seeds, _.pgettext("no players", "none"), say)
        lines.append(_("**Seeds ({count}):** {players}", count=len(seeds), players=listed))
        left_out = [mention(p.user_id, say) for p in entrants if p.user_id not in set(bracket.players)]
        if left_out:
            lines.append(_("**Not checked in, left out:** {players}", players=_listing(left_out, "", say)))
        if bracket.disqualified:
            lines.append(_("**Disqualified:** {players}",
                           players=join_words([mention(p, say) for p in bracket.disqualified], say)))
    return StatusText(clamp_line(f"🏟️ {title(tournament, say)}", EMBED_TITLE_LIMIT),
                      clamp("\n".join(lines), EMBED_DESCRIPTION_LIMIT, say))


def bot_seat_note(tournament: TournamentRecord, say: Texts = ENGLISH) -> str | None:
    """What the signup says when the bot fills an odd seat (``None``: it doesn't, or the tournament has begun)."""
    _ = say
    bot = tournament.options.get("bot")
    if bot is None or tournament.status not in ("signup", "check_in"):
        return None
    return "🤖 " + _("If an odd number of players start, I play too, so that everyone has an opponent (level: "
                    "{level}); games against me are unrated.", level=bot["level"])


def _listing(items: Sequence[str], empty: str, say: Texts = ENGLISH) -> str:
    shown = list(items[:PLAYERS_LISTED])
    text = ", ".join(shown) if shown else empty
    if len(items) > len(shown):
        text += " " + say.ngettext("… and {count} more", "… and {count} more", len(items) - len(shown))
    return text


def _headline(tournament: TournamentRecord, bracket: Tournament | None, open_rows: Sequence[BracketMatchRecord],
              by: int | None, signed_up: int, say: Texts = ENGLISH) -> str:
    _ = say
    status = tournament.status
    if status == "signup":
        closes = (_("signup closes {time}", time=timestamp(tournament.signup_closes_at))
                  if tournament.signup_closes_at else _("the organiser starts it with `/tournament start`"))
        return _("**Signup is open:** press **Join** to play ({count} of at most {most}); {closes}.",
                 count=signed_up, most=tournament.options.get("max_players"), closes=closes)
    if status == "check_in":
        if tournament.check_in_ends_at:
            return _("**Check-in:** press **Check in** by {time}; who hasn't is left out.",
                     time=timestamp(tournament.check_in_ends_at))
        return _("**Check-in:** press **Check in** before the start; who hasn't is left out.")
    if status == "cancelled":
        if bracket is None and by is None:
            return "✖️ " + _("**Cancelled:** fewer than two players.")
        return "✖️ " + (_("**Cancelled** by {player}.", player=mention(by, say)) if by is not None
                        else _("**Cancelled.**"))
    if status == "finished":
        champion = tournament.champion_id
        return "🏆 " + (_("**Champion: {player}**", player=mention(champion, say)) if champion is not None
                        else _("**Over**, without a champion."))
    now = ""
    if bracket is not None:
        labels = list(dict.fromkeys(row.round for row in open_rows))
        if labels:
            playing = [_.ngettext("{round} ({count} match to play)", "{round} ({count} matches to play)",
                                  sum(1 for row in open_rows if row.round == label),
                                  round=round_name(bracket, label, say))
                       for label in labels]
            now = _("**Now:** {rounds}", rounds=" · ".join(playing))
    if status == "paused":
        paused = (_("⏸️ **Paused** by {player}: no new games and no no-show clocks until it goes on.",
                    player=mention(by, say)) if by is not None
                  else _("⏸️ **Paused**: no new games and no no-show clocks until it goes on."))
        return paused + (f"\n{now}" if now else "")
    return now or _("**Running.**")
