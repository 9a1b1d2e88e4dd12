"""The catalogues' domains: each game's words in its own catalogue (``bot/games/<game>/locales``), the shared words
in ``bot/i18n/locales``; a language's words are every domain's; ``fill`` puts a translation into each domain whose
template holds the string, and the check finds a string two domains translate differently."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

import bot.i18n as i18n
from bot.i18n import SHARED, Domain, texts
from bot.i18n.check import differences, read_domain
from bot.i18n.extract import Marked, Source, fill, new_catalogue, sources, template, write
from bot.registry import registry

ROOT = Path(__file__).resolve().parents[3]


def test_each_registered_game_has_its_own_domain_holding_only_its_own_words():
    games = {source.domain.name: source for source in sources()[1:]}
    assert set(games) == {plugin.name for plugin in registry().plugins}
    for plugin in registry().plugins:
        source = games[plugin.name]
        assert source.domain.folder == ROOT / "bot" / "games" / plugin.name / "locales"
        assert source.paths == (ROOT / "bot" / "games" / plugin.name, ROOT / "cogs" / plugin.name)
        stored = read_domain(source.domain)
        assert stored is not None and len(stored) > 0
        places = {path for message in stored if message.id for path, _ in message.locations}
        outside = {path for path in places if not path.startswith(("/", f"bot/games/{plugin.name}/",
                                                                   f"cogs/{plugin.name}/"))}
        assert outside == set(), plugin.name  # (a "/..." place: a slash command of its own or one naming it)
    shared = read_domain(SHARED)
    assert not {path for message in shared if message.id for path, _ in message.locations
                if path.startswith(("bot/games/", *(f"cogs/{plugin.name}/" for plugin in registry().plugins)))}


def _domain(folder: Path, name: str, strings: list[str]) -> Domain:
    domain = Domain(name, folder)
    folder.mkdir(parents=True)
    write(template([Marked(text, None, (f"{name}.py", 1)) for text in strings], domain=domain),
          domain.template_path)
    return domain


@pytest.fixture
def two_domains(tmp_path, monkeypatch):
    shared = _domain(tmp_path / "shared", "airwar", ["Shared word", "Both {games}"])
    game = _domain(tmp_path / "game", "mygame", ["Both {games}", "Game word"])
    monkeypatch.setattr("bot.i18n.extract.sources",
                        lambda: (Source(shared, (tmp_path / "shared",)), Source(game, (tmp_path / "game",))))
    return shared, game


def _strings(domain: Domain, language: str) -> dict[str, str]:
    catalog = read_domain(domain, language)
    return {message.id: message.string for message in catalog or () if message.id}


def test_fill_puts_each_string_into_every_domain_that_holds_it(two_domains):
    shared, game = two_domains
    counts = fill({"Shared word": {"de": "Gemeinsames Wort"}, "Both {games}": {"de": "Beide {games}"},
                   "Game word": {"de": "Spielwort", "fr": "Mot du jeu"}})
    assert counts["de"] == 3 and counts["fr"] == 1
    assert _strings(shared, "de") == {"Shared word": "Gemeinsames Wort", "Both {games}": "Beide {games}"}
    assert _strings(game, "de") == {"Both {games}": "Beide {games}", "Game word": "Spielwort"}
    assert _strings(game, "fr") == {"Game word": "Mot du jeu"}
    assert read_domain(shared, "fr") is None  # (no string of it was given in French)


def test_fill_refuses_a_string_no_domain_holds_and_changes_nothing(two_domains):
    shared, game = two_domains
    with pytest.raises(ValueError, match="not in the template"):
        fill({"Game word": {"de": "Spielwort"}, "Nobody's word": {"de": "Niemandes Wort"}})
    assert read_domain(game, "de") is None and read_domain(shared, "de") is None


def test_a_string_two_domains_translate_differently_is_reported(two_domains, monkeypatch):
    shared, game = two_domains
    fill({"Both {games}": {"de": "Beide {games}"}})
    monkeypatch.setattr("bot.i18n.check.domains", lambda: [shared, game])
    assert differences("de") == []
    catalog = read_domain(game, "de")
    catalog.get("Both {games}").string = "Alle beide {games}"
    write(catalog, game.catalogue_path("de"))
    assert differences("de") == ["de: 'Both {games}' is 'Beide {games}' in airwar's catalogue, 'Alle beide {games}' "
                                 "in mygame's"]


def test_a_language_speaks_every_domains_words_and_a_game_from_elsewhere_brings_its_own(tmp_path, monkeypatch):
    folder = tmp_path / "locales"
    folder.mkdir()
    catalog: Catalog = new_catalogue("de", Domain("elsewhere", folder))
    catalog.add("A word only a game from elsewhere says", "Ein Wort, das nur ein Spiel von anderswo sagt")
    write(catalog, folder / "de.po")
    monkeypatch.setattr(i18n, "_added", {})
    try:
        assert texts("de")("A word only a game from elsewhere says") == "A word only a game from elsewhere says"
        i18n.add_domain("elsewhere", folder)
        assert texts("de")("A word only a game from elsewhere says") == "Ein Wort, das nur ein Spiel von anderswo sagt"
        # a shared word (the kit's) and a game's own (Army's title) are read from their own catalogues alike
        assert texts("de")("Decline") != "Decline"
        assert texts("de")(registry().entry("army").title) != registry().entry("army").title
    finally:
        monkeypatch.undo()
        i18n._read_catalogues.cache_clear()
        texts.cache_clear()
