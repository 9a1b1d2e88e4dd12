"""Players' preferences on a real SQLite file: where panels open, ``dm`` by default, stored per player (the same on
every server), read back for several players in one call; a bad value is refused and changes nothing. The language a
player's client shows is stored when it changes, beside the panels' place, and read back for several players."""

from __future__ import annotations

import pytest

from bot.services.preferences import InvalidPreference, PlayerLanguages, PreferencesService
from bot.storage.diagnostics import dump_tables
from tests.bot.services.support import START, FakeClock, open_database


@pytest.fixture
async def database(tmp_path, databases):
    database = await open_database(tmp_path / "preferences.db", databases)
    yield database
    await database.close()


async def test_panels_default_to_dm_then_follow_each_players_choice(database):
    clock = FakeClock(START)
    preferences = PreferencesService(database, clock=clock)
    assert await preferences.panel_places([1, 2]) == {1: "dm", 2: "dm"}
    assert await preferences.panel_places([]) == {}
    assert await preferences.set_panel_place(1, "here") == "here"
    assert await preferences.panel_places([1, 2, 1]) == {1: "here", 2: "dm"}
    clock.advance(5)
    await preferences.set_panel_place(1, "dm")
    await preferences.set_panel_place(2, "here")
    assert await preferences.panel_places([1, 2]) == {1: "dm", 2: "here"}
    assert await preferences.panel_place(2) == "here"
    async with database.read() as conn:
        rows = (await dump_tables(conn))["player_preferences"]
    assert sorted(rows) == [
        (1, "dm", START + 5, None), (2, "here", START + 5, None)]


async def test_a_bad_place_is_refused_and_changes_nothing(database):
    preferences = PreferencesService(database, clock=FakeClock(START))
    await preferences.set_panel_place(1, "here")
    async with database.read() as conn:
        before = await dump_tables(conn)
    with pytest.raises(InvalidPreference) as refused:
        await preferences.set_panel_place(1, "mailbox")
    assert "`dm` or `here`" in str(refused.value)
    async with database.read() as conn:
        assert await dump_tables(conn) == before


async def test_a_players_language_is_stored_when_it_changes_and_kept_beside_their_panels(database):
    clock = FakeClock(START)
    languages = PlayerLanguages(database, clock=clock)
    assert await languages.of([1, 2]) == {}
    await PreferencesService(database, clock=clock).set_panel_place(1, "here")
    clock.advance(1)
    await languages.note(1, "de")
    await languages.note(2, "pl")
    clock.advance(1)
    await languages.note(1, "de")  # the same again: nothing is written
    async with database.read() as conn:
        assert sorted((await dump_tables(conn))["player_preferences"]) == [
            (1, "here", START + 1, "de"), (2, "dm", START + 1, "pl")]
    await languages.note(1, "fr")
    assert await languages.of([1, 2, 3]) == {1: "fr", 2: "pl"}
    # another process (a new memory) reads what was stored
    assert await PlayerLanguages(database, clock=clock).of([2, 1]) == {1: "fr", 2: "pl"}
    async with database.read() as conn:
        assert sorted((await dump_tables(conn))["player_preferences"])[0] == (1, "here", START + 2, "fr")
