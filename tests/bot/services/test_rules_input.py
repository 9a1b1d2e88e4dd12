"""Rules typed as text: read into a game's rules, and completed as they are typed, from the game's own options."""

from __future__ import annotations

import pytest

from bot.services.rules_input import MAX_SUGGESTIONS, read_rules, suggestions
from bot.services.settings import InvalidSetting

EXAMPLES = {"max_rounds": (100, 300), "target": (30,)}


def values(game: str, text: str, **kwargs) -> list[str]:
    return [value for _, value in suggestions(game, text, left_out=("players",), examples=EXAMPLES, **kwargs)]


def test_rules_text_is_read_and_bad_text_refused_with_what_is_wrong():
    assert read_rules("war", None) == {} and read_rules("war", "  ") == {}
    assert read_rules("war", "face_down=razboi pack=36 capture_pile=yes") == {
        "face_down": "razboi", "pack": 36, "capture_pile": True}
    for text, why in (("pack", "isn't one"), ("pack=33", "pack"), ("aces=low aces=high", "given twice"),
                      ("colour=red", "colour")):
        with pytest.raises(InvalidSetting, match=why):
            read_rules("war", text)
    with pytest.raises(InvalidSetting, match="the game sets it itself"):
        read_rules("war", "players=3", left_out=("players",))
    with pytest.raises(InvalidSetting, match="pack"):
        read_rules("todundleben", "pack=36")  # Tod und Leben is played with 52 or 32 cards


def test_nothing_typed_offers_every_rule_that_changes_something():
    offered = values("war", "")
    assert len(offered) <= MAX_SUGGESTIONS and len(offered) == len(set(offered))
    assert {"face_down=3", "face_down=0", "face_down=razboi", "pack=36", "pack=32", "aces=low", "capture_pile=true",
            "max_rounds=100", "max_rounds=300", "target=30"} <= set(offered)
    assert not [value for value in offered if value in ("pack=52", "aces=high", "capture_pile=false")]  # defaults
    assert not [value for value in offered if value.startswith("players=")]
    drunkard = values("drunkard", "")
    assert "pack=52" in drunkard and "pack=36" not in drunkard and "six_beats_ace=false" in drunkard


def test_a_rule_being_typed_is_completed_after_the_rules_given_already():
    offered = suggestions("war", "aces=low ca", left_out=("players",))
    assert offered[0][1] == "aces=low ca" and offered[0][0].startswith("⚠️")
    assert [value for _, value in offered[1:]] == ["aces=low capture_pile=true"]
    assert "won cards go to a capture pile" in offered[1][0]
    # a whole key: its values, the default too, marked
    offered = suggestions("war", "pack=")
    assert [value for _, value in offered[1:]] == ["pack=52", "pack=36", "pack=32"]
    assert offered[1][0].startswith("pack=52 (default) — ")
    assert values("war", "face_down=r") == ["face_down=r", "face_down=razboi"]
    # a number being typed is offered as it is
    assert values("war", "max_rounds=25")[1] == "max_rounds=25"
    # a rule given already is not offered again; a complete text that plays is marked so
    offered = suggestions("war", "aces=low ")
    assert offered[0] == ("✅ aces=low", "aces=low")
    assert not [value for _, value in offered[1:] if "aces=" in value.split(" ", 1)[1]]


def test_choices_fit_discord():
    long = " ".join(f"{key}={value}" for key, value in (("face_down", "razboi"), ("short", "lose"),
                                                          ("war_joins", "all"), ("return_order", "winner_first"),
                                                          ("capture_pile", "true"), ("jokers", "2")))
    for name, value in suggestions("war", long + " a"):
        assert len(name) <= 100 and len(value) <= 100


def test_what_is_offered_is_said_in_the_language_of_the_member_typing():
    from bot.i18n import texts

    [(name, value), *_] = suggestions("war", "pack", say=texts("de"))
    assert value == "pack" and name == ("⚠️ Regeln sind durch Leerzeichen getrennte Paare key=value; 'pack' ist "
                                        "keins.")
    assert suggestions("war", "pack")[0][0].startswith("⚠️ Rules are key=value pairs")  # English by default
    named = [name for name, _ in suggestions("war", "aces=", say=texts("fr"))]
    assert any("(par défaut)" in name for name in named), named
