"""Standings: scores and tie-breaks.

Scoring (round robin and Swiss): a win, a forfeit win and a bye are 1 point, a draw 0.5, a loss 0. ``wins``
counts won games (forfeits included), ``byes`` the byes separately.

Tie-breaks, in order (round robin and Swiss):

1. score;
2. Buchholz (Swiss only: in a finished round robin everyone with the same score has the same Buchholz): the sum
   of the scores of every opponent met, a forfeit included; a bye adds nothing;
3. Sonneborn–Berger: the sum of the scores of the opponents beaten plus half the scores of the opponents drawn;
4. head-to-head: among the players still tied on everything above, the points each scored in the games between
   them (a mini-table); 0 for a tied player who met none of the others; ``None`` for a player not tied;
5. seed (the better seed first), so every place is different.

Disqualified players keep their results (their opponents' tie-breaks count them) but are listed after everyone
else, ordered among themselves the same way.

Elimination standings rank the players still in first (the champion alone once the tournament is over), then the
eliminated players by how late they went out (the round's position in play order, see :mod:`.brackets`); players
who went out in the same round share a place. Then the disqualified players, sharing the last place. Within a
place, rows are in seed order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.tournaments.model import Match, MatchOutcome

ACTIVE = "active"
CHAMPION = "champion"
ELIMINATED = "eliminated"
DISQUALIFIED = "disqualified"

_GAMES = (MatchOutcome.WIN, MatchOutcome.DRAW, MatchOutcome.FORFEIT)


@dataclass(frozen=True)
class StandingRow:
    """One player's line. Tie-break columns a format does not use are ``None``."""

    place: int
    player: int
    seed: int
    status: str
    score: float
    wins: int
    draws: int
    losses: int
    byes: int
    buchholz: float | None = None
    sonneborn_berger: float | None = None
    head_to_head: float | None = None
    eliminated_in: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.place, "player": self.player, "seed": self.seed, "status": self.status,
            "score": self.score, "wins": self.wins, "draws": self.draws, "losses": self.losses, "byes": self.byes,
            "buchholz": self.buchholz, "sonneborn_berger": self.sonneborn_berger,
            "head_to_head": self.head_to_head, "eliminated_in": self.eliminated_in,
        }


@dataclass
class _Record:
    score: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0


def _records(players: Iterable[int], matches: Iterable[Match]) -> tuple[dict[int, _Record], list[Match]]:
    records = {player: _Record() for player in players}
    games: list[Match] = []
    for match in matches:
        if match.outcome is MatchOutcome.BYE:
            records[match.winner].byes += 1  # type: ignore[index]
            records[match.winner].score += 1  # type: ignore[index]
        elif match.outcome in _GAMES and None not in match.players:
            games.append(match)
            for player in match.players:
                record = records[player]  # type: ignore[index]
                points = match.points_of(player)  # type: ignore[arg-type]
                record.score += points
                if match.outcome is MatchOutcome.DRAW:
                    record.draws += 1
                elif points:
                    record.wins += 1
                else:
                    record.losses += 1
    return records, games


def scored_standings(seeded: Sequence[int], matches: Iterable[Match], disqualified: Iterable[int],
                     use_buchholz: bool) -> list[StandingRow]:
    """Round-robin (``use_buchholz=False``) and Swiss standings, best first."""
    seed = {player: index + 1 for index, player in enumerate(seeded)}
    out = set(disqualified)
    records, games = _records(seeded, matches)
    buchholz: dict[int, float] = defaultdict(float)
    berger: dict[int, float] = defaultdict(float)
    for game in games:
        for player in game.players:
            opponent = game.opponent_of(player)
            buchholz[player] += records[opponent].score  # type: ignore[index]
            berger[player] += records[opponent].score * game.points_of(player)  # type: ignore[index, arg-type]

    def main_key(player: int) -> tuple[bool, float, float, float]:
        return (player in out, -records[player].score, -buchholz[player] if use_buchholz else 0.0, -berger[player])

    groups: dict[tuple[bool, float, float, float], list[int]] = defaultdict(list)
    for player in seeded:
        groups[main_key(player)].append(player)
    head_to_head: dict[int, float | None] = dict.fromkeys(seeded)
    for tied in groups.values():
        if len(tied) < 2:
            continue
        members = set(tied)
        for player in tied:
            head_to_head[player] = 0.0
        for game in games:
            first, second = game.players
            if first in members and second in members:
                head_to_head[first] += game.points_of(first)  # type: ignore[operator, arg-type]
                head_to_head[second] += game.points_of(second)  # type: ignore[operator, arg-type]
    order = sorted(seeded, key=lambda p: (*main_key(p), -(head_to_head[p] or 0.0), seed[p]))
    return [
        StandingRow(
            place=index + 1, player=player, seed=seed[player],
            status=DISQUALIFIED if player in out else ACTIVE,
            score=records[player].score, wins=records[player].wins, draws=records[player].draws,
            losses=records[player].losses, byes=records[player].byes,
            buchholz=buchholz[player] if use_buchholz else None,
            sonneborn_berger=berger[player], head_to_head=head_to_head[player],
        )
        for index, player in enumerate(order)
    ]


def elimination_standings(seeded: Sequence[int], matches: Iterable[Match], disqualified: Iterable[int],
                          eliminated: Mapping[int, tuple[int, str]], champion: int | None) -> list[StandingRow]:
    """Elimination standings. ``eliminated`` maps a player to (position of the round they went out in, the match
    key); ``champion`` is set once the tournament is over."""
    seed = {player: index + 1 for index, player in enumerate(seeded)}
    out = set(disqualified)
    records, _ = _records(seeded, matches)
    late = len(seeded) + 10_000  # sorts above every round position

    def tier(player: int) -> tuple[int, int]:
        if player in out:
            return (1, 0)
        if player in eliminated:
            return (0, -eliminated[player][0])
        return (0, -late - (player == champion))

    order = sorted(seeded, key=lambda p: (tier(p), seed[p]))
    rows: list[StandingRow] = []
    place = 0
    for index, player in enumerate(order):
        if index == 0 or tier(player) != tier(order[index - 1]):
            place = index + 1
        if player in out:
            status = DISQUALIFIED
        elif player == champion:
            status = CHAMPION
        elif player in eliminated:
            status = ELIMINATED
        else:
            status = ACTIVE
        record = records[player]
        rows.append(StandingRow(
            place=place, player=player, seed=seed[player], status=status, score=record.score, wins=record.wins,
            draws=record.draws, losses=record.losses, byes=record.byes,
            eliminated_in=eliminated[player][1] if player in eliminated else None,
        ))
    return rows
