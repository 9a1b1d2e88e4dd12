"""Casino War's house edge, exact for a full shoe: every pair of first cards and, after a tie, every pair of war
cards (the three burns are unseen cards, so the war cards are any two of the rest), with their exact probabilities
for ``decks`` decks. Per unit of the original bet (the raise of a war is not counted as more wagered)."""

from __future__ import annotations

from fractions import Fraction

RANKS = 13
SUITS = 4


def tie_chance(decks: int) -> Fraction:
    """The chance the player's first card ties the house's (a full shoe)."""
    each = SUITS * decks
    total = RANKS * each
    return Fraction(RANKS * each * (each - 1), total * (total - 1))


def war_value(decks: int, *, bonus: bool) -> Fraction:
    """A war's return per unit bet, after a tie (the tied rank has two cards fewer): +1 when the player's war card is
    higher, +1 (+2 with the bonus) when equal, -2 when lower."""
    each = SUITS * decks
    rest = RANKS * each - 2
    tie_again = Fraction((each - 2) * (each - 3) + (RANKS - 1) * each * (each - 1), rest * (rest - 1))
    higher = (1 - tie_again) / 2
    return higher * 1 + tie_again * (2 if bonus else 1) - higher * 2


def main_bet_edge(decks: int, *, war: bool = True, bonus: bool = True) -> Fraction:
    """The house's edge on the main bet: the player always goes to war (``war``) or always surrenders."""
    tie = tie_chance(decks)
    on_tie = war_value(decks, bonus=bonus) if war else Fraction(-1, 2)
    return -(tie * on_tie)  # a win and a loss are equally likely and cancel out


def tie_bet_edge(decks: int, pays: int = 10) -> Fraction:
    """The house's edge on the tie bet paying ``pays`` to 1."""
    return 1 - tie_chance(decks) * (pays + 1)
