"""The review sample (``python -m bot.i18n.sample``): the same strings for the same seed, 50 ordinary and 10
plurals from every catalogue, and another seed another sample."""

from __future__ import annotations

from bot.i18n.extract import known_translations, sources
from bot.i18n.sample import ORDINARY, PLURALS, sample


def test_the_sample_is_the_same_for_a_seed_and_holds_ordinary_strings_then_plurals():
    first = sample("ru", seed=11)
    assert first == sample("ru", seed=11)
    assert len(first) == ORDINARY + PLURALS
    assert all(isinstance(entry["translation"], str) for entry in first[:ORDINARY])
    assert all(isinstance(entry["translation"], list) and len(entry["translation"]) == 3  # Russian's three forms
               for entry in first[ORDINARY:])
    assert len({entry["key"] for entry in first}) == len(first)
    known = known_translations((source.domain for source in sources()), "ru")
    for entry in first:  # each as the catalogues hold it
        context, _, english = entry["key"].rpartition("\x04")
        translation = known[(context or None, english)]
        assert entry["translation"] == (translation if isinstance(translation, str) else list(translation))
    assert {entry["key"] for entry in sample("ru", seed=12)} != {entry["key"] for entry in first}


def test_a_game_catalogues_strings_are_in_the_population():
    keys = {entry["key"] for entry in sample("de", seed=11, ordinary=100_000, plurals=0)}
    assert "Lock in" in keys  # Air War's own catalogue
    assert "Decline" in keys  # the shared one
