"""Play a match file and report every event, then the result.

A match file is one JSON object::

    {"game": "airwar",  (any registered game or variant: war, army, drunkard, todundleben, ...)
     "rules": {...}, "seed": 123, "piles": [[...], ...], "moves": [...]}

``piles`` is optional (explicit starting piles, top card first; otherwise dealt from the seed). Moves:
Air War ``{"orders": [[seat 0's stack in play order], [seat 1's]]}`` per engagement; Army first
``{"armies": [[...], [...]]}`` then ``{"plays": [card of seat 0, card of seat 1]}`` per round; the War games
take no moves (they play themselves to the end).

Two moves end any game early, as the bot records them: ``{"forfeit": seat, "reason": "forfeit"}`` (the seat
gives up; ``reason`` is optional, e.g. ``"timeout"`` for missed deadlines) and ``{"draw": reason}`` (the game
ends as a draw, e.g. ``"double_timeout"`` when both players forfeit at once).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from bot.errors import GameError
from bot.game import Game
from bot.registry import game_class

MATCH_KEYS = {"game", "rules", "seed", "piles", "moves"}


class MatchFileError(Exception):
    """The match file cannot be played; the message is one line for the user."""


def new_game(match: Mapping[str, Any]) -> Game:
    """The game a match file starts from (before any move)."""
    if not isinstance(match, Mapping):
        raise MatchFileError("a match file must be a JSON object")
    unknown = sorted(set(match) - MATCH_KEYS)
    if unknown:
        raise MatchFileError(f"unknown key {unknown[0]!r}; a match file has {', '.join(sorted(MATCH_KEYS))}")
    if "game" not in match:
        raise MatchFileError("the match file names no game (key 'game')")
    seed = match.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise MatchFileError(f"'seed' must be a whole number, not {seed!r}")
    rules = match.get("rules") or {}
    if not isinstance(rules, Mapping):
        raise MatchFileError("'rules' must be a JSON object of rule keys and values")
    piles = match.get("piles")
    if piles is not None and not (isinstance(piles, list) and all(isinstance(p, list) for p in piles)):
        raise MatchFileError("'piles' must be a list of card lists, one per player, top card first")
    try:
        return game_class(match["game"]).new(rules, seed=seed, piles=piles)
    except GameError as error:
        raise MatchFileError(str(error)) from None


def moves_of(match: Mapping[str, Any]) -> list[Any]:
    moves = match.get("moves", [])
    if not isinstance(moves, list):
        raise MatchFileError("'moves' must be a list")
    return moves


def summary(game: Game) -> dict[str, Any]:
    """The last line of a replay: ``winner`` (absent while unfinished), ``reason``, ``piles``."""
    line: dict[str, Any] = {}
    if game.outcome is not None:
        line["winner"] = game.outcome.winner
        line["reason"] = game.outcome.reason
        if game.outcome.detail:
            line["detail"] = game.outcome.detail
    else:
        waiting = game.pending_seats()
        line["reason"] = "unfinished"
        line["detail"] = "the moves ran out" + (f"; waiting for seats {waiting}" if waiting else "")
    line["piles"] = game.draw_piles()
    line["rounds"] = game.stats.rounds
    line["wars"] = game.stats.wars
    return line


def replay(match: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Yield every event of the match, then the summary line. Raise MatchFileError on a bad file or move."""
    game = new_game(match)
    moves = moves_of(match)
    yield from game.opening_events
    for number, move in enumerate(moves, start=1):
        if game.is_over:
            raise MatchFileError(f"move {number}: the game is already over ({game.outcome.reason})")
        if not isinstance(move, Mapping):
            raise MatchFileError(f"move {number}: a move must be a JSON object, not {json.dumps(move)}")
        try:
            if game.automatic:
                yield from game.play_out(max_steps=_rounds_before(game, move))
            events = apply_move(game, move)
        except (GameError, MatchFileError) as error:
            raise MatchFileError(f"move {number}: {error}") from None
        yield from events
    if game.automatic:
        yield from game.play_out()
    yield summary(game)


def _rounds_before(game: Game, move: Mapping[str, Any]) -> int:
    """A game that plays itself takes only forfeits and draws, each after the round it names (``round``: the rounds
    played when it happened): the rounds to play before it."""
    if "forfeit" not in move and "draw" not in move:
        raise MatchFileError(f"{game.name} plays itself: its only moves are forfeits and draws")
    played = move.get("round")
    if isinstance(played, bool) or not isinstance(played, int) or played < game.stats.rounds:
        raise MatchFileError(f"a forfeit or draw of {game.name} names the round it came after (at least "
                             f"{game.stats.rounds}), not {played!r}")
    return played - game.stats.rounds


def apply_move(game: Game, move: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One move of a match file: a forfeit, a draw or the game's own move (raises on a bad one)."""
    if "forfeit" in move:
        if set(move) - {"forfeit", "reason", "round"}:
            raise MatchFileError("a forfeit move has only 'forfeit' (a seat), 'reason' and 'round'")
        seat, reason = move["forfeit"], move.get("reason", "forfeit")
        if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(reason, str):
            raise MatchFileError("a forfeit move names a seat number and a reason text")
        return game.forfeit(seat, reason)
    if "draw" in move:
        if set(move) - {"draw", "round"} or not isinstance(move["draw"], str):
            raise MatchFileError("a draw move is {\"draw\": reason}")
        return game.draw(move["draw"])
    return game.apply_move(move)


def load_match_file(path: str) -> Mapping[str, Any]:
    try:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    except OSError as error:
        raise MatchFileError(f"cannot read {path}: {error.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise MatchFileError(f"{path} is not valid JSON: {error}") from None
