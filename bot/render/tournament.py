"""A tournament's messages in the channel, as text: its status message, the Ready call of each round and the summary
of each round once it is over.

Pure: takes the stored records (:mod:`bot.storage.tournaments`), the bracket (:class:`bot.tournaments.Tournament`)
and plain names (player id -> display name, for button labels). Players are mentioned in messages (a deleted
player, a negative id, is "deleted player"). Rules are in the game's own words: each game's ``render.rules_text``.

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

from bot.games import game_class, registry
from bot.render.bracket import FORMAT_NAMES, mention, player_name
from bot.render.common import (
    BUTTON_LABEL_LIMIT,
    EMBED_DESCRIPTION_LIMIT,
    EMBED_TITLE_LIMIT,
    MESSAGE_LIMIT,
    clamp,
    clamp_line,
    count,
    join_words,
    name,
    timestamp,
)
from bot.storage.tournaments import BracketMatchRecord, EntrantRecord, TournamentRecord
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


def rules_words(game: str, rules: Mapping[str, Any]) -> str:
    """The rules as the game words them (its ``render.rules_text``: War's takes the game's name too, a variant's
    defaults being its own); a game without one: the rules that differ from its defaults, ``key: value``."""
    module = _game_render(game)
    describe = getattr(module, "rules_text", None)
    if callable(describe):
        positional = [p for p in inspect.signature(describe).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        takes_game = len(positional) >= 2
        return str(describe(game, rules) if takes_game else describe(rules))
    changed = [f"{option.key}: {_value(rules[option.key])}" for option in game_class(game).options
               if option.key != "players" and option.key in rules and rules[option.key] != option.default]
    return " · ".join(changed) or "standard rules"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def pace_words(game: str, pace: str) -> str:
    """A pace as the game words it (its ``render.PACE_WORDS``), else its name."""
    words = getattr(_game_render(game), "PACE_WORDS", {})
    return str(words.get(pace, pace))


def title(tournament: TournamentRecord) -> str:
    return f"{tournament.name} · {game_class(tournament.game).title} · {FORMAT_NAMES[Format(tournament.format)]}"


def settings_line(tournament: TournamentRecord) -> str:
    """How matches are played: games per match, the Ready window, the pace."""
    options = tournament.options
    best_of = options.get("best_of", 1)
    parts = ["one game per match" if best_of == 1 else f"best of {best_of} games"]
    no_show = options.get("no_show", 0)
    if no_show:
        parts.append(f"press Ready within {count(max(1, no_show // 60), 'minute')} of a call")
    else:
        parts.append("games start as soon as a match is called")
    if "pace" in options:
        parts.append(f"pace: {pace_words(tournament.game, options['pace'])}")
    return " · ".join(parts)


# --- rounds ----------------------------------------------------------------------------------------------------


def round_name(bracket: Tournament, label: str) -> str:
    """A round as players call it: ``Semifinals``, ``Losers' round 2``, ``Grand final``, ``Round 3 of 5``."""
    rounds = bracket.rounds()
    found = next((round_ for round_ in rounds if round_.label == label), None)
    if found is None:
        return f"Round {label}"
    if found.bracket == "rounds":
        total = len(rounds) if bracket.format is Format.ROUND_ROBIN else bracket.options.get("rounds")
        return f"Round {found.number} of {total}" if total else f"Round {found.number}"
    if found.bracket == "grand_final":
        return "Grand final" if found.number == 1 else "Grand final reset"
    from_end = sum(1 for round_ in rounds if round_.bracket == found.bracket) - found.number
    if bracket.format is Format.SINGLE_ELIMINATION:
        return {0: "Final", 1: "Semifinals", 2: "Quarterfinals"}.get(from_end, f"Round {found.number}")
    side = "Winners'" if found.bracket == "winners" else "Losers'"
    return f"{side} final" if from_end == 0 else f"{side} round {found.number}"


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


def _score(row: BracketMatchRecord, best_of: int) -> str:
    if best_of <= 1 or sum(row.wins) + row.draws == 0:
        return ""
    return f" {max(row.wins)}–{min(row.wins)}"


def call_state(row: BracketMatchRecord, best_of: int) -> str:
    """Where a called match stands, after its pairing: empty while it waits for Ready."""
    if row.status == "called":
        return ""
    if row.status == "waiting":
        return " — ⏳ waits for a player's other game" if row.outcome == "busy" else " — ▶️ starting"
    if row.status == "playing":
        played = sum(row.wins) + row.draws
        return f" — ▶️ playing game {played + 1},{_score(row, best_of)}" if played else " — ▶️ playing"
    return " — " + result_words(row, best_of)


def result_words(row: BracketMatchRecord, best_of: int) -> str:
    """A decided match's result, short (players mentioned)."""
    winner = None if row.winner_id is None else mention(row.winner_id)
    if row.outcome == "cancelled":
        return "✖️ called off"
    if row.outcome == "no_show":
        return f"🏁 {winner} wins: no-show"
    if row.outcome == "double_no_show":
        return f"🏁 {winner} goes on: no-shows" if winner else "🏁 a draw: no-shows"
    if row.outcome == "disqualified":
        return f"🏁 {winner} wins by forfeit"
    if winner is None:
        return f"🏁 a draw{_score(row, best_of)}"
    return f"🏁 {winner} wins{_score(row, best_of)}"


def call_text(tournament: TournamentRecord, round_title: str, rows: Sequence[BracketMatchRecord], *,
              first_number: int, part: tuple[int, int], bye: int | None = None) -> str:
    """One Ready call message: the round, what to do by when, one numbered line per match (``first_number`` the
    first line's number within the round); ``part`` (this message, of how many) when the round takes several."""
    best_of = tournament.options.get("best_of", 1)
    ready_check = bool(tournament.options.get("no_show", 0))
    which = f" ({part[0]} of {part[1]})" if part[1] > 1 else ""
    head = f"📣 **{tournament.name}** · **{round_title}**{which}"
    called = [row for row in rows if row.status == "called"]
    if not tournament.is_open:
        head += ": over." if tournament.status == "finished" else ": the tournament was cancelled."
    elif not called:
        head += ": every match here is under way or over."
    elif not ready_check:
        head += ": your games start now."
    elif tournament.status == "paused":
        head += ": ⏸️ the tournament is paused; press **Ready** on your match once it goes on."
    else:
        deadlines = [row.deadline_at for row in called if row.deadline_at is not None]
        by = f" by {timestamp(min(deadlines))}" if deadlines else ""
        head += (f": press **Ready** on your match{by}; who doesn't forfeits. A game starts once both players "
                 "are ready.")
    lines = [head]
    for number, row in enumerate(rows, start=first_number):
        marks = [" ✅" if ready and row.status == "called" else "" for ready in row.ready]
        first, second = (mention(player) + mark for player, mark in zip(row.players, marks, strict=True))
        lines.append(f"{number}. {first} vs {second}{call_state(row, best_of)}")
    if bye is not None:
        lines.append(f"Bye this round: {mention(bye)}.")
    return clamp("\n".join(lines))


def call_buttons(tournament: TournamentRecord, rows: Sequence[BracketMatchRecord],
                 names: Mapping[int, str]) -> list[CallButton]:
    """A Ready button per match (none when the tournament has no ready check): live while the match waits for its
    players' Ready and the tournament is open; else disabled, saying why."""
    if not tournament.options.get("no_show", 0):
        return []
    buttons = []
    for row in rows:
        first, second = (clamp_line(player_name(names, player), NAME_IN_LABEL) for player in row.players)
        pairing = f"{first} vs {second}"
        live = row.status == "called" and tournament.is_open
        if live:
            label = f"Ready: {pairing}"
        else:
            done = "called off" if row.outcome == "cancelled" or (row.status != "decided" and not tournament.is_open) \
                else "over" if row.status == "decided" else "under way"
            label = f"{pairing}: {done}"
        buttons.append(CallButton(row.key, clamp_line(label, BUTTON_LABEL_LIMIT), live))
    return buttons


def bye_of(bracket: Tournament, label: str) -> int | None:
    """The player with a bye in a round-robin or Swiss round (``None``: nobody, or an elimination round)."""
    round_ = _round(bracket, label)
    if round_ is None or round_.bracket != "rounds":
        return None
    return next((match.winner for match in round_.matches if match.outcome is MatchOutcome.BYE), None)


# --- the summary of a round ------------------------------------------------------------------------------------


def _summary_line(match: Match, row: BracketMatchRecord | None, best_of: int) -> str | None:
    first, second = match.players
    if match.outcome is MatchOutcome.BYE:
        return f"{mention(match.winner)} had a bye"
    if match.outcome is MatchOutcome.VOID or first is None or second is None:
        return None
    if row is None or row.outcome == "disqualified" or match.outcome is MatchOutcome.FORFEIT:
        loser = second if match.winner == first else first
        return f"{mention(match.winner)} wins by forfeit ({mention(loser)} was disqualified)"
    score = _score(row, best_of)
    if match.winner is None:
        how = " (neither showed up)" if row.outcome == "double_no_show" else ""
        return f"{mention(first)} and {mention(second)} drew{score}{how}"
    loser = second if match.winner == first else first
    if row.outcome == "no_show":
        return f"{mention(match.winner)} goes through: {mention(loser)} didn't show up"
    if row.outcome == "double_no_show":
        return f"{mention(match.winner)} goes through: neither showed up, the better seed goes on"
    return f"{mention(match.winner)} beat {mention(loser)}{score}"


def summary_text(tournament: TournamentRecord, bracket: Tournament, label: str,
                 rows: Mapping[str, BracketMatchRecord], names: Mapping[int, str], *,
                 champion: int | None = None, over: bool = False) -> str:
    """The message that sums up a round once it is over: each match's result; in round robin and Swiss the
    leaders; ``over``: the tournament ended with it (and ``champion`` won it)."""
    best_of = tournament.options.get("best_of", 1)
    round_ = _round(bracket, label)
    lines = [f"🏁 **{tournament.name}** · **{round_name(bracket, label)}** is over:"]
    results = [] if round_ is None else [line for match in round_.matches
                                          if (line := _summary_line(match, rows.get(match.key), best_of))]
    tail: list[str] = []
    if not bracket.is_elimination:
        leaders = [f"{row.place}. {name(player_name(names, row.player))} {row.score:g} pts"
                   for row in bracket.standings()[:3]]
        tail.append(("Final standings: " if over else "Leaders: ") + " · ".join(leaders))
    if over:
        tail.append(f"🏆 {mention(champion)} is the champion of **{tournament.name}**!" if champion is not None
                    else f"🏆 **{tournament.name}** is over, without a champion.")
    size = len(lines[0]) + sum(len(line) + 1 for line in tail)
    shown = 0
    for line in results:
        if size + len(line) + 3 > SUMMARY_LIMIT:
            break
        lines.append(f"• {line}")
        size += len(line) + 3
        shown += 1
    if shown < len(results):
        lines.append(f"… and {len(results) - shown} more: the bracket has them all.")
    return clamp("\n".join(lines + tail))


def champion_text(tournament: TournamentRecord, champion: int | None) -> str:
    """The end, when no round's summary carried it (a Swiss that could not pair another round)."""
    if champion is None:
        return f"🏆 **{tournament.name}** is over, without a champion."
    return f"🏆 **{tournament.name}** is over: {mention(champion)} is the champion!"


# --- the status message ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StatusText:
    title: str
    description: str


def status_text(tournament: TournamentRecord, entrants: Sequence[EntrantRecord], bracket: Tournament | None,
                open_rows: Sequence[BracketMatchRecord], *, by: int | None = None) -> StatusText:
    """The tournament's one status message, whatever its stage (the bracket picture goes with it once it runs):
    what is happening now, how it is played, its rules, its players. ``by``: who paused or cancelled it."""
    headline = _headline(tournament, bracket, open_rows, by, len(entrants))
    lines = [headline, "",
             f"**How:** {settings_line(tournament)}",
             f"**Rules:** {rules_words(tournament.game, tournament.rules)}",
             f"**Organiser:** {mention(tournament.organiser_id)}"]
    if bracket is None:
        checking = tournament.status == "check_in"
        players = [mention(p.user_id) + (" ✅" if checking and p.checked_in else "") for p in entrants]
        lines.append(f"**Players ({len(players)}):** {_listing(players, 'nobody yet')}")
    else:
        seeds = [f"{seed}. {mention(player)}" for seed, player in enumerate(bracket.players, start=1)]
        lines.append(f"**Seeds ({len(seeds)}):** {_listing(seeds, 'none')}")
        left_out = [mention(p.user_id) for p in entrants if p.user_id not in set(bracket.players)]
        if left_out:
            lines.append(f"**Not checked in, left out:** {_listing(left_out, '')}")
        if bracket.disqualified:
            lines.append(f"**Disqualified:** {join_words([mention(p) for p in bracket.disqualified])}")
    return StatusText(clamp_line(f"🏟️ {title(tournament)}", EMBED_TITLE_LIMIT),
                      clamp("\n".join(lines), EMBED_DESCRIPTION_LIMIT))


def _listing(items: Sequence[str], empty: str) -> str:
    shown = list(items[:PLAYERS_LISTED])
    text = ", ".join(shown) if shown else empty
    if len(items) > len(shown):
        text += f" … and {len(items) - len(shown)} more"
    return text


def _headline(tournament: TournamentRecord, bracket: Tournament | None, open_rows: Sequence[BracketMatchRecord],
              by: int | None, signed_up: int) -> str:
    status = tournament.status
    if status == "signup":
        closes = (f"signup closes {timestamp(tournament.signup_closes_at)}" if tournament.signup_closes_at
                  else "the organiser starts it with `/tournament start`")
        return (f"**Signup is open:** press **Join** to play ({signed_up} of at most "
                f"{tournament.options.get('max_players')}); {closes}.")
    if status == "check_in":
        ends = timestamp(tournament.check_in_ends_at) if tournament.check_in_ends_at else "the start"
        return f"**Check-in:** press **Check in** by {ends}; who hasn't is left out."
    if status == "cancelled":
        if bracket is None and by is None:
            return "✖️ **Cancelled:** fewer than two players."
        return f"✖️ **Cancelled** by {mention(by)}." if by is not None else "✖️ **Cancelled.**"
    if status == "finished":
        champion = tournament.champion_id
        return f"🏆 **Champion: {mention(champion)}**" if champion is not None else "🏆 **Over**, without a champion."
    now = ""
    if bracket is not None:
        labels = list(dict.fromkeys(row.round for row in open_rows))
        if labels:
            to_play = [count(sum(1 for row in open_rows if row.round == label), "match", "matches")
                       for label in labels]
            now = "**Now:** " + " · ".join(f"{round_name(bracket, label)} ({left} to play)"
                                           for label, left in zip(labels, to_play, strict=True))
    if status == "paused":
        who = f" by {mention(by)}" if by is not None else ""
        return f"⏸️ **Paused**{who}: no new games and no no-show clocks until it goes on." + (f"\n{now}" if now else "")
    return now or "**Running.**"
