"""Value objects of a tournament: matches, the rounds that hold them, and the sources that feed a bracket slot.

A :class:`Match` has two slots. A slot is *known* once it is decided who sits in it: a player id, or ``None`` for
nobody (a bye). An elimination slot starts unknown and is filled from its :class:`Source` (the winner or the loser
of an earlier match) when that match is decided. A match whose two slots hold players and that has no result yet is
*ready*: it is waiting for :meth:`~bot.tournaments.Tournament.record_result`.

Outcomes (:class:`MatchOutcome`):

* ``win``: played, ``winner`` won; ``draw``: played, nobody won (round robin and Swiss only);
* ``forfeit``: ``winner``'s opponent was disqualified; ``bye``: ``winner`` had no opponent;
* ``void``: nobody could play it (both slots empty or both players disqualified); ``winner`` is ``None``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

Event = dict[str, Any]


class MatchOutcome(StrEnum):
    WIN = "win"
    DRAW = "draw"
    FORFEIT = "forfeit"
    BYE = "bye"
    VOID = "void"


class Takes(StrEnum):
    """Which player of an earlier match a slot takes."""

    WINNER = "winner"
    LOSER = "loser"


@dataclass(frozen=True)
class Source:
    """A slot filled by the winner or the loser of match ``match``."""

    match: str
    takes: Takes

    def to_json(self) -> list[str]:
        return [self.match, str(self.takes)]

    @classmethod
    def from_json(cls, data: Any) -> Source | None:
        if data is None:
            return None
        match, takes = data
        if not isinstance(match, str):
            raise ValueError(f"a source names a match key, not {match!r}")
        return cls(match, Takes(takes))


@dataclass(frozen=True)
class Match:
    """One match of a tournament; a new value replaces it when a slot is filled or a result recorded."""

    key: str
    round: str
    players: tuple[int | None, int | None]
    known: tuple[bool, bool] = (True, True)
    sources: tuple[Source | None, Source | None] = (None, None)
    outcome: MatchOutcome | None = None
    winner: int | None = None

    @property
    def is_decided(self) -> bool:
        return self.outcome is not None

    @property
    def is_ready(self) -> bool:
        """Both players known and present, no result yet."""
        return self.outcome is None and all(self.known) and None not in self.players

    @property
    def is_bye(self) -> bool:
        return self.outcome is MatchOutcome.BYE

    @property
    def loser(self) -> int | None:
        """The player who lost a won or forfeited match (``None`` for any other outcome)."""
        if self.outcome in (MatchOutcome.WIN, MatchOutcome.FORFEIT):
            return self.opponent_of(self.winner)
        return None

    def has_player(self, player: int) -> bool:
        return player in self.players

    def opponent_of(self, player: int | None) -> int | None:
        first, second = self.players
        if player == first:
            return second
        if player == second:
            return first
        raise ValueError(f"player {player!r} is not in match {self.key}")

    def points_of(self, player: int) -> float:
        """What the match scores for ``player``: 1 for a win, a forfeit win or a bye, 0.5 for a draw, else 0."""
        if self.outcome is MatchOutcome.DRAW:
            return 0.5
        return 1.0 if self.winner == player and player is not None else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "round": self.round,
            "players": list(self.players),
            "known": list(self.known),
            "sources": [None if source is None else source.to_json() for source in self.sources],
            "outcome": None if self.outcome is None else str(self.outcome),
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Match:
        first, second = data["players"]
        known_first, known_second = data["known"]
        source_first, source_second = data["sources"]
        for player in (first, second, data["winner"]):
            if player is not None and (not isinstance(player, int) or isinstance(player, bool)):
                raise ValueError(f"a player id is a whole number, not {player!r}")
        if not all(isinstance(value, bool) for value in (known_first, known_second)):
            raise ValueError("a slot is known or not (true or false)")
        if not isinstance(data["key"], str) or not isinstance(data["round"], str):
            raise ValueError("a match key and its round are text")
        outcome = data["outcome"]
        return cls(
            key=data["key"],
            round=data["round"],
            players=(first, second),
            known=(known_first, known_second),
            sources=(Source.from_json(source_first), Source.from_json(source_second)),
            outcome=None if outcome is None else MatchOutcome(outcome),
            winner=data["winner"],
        )


@dataclass(frozen=True)
class Round:
    """A round with its matches, in play order.

    ``label`` is the round's name and the prefix of its match keys (``W2``, ``L3``, ``R4``) or the whole key for
    the grand finals (``GF``, ``GF2``); ``bracket`` is ``winners``, ``losers``, ``grand_final`` (elimination) or
    ``rounds`` (round robin, Swiss); ``number`` counts from 1 within the bracket."""

    label: str
    bracket: str
    number: int
    matches: tuple[Match, ...]

    @property
    def is_complete(self) -> bool:
        return all(match.is_decided for match in self.matches)


@dataclass(frozen=True)
class RoundPlan:
    """A round as the tournament stores it: its name and the keys of its matches (see :class:`Round`)."""

    label: str
    bracket: str
    number: int
    match_keys: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "bracket": self.bracket, "number": self.number, "matches": list(self.match_keys)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundPlan:
        label, bracket, number, keys = data["label"], data["bracket"], data["number"], data["matches"]
        if not isinstance(label, str) or not isinstance(bracket, str) or not all(isinstance(k, str) for k in keys):
            raise ValueError("a round's label, bracket and match keys are text")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise ValueError(f"a round number is a whole number from 1, not {number!r}")
        return cls(label, bracket, number, tuple(keys))
