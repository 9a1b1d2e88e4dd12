"""The match trees of single and double elimination, built whole when the tournament starts.

Every match is keyed ``W<round>-<n>`` (winners' bracket), ``L<round>-<n>`` (losers' bracket), ``GF`` and ``GF2``
(the grand finals), ``n`` counting from 1 down the bracket. A single-elimination bracket is just the winners'
bracket; its final is the last ``W`` match.

Double elimination with a bracket of ``2**k`` slots (``k >= 2``) has ``2*(k-1)`` losers' rounds:

* ``L1`` pairs the losers of ``W1`` (matches 1 and 2, 3 and 4, ...);
* ``L2j`` (a *drop-in* round) sets each winner of ``L(2j-1)`` against a loser of ``W(j+1)``. The losers drop in
  in reversed order on every other drop-in round (``L2``, ``L6``, ...), so a player who just lost in the winners'
  bracket does not meet the same part of the draw straight away;
* ``L(2j+1)`` pairs the winners of ``L2j``;
* the winner of the last losers' round is the losers'-bracket champion and meets the winners'-bracket champion in
  ``GF``. With two players (``k = 1``) there is no losers' round: the loser of ``W1-1`` goes straight to ``GF``.

``GF2`` (the reset) is not built here: the tournament adds it only when the losers'-bracket champion wins ``GF``.

Rounds are listed in an order in which they can be played (every round after the rounds feeding it):
``W1, W2, L1, L2, W3, L3, L4, W4, ..., GF``.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournaments.model import Match, RoundPlan, Source, Takes
from bot.tournaments.seeding import bracket_size, first_round

WINNERS = "winners"
LOSERS = "losers"
GRAND_FINAL = "grand_final"
GRAND_FINAL_KEY = "GF"
RESET_KEY = "GF2"


def _key(label: str, index: int) -> str:
    return f"{label}-{index + 1}"


def _winners_bracket(seeded: Sequence[int]) -> list[tuple[RoundPlan, list[Match]]]:
    rounds: list[tuple[RoundPlan, list[Match]]] = []
    first: list[Match] = []
    for index, (top, bottom) in enumerate(first_round(len(seeded))):
        players = (seeded[top - 1], None if bottom is None else seeded[bottom - 1])
        first.append(Match(_key("W1", index), "W1", players))
    rounds.append((RoundPlan("W1", WINNERS, 1, tuple(m.key for m in first)), first))
    previous = first
    number = 1
    while len(previous) > 1:
        number += 1
        label = f"W{number}"
        matches = [
            _fed(label, index, Source(previous[2 * index].key, Takes.WINNER),
                 Source(previous[2 * index + 1].key, Takes.WINNER))
            for index in range(len(previous) // 2)
        ]
        rounds.append((RoundPlan(label, WINNERS, number, tuple(m.key for m in matches)), matches))
        previous = matches
    return rounds


def _fed(label: str, index: int, first: Source, second: Source) -> Match:
    return Match(_key(label, index), label, (None, None), known=(False, False), sources=(first, second))


def single_elimination(seeded: Sequence[int]) -> list[tuple[RoundPlan, list[Match]]]:
    """The rounds of a single-elimination bracket for players in seed order."""
    return _winners_bracket(seeded)


def double_elimination(seeded: Sequence[int]) -> list[tuple[RoundPlan, list[Match]]]:
    """The rounds of a double-elimination bracket (without the reset ``GF2``), in playable order."""
    winners = _winners_bracket(seeded)
    depth = len(winners)  # k: the bracket has 2**k slots
    assert bracket_size(len(seeded)) == 2**depth
    ordered = [winners[0]]
    losers_champion = Source(winners[0][1][0].key, Takes.LOSER)
    previous: list[Match] = []
    for j in range(1, depth):
        ordered.append(winners[j])
        odd_label, even_label = f"L{2 * j - 1}", f"L{2 * j}"
        if j == 1:
            w1 = winners[0][1]
            odd = [_fed(odd_label, i, Source(w1[2 * i].key, Takes.LOSER), Source(w1[2 * i + 1].key, Takes.LOSER))
                   for i in range(len(w1) // 2)]
        else:
            odd = [_fed(odd_label, i, Source(previous[2 * i].key, Takes.WINNER),
                        Source(previous[2 * i + 1].key, Takes.WINNER))
                   for i in range(len(previous) // 2)]
        dropping = winners[j][1]
        if j % 2 == 1:
            dropping = dropping[::-1]
        even = [_fed(even_label, i, Source(odd[i].key, Takes.WINNER), Source(dropping[i].key, Takes.LOSER))
                for i in range(len(odd))]
        ordered.append((RoundPlan(odd_label, LOSERS, 2 * j - 1, tuple(m.key for m in odd)), odd))
        ordered.append((RoundPlan(even_label, LOSERS, 2 * j, tuple(m.key for m in even)), even))
        previous = even
        losers_champion = Source(even[0].key, Takes.WINNER)
    final = Match(GRAND_FINAL_KEY, GRAND_FINAL_KEY, (None, None), known=(False, False),
                  sources=(Source(winners[-1][1][0].key, Takes.WINNER), losers_champion))
    ordered.append((RoundPlan(GRAND_FINAL_KEY, GRAND_FINAL, 1, (GRAND_FINAL_KEY,)), [final]))
    return ordered


def reset_final(grand_final: Match) -> tuple[RoundPlan, Match]:
    """The second grand final, played when the losers'-bracket champion (slot 2) won ``GF``; the
    winners'-bracket champion keeps slot 1."""
    match = Match(RESET_KEY, RESET_KEY, (None, None), known=(False, False),
                  sources=(Source(grand_final.key, Takes.LOSER), Source(grand_final.key, Takes.WINNER)))
    return RoundPlan(RESET_KEY, GRAND_FINAL, 2, (RESET_KEY,)), match
