import pytest

from bot import cards
from bot.errors import InvalidCard


def test_standard_pack_has_52_distinct_cards_in_notation():
    pack = cards.standard_pack()
    assert len(pack) == 52 == len(set(pack))
    assert {"10H", "AS", "2C", "QD"} <= set(pack)


@pytest.mark.parametrize(("size", "lowest", "missing"), [(36, "6", "5H"), (32, "7", "6S")])
def test_stripped_packs_keep_only_the_high_cards(size, lowest, missing):
    pack = cards.standard_pack(size)
    assert len(pack) == size
    assert missing not in pack
    assert all(cards.strength_table()[card] >= cards.strength_table()[lowest + "C"] for card in pack)


def test_jokers_and_several_decks():
    pack = cards.standard_pack(jokers=2, decks=2)
    assert len(pack) == 108
    assert pack.count("RJ") == pack.count("BJ") == 2
    assert pack.count("AS") == 2


def test_tarot_pack_has_78_cards_with_22_trumps():
    pack = cards.tarot_pack()
    assert len(pack) == 78 == len(set(pack))
    assert sum(1 for card in pack if cards.suit_of(card) == "T") == 22


def test_ranking_aces_high_and_low_and_jokers_on_top():
    high = cards.strength_table(aces_high=True)
    low = cards.strength_table(aces_high=False)
    assert high["AS"] > high["KS"] > high["QS"] > high["JS"] > high["10S"] > high["2S"]
    assert low["AS"] < low["2S"]
    assert high["RJ"] == high["BJ"] > high["AS"]
    assert high["10H"] == high["10S"]  # suits never matter


def test_tarot_ranking_trumps_above_suits_fool_lowest_trump():
    table = cards.strength_table(tarot=True)
    assert table["0T"] > table["KH"] > table["QH"] > table["NH"] > table["PH"] > table["10H"]
    assert table["21T"] > table["1T"] > table["0T"]
    assert table["2H"] > cards.strength_table(tarot=True, aces_high=False)["AH"]
    assert table["AH"] > table["KH"]  # aces high: the 1 goes above the king, still below the trumps


@pytest.mark.parametrize("text", ["1H", "11S", "AX", "", "A", "KJ", "0T"])
def test_bad_cards_are_refused_with_a_clear_message(text):
    with pytest.raises(InvalidCard, match="not a card"):
        cards.parse_card(text)


def test_parse_normalises_case_and_reads_tarot():
    assert cards.parse_card(" 10h ") == "10H"
    assert cards.parse_card("rj") == "RJ"
    assert cards.parse_card("21t", tarot=True) == "21T"
    assert cards.parse_card("NH", tarot=True) == "NH"


def test_colours_and_words():
    assert cards.is_red("QH") and cards.is_red("2D") and cards.is_red("RJ")
    assert not cards.is_red("AS") and not cards.is_red("BJ")
    assert cards.describe("10H") == "10 of hearts"
    assert cards.describe("0T") == "the Fool"


def test_one_card_notation_for_texts_and_buttons():
    assert [cards.card_label(card) for card in ("10C", "AD", "QS", "2H")] == ["10♣", "A♦", "Q♠", "2♥"]
    assert cards.card_label("RJ") == cards.card_label("BJ") == "🃏"
    assert [cards.card_label(card) for card in ("PH", "NC", "0T", "21T")] == ["P♥", "N♣", "0★", "21★"]
    # every card of every pack has a label without its letters' suit code, and words for alt text
    for card in set(cards.standard_pack(jokers=2)) | set(cards.tarot_pack()):
        label = cards.card_label(card)
        assert label and label[-1] in "♣♦♥♠★🃏" and cards.describe(card)
