"""Cards in the project's notation, the packs the games use, and how cards rank.

A card is a plain string in card notation, so piles are JSON as they are:

* standard cards: rank ``2``-``10``, ``J``, ``Q``, ``K``, ``A`` followed by suit ``C``, ``D``, ``H``, ``S``
  (``10H``, ``AS``);
* jokers: ``RJ`` (red) and ``BJ`` (black), above the ace;
* tarot (78 cards, French suits): the suit cards ``A`` (the 1), ``2``-``10``, ``P`` (page), ``N`` (knight),
  ``Q``, ``K`` in the four suits, and the trumps ``0T`` (the Fool) to ``21T``.

Tarot ranking (our choice, written in the players' rules text): within the suits
1 (ace), 2 ... 10, page, knight, queen, king, with the ace moved above the king when aces are high; every
trump beats every suit card, trumps rank by number, and the Fool is trump 0 (the lowest trump).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from bot.errors import InvalidCard
from bot.i18n import DEFAULT_LANGUAGE, Texts, texts

SUITS = ("C", "D", "H", "S")
RED_SUITS = frozenset({"D", "H"})
STANDARD_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
TAROT_SUIT_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "P", "N", "Q", "K")
TAROT_TRUMPS = tuple(f"{n}T" for n in range(22))
JOKERS = ("RJ", "BJ")

# Pack size -> lowest rank it keeps (stripped packs drop the low number cards).
PACK_LOWEST_RANK = {52: "2", 36: "6", 32: "7"}

_STANDARD_STRENGTH = {rank: index + 2 for index, rank in enumerate(STANDARD_RANKS)}  # 2..14, ace 14
_TAROT_SUIT_STRENGTH = {rank: index + 1 for index, rank in enumerate(TAROT_SUIT_RANKS)}  # ace 1 .. king 14
JOKER_STRENGTH = 15
ACE_LOW_STRENGTH = 1
_TAROT_TRUMP_BASE = 20


def rank_of(card: str) -> str:
    """The rank part of a card: ``10`` for ``10H``, ``J`` for a joker, ``21`` for the trump ``21T``."""
    return card[:-1]


def suit_of(card: str) -> str:
    """The suit letter: ``C``, ``D``, ``H``, ``S``, ``J`` for a joker, ``T`` for a tarot trump."""
    return card[-1]


def is_joker(card: str) -> bool:
    return card in JOKERS


def is_red(card: str) -> bool:
    """Hearts, diamonds and the red joker are red."""
    return suit_of(card) in RED_SUITS or card == "RJ"


def parse_card(text: str, *, tarot: bool = False) -> str:
    """Normalise and check one card in notation; raise :class:`InvalidCard` with a clear message."""
    if not isinstance(text, str):
        raise InvalidCard(f"a card must be written as text like 10H or AS, not {text!r}")
    card = text.strip().upper()
    if card in JOKERS:
        return card
    if len(card) < 2:
        raise InvalidCard(f"{text!r} is not a card: write rank then suit, like 10H, AS or QD")
    rank, suit = card[:-1], card[-1]
    if tarot and suit == "T" and card in TAROT_TRUMPS:
        return card
    ranks = TAROT_SUIT_RANKS if tarot else STANDARD_RANKS
    if suit not in SUITS or rank not in ranks:
        raise InvalidCard(f"{text!r} is not a card: write rank then suit, like 10H, AS or QD")
    return card


def parse_cards(items: Iterable[str], *, tarot: bool = False) -> list[str]:
    return [parse_card(item, tarot=tarot) for item in items]


def standard_pack(size: int = 52, *, jokers: int = 0, decks: int = 1) -> list[str]:
    """A fresh, unshuffled pack: 52, 36 (6-A) or 32 (7-A) cards, optional two jokers, several decks."""
    if size not in PACK_LOWEST_RANK:
        raise InvalidCard(f"there is no {size}-card pack; choose 52, 36 or 32")
    if jokers not in (0, 2):
        raise InvalidCard("a pack has 0 or 2 jokers")
    lowest = STANDARD_RANKS.index(PACK_LOWEST_RANK[size])
    one = [rank + suit for suit in SUITS for rank in STANDARD_RANKS[lowest:]]
    one += list(JOKERS[:jokers])
    return one * decks


def tarot_pack() -> list[str]:
    """The 78-card tarot: 56 suit cards and 22 trumps (the Fool counted as trump 0)."""
    return [rank + suit for suit in SUITS for rank in TAROT_SUIT_RANKS] + list(TAROT_TRUMPS)


def _build_tables() -> dict[tuple[bool, bool], Mapping[str, int]]:
    tables = {}
    for aces_high in (True, False):
        standard = {}
        for suit in SUITS:
            for rank, value in _STANDARD_STRENGTH.items():
                standard[rank + suit] = value if rank != "A" or aces_high else ACE_LOW_STRENGTH
        for joker in JOKERS:
            standard[joker] = JOKER_STRENGTH
        tables[(False, aces_high)] = MappingProxyType(standard)

        tarot = {}
        for suit in SUITS:
            for rank, value in _TAROT_SUIT_STRENGTH.items():
                if rank == "A":
                    value = 15 if aces_high else ACE_LOW_STRENGTH
                tarot[rank + suit] = value
        for number, trump in enumerate(TAROT_TRUMPS):
            tarot[trump] = _TAROT_TRUMP_BASE + number
        tables[(True, aces_high)] = MappingProxyType(tarot)
    return tables


_TABLES = _build_tables()


def strength_table(*, aces_high: bool = True, tarot: bool = False) -> Mapping[str, int]:
    """Card -> strength for standard packs (with jokers) or for the tarot pack.

    Standard: 2..10 as numbered, J 11, Q 12, K 13, A 14 (or 1 when aces are low), jokers 15.
    Tarot: ace 1 (or 15 when high), 2..10, page 11, knight 12, queen 13, king 14, trumps 20 (Fool) .. 41.
    """
    return _TABLES[(tarot, aces_high)]


SUIT_SYMBOLS = MappingProxyType({"C": "♣", "D": "♦", "H": "♥", "S": "♠"})
JOKER_SYMBOL = "🃏"
TRUMP_SYMBOL = "★"


@functools.cache  # (the same few dozen cards, shown again and again)
def card_label(card: str) -> str:
    """A card as every text and button shows it: rank and suit symbol (``10♣``, ``A♦``; tarot's page and knight
    ``P♥``, ``N♥``), ``🃏`` for a joker, a tarot trump as its number and a star (``21★``, the Fool ``0★``), as the
    card pictures draw them. Words (:func:`describe`) are for alt text."""
    if is_joker(card):
        return JOKER_SYMBOL
    rank, suit = rank_of(card), suit_of(card)
    if suit == "T":
        return f"{rank}{TRUMP_SYMBOL}"
    return f"{rank}{SUIT_SYMBOLS[suit]}"


def label_of_text(text: str) -> str:
    """:func:`card_label` of ``text`` when it is a card (of a standard pack or the tarot), else ``text`` as it is."""
    try:
        return card_label(parse_card(text, tarot=True))
    except InvalidCard:
        return text


def describe(card: str, say: Texts | None = None) -> str:
    """A card in words, for screen readers and rules text, in ``say``'s language (English if none): ``10H`` ->
    ``10 of hearts`` (``Herz-10``, ``10 de cœur``, ``десятка червей``...): each language names the cards its own
    way, while the notation of texts and buttons (:func:`card_label`) is the same everywhere."""
    say = say or texts(DEFAULT_LANGUAGE)
    words = _card_words(say)
    if card in ("RJ", "BJ"):
        return words[card]
    rank, suit = rank_of(card), suit_of(card)
    if suit == "T":
        return words["fool"] if rank == "0" else say.pgettext("card", "trump {number}", number=rank)
    if rank in words:
        return say.pgettext("card", "{rank} of {suit}", rank=words[rank], suit=words[suit])
    return say.pgettext("card", "{number} of {suit}", number=rank, suit=words[suit])


@functools.lru_cache(maxsize=64)
def _card_words(say: Texts) -> Mapping[str, str]:
    """The words of ``say``'s language for the card ranks and suits (the form a card's name takes)."""
    return MappingProxyType({
        "J": say.pgettext("card rank", "jack"), "Q": say.pgettext("card rank", "queen"),
        "K": say.pgettext("card rank", "king"), "A": say.pgettext("card rank", "ace"),
        "P": say.pgettext("card rank", "page"), "N": say.pgettext("card rank", "knight"),
        "C": say.pgettext("card suit", "clubs"), "D": say.pgettext("card suit", "diamonds"),
        "H": say.pgettext("card suit", "hearts"), "S": say.pgettext("card suit", "spades"),
        "RJ": say.pgettext("card", "red joker"), "BJ": say.pgettext("card", "black joker"),
        "fool": say.pgettext("card", "the Fool"),
    })
