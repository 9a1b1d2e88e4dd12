"""Helpers the tournament tests share: play a tournament with random results, read it back."""

from __future__ import annotations

import random
from collections import Counter

from bot.tournaments import MatchOutcome, Tournament


def step(tournament: Tournament, rng: random.Random, draws: bool = True, dq_rate: float = 0.0) -> None:
    """One random action: usually a result (a draw now and then where draws are allowed), rarely a
    disqualification."""
    if dq_rate and rng.random() < dq_rate:
        tournament.disqualify(rng.choice(tournament.active_players()))
        return
    match = rng.choice(tournament.pending_matches())
    if draws and not tournament.is_elimination and rng.random() < 0.2:
        tournament.record_result(match.key, None)
    else:
        tournament.record_result(match.key, rng.choice(match.players))


def play_out(tournament: Tournament, rng: random.Random, draws: bool = True, dq_rate: float = 0.0,
             limit: int = 100_000) -> None:
    for _ in range(limit):
        if tournament.is_over:
            return
        step(tournament, rng, draws, dq_rate)
    raise AssertionError("the tournament did not end")


def assert_each_plays_once_per_round(tournament: Tournament) -> None:
    for round_ in tournament.rounds():
        seated = [player for match in round_.matches for player in match.players if player is not None]
        assert len(seated) == len(set(seated)), f"a player plays twice in {round_.label}: {seated}"


def played_losses(tournament: Tournament) -> Counter[int]:
    return Counter(match.loser for match in tournament.matches() if match.outcome is MatchOutcome.WIN)


def eliminated_events(tournament: Tournament) -> Counter[int]:
    return Counter(event["player"] for event in tournament.events if event["type"] == "eliminated")


def find_match(tournament: Tournament, first: int, second: int):
    """The match (any state) between two players; fails if there is not exactly one."""
    found = [match for match in tournament.matches() if set(match.players) == {first, second}]
    assert len(found) == 1, f"{len(found)} matches between {first} and {second}"
    return found[0]
