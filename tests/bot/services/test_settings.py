"""The settings service on a real SQLite file: every setting validated (a refusal changes nothing), stored, read
back, shared with the match service's own timer and pace, and the start-channel check."""

from __future__ import annotations

import dataclasses

import pytest

from bot.i18n import N_
from bot.match.kernel import MatchKernel
from bot.registry import GameSetting, Registry, registry, use_registry
from bot.services.settings import InvalidSetting, SettingsService, StartChannelRefused, parse_rules_text
from bot.storage import Database
from bot.storage.diagnostics import dump_tables
from tests.bot.services.support import START, FakeClock, open_database

GUILD, OTHER = 1, 2


@pytest.fixture
async def database(tmp_path, databases):
    database = await open_database(tmp_path / "settings.db", databases)
    yield database
    await database.close()


@pytest.fixture
def settings(database):
    return SettingsService(database, clock=FakeClock(START))


async def unchanged(database: Database, call) -> str:
    """Run a call that must be refused; assert it changed nothing and return its message."""
    async with database.read() as conn:
        before = await dump_tables(conn)
    with pytest.raises(InvalidSetting) as refused:
        await call
    async with database.read() as conn:
        assert await dump_tables(conn) == before
    return str(refused.value)


async def test_defaults_then_every_setting_stored_and_read_back(settings: SettingsService, database):
    current = await settings.get(GUILD)
    assert (current.arrange_seconds, current.flip_pace_ms, current.war_pace, current.thread_per_match,
            current.default_rules, current.start_channels) == (120, 1500, "auto", True, {}, ())
    await settings.set_arrange_seconds(GUILD, 45)
    await settings.set_flip_pace_ms(GUILD, 2000)
    await settings.set_war_pace(GUILD, "Instant")
    await settings.set_thread_per_match(GUILD, False)
    await settings.set_default_rules(GUILD, "war", "pack=36 aces=low face_down=3")
    await settings.set_default_rules(GUILD, "airwar", {"stack": 3})
    await settings.add_start_channel(GUILD, 77)
    current = await settings.add_start_channel(GUILD, 55)
    assert (current.arrange_seconds, current.flip_pace_ms, current.war_pace, current.thread_per_match) == \
        (45, 2000, "instant", False)
    assert current.default_rules == {"airwar": {"stack": 3}, "war": {"aces": "low", "face_down": 3, "pack": 36}}
    assert current.start_channels == (55, 77)
    assert await SettingsService(database).get(GUILD) == current  # stored, not cached
    assert (await settings.get(OTHER)).start_channels == ()  # per server

    # a setter keeps the other settings; the match kernel reads the same timer and pace
    matches = MatchKernel(database, game="airwar", clock=FakeClock(START))
    await settings.set_arrange_seconds(GUILD, 300)
    after = await settings.get(GUILD)
    assert (after.arrange_seconds, after.flip_pace_ms, after.war_pace, after.thread_per_match) == \
        (300, 2000, "instant", False)
    assert after.default_rules == current.default_rules and after.start_channels == (55, 77)
    assert (await matches.get_settings(GUILD)).flip_pace_ms == 2000

    assert await settings.rules_for(GUILD, "war", {"aces": "high"}) == {"aces": "high", "face_down": 3, "pack": 36}
    assert await settings.rules_for(GUILD, "army") == {}
    current = await settings.set_default_rules(GUILD, "war", "reset")
    assert "war" not in current.default_rules and current.default_rules["airwar"] == {"stack": 3}


async def test_bad_values_are_refused_with_a_clear_message_and_change_nothing(settings: SettingsService, database):
    await settings.add_start_channel(GUILD, 5)
    assert await unchanged(database, settings.set_arrange_seconds(GUILD, 10)) == \
        "The arrangement timer must be a whole number from 30 to 600 seconds, not 10."
    assert await unchanged(database, settings.set_flip_pace_ms(GUILD, 1500.5)) == \
        "The flip pace must be a whole number from 1000 to 5000 milliseconds, not 1500.5."
    assert (await unchanged(database, settings.set_flip_pace_ms(GUILD, 500))).endswith("not 500.")
    assert await unchanged(database, settings.set_war_pace(GUILD, "slow")) == \
        "War's pace is one of flip, auto, instant, not 'slow'."
    assert await unchanged(database, settings.set_thread_per_match(GUILD, 1)) == \
        "Thread per match is on or off, not 1."
    assert await unchanged(database, settings.set_default_rules(GUILD, "war", "pack=35")) == \
        "Bad rules for War: rule 'pack' takes one of 52, 36, 32, not 35."
    assert await unchanged(database, settings.set_default_rules(GUILD, "airwar", "colour=red")) == \
        "Bad rules for Air War: unknown rule 'colour'; this game's rules are: aces, deck, stack."
    assert await unchanged(database, settings.set_default_rules(GUILD, "airwar", "stack")) == \
        "Rules are key=value pairs separated by spaces; 'stack' isn't one."
    assert await unchanged(database, settings.set_default_rules(GUILD, "airwar", "stack=3 stack=4")) == \
        "The rule 'stack' is given twice."
    assert await unchanged(database, settings.set_default_rules(GUILD, "airwar", "stack=9")) == \
        "Bad rules for Air War: rule 'stack' must be at most 7, not 9."
    assert "there is no game 'chess'" in (await unchanged(database, settings.set_default_rules(GUILD, "chess",
                                                                                               "x=1"))).lower()
    assert await unchanged(database, settings.add_start_channel(GUILD, 5)) == \
        "<#5> is already one of the channels where matches may start."
    assert await unchanged(database, settings.remove_start_channel(GUILD, 6)) == \
        "<#6> isn't one of the channels where matches may start."


async def test_matches_start_anywhere_until_channels_are_listed(settings: SettingsService):
    await settings.check_start(GUILD, 1)
    await settings.add_start_channel(GUILD, 10)
    await settings.add_start_channel(GUILD, 20)
    await settings.check_start(GUILD, 10)
    await settings.check_start(GUILD, 99, parent_id=20)  # a thread of a listed channel
    with pytest.raises(StartChannelRefused) as refused:
        await settings.check_start(GUILD, 30)
    assert str(refused.value) == "Matches can't be started in <#30> on this server; start one in <#10>, <#20>."
    await settings.check_start(OTHER, 30)
    await settings.remove_start_channel(GUILD, 10)
    with pytest.raises(StartChannelRefused):
        await settings.check_start(GUILD, 10)
    await settings.clear_start_channels(GUILD)
    await settings.check_start(GUILD, 30)


def test_rules_text_is_parsed_by_the_games_own_options():
    assert parse_rules_text("war", "jokers=2 capture_pile=yes target=none") == \
        {"jokers": 2, "capture_pile": True, "target": None}
    assert parse_rules_text("airwar", "aces=LOW deck=tarot") == {"aces": "low", "deck": "tarot"}
    with pytest.raises(InvalidSetting, match="Give the rules as key=value pairs"):
        parse_rules_text("war", "   ")


async def test_a_refusal_is_said_in_the_members_language_and_stays_english_by_default(settings: SettingsService,
                                                                                        database):
    from bot.i18n import texts
    from bot.services.settings import check_rules
    from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language

    with pytest.raises(InvalidSetting) as refused:
        await settings.set_war_pace(GUILD, "slow")
    assert str(refused.value) == "War's pace is one of flip, auto, instant, not 'slow'."
    assert refused.value.said(texts("de")) == "Das Tempo von Krieg ist eines von flip, auto, instant, nicht 'slow'."
    with pytest.raises(InvalidSetting) as refused:
        await settings.set_arrange_seconds(GUILD, 5)
    assert refused.value.said(texts("ru")) == ("Время на раскладку должно быть целым числом от 30 до 600 секунд, "
                                                "а не 5.")
    with pytest.raises(InvalidSetting) as refused:
        await settings.remove_start_channel(GUILD, 77)
    assert refused.value.said(texts("pl")) == "<#77> nie jest jednym z kanałów, na których mogą zaczynać się mecze."
    assert StartChannelRefused(5, (6, 7)).said(texts("fr")) == (
        "Impossible de lancer une partie dans <#5> sur ce serveur ; lance-la dans <#6>, <#7>.")
    with pytest.raises(InvalidSetting) as refused:
        parse_rules_text("war", "pack")
    assert refused.value.said(texts("es")) == ("Las reglas son pares key=value separados por espacios; 'pack' no lo "
                                               "es.")
    with pytest.raises(InvalidSetting) as refused:
        check_rules("airwar", {"stack": "many"})
    assert refused.value.said(texts("de")).startswith("Ungültige Regeln für Luftkrieg: ")  # the game's title too
    with pseudo_language():
        for call in (settings.set_war_pace(GUILD, "slow"), settings.set_thread_per_match(GUILD, "yes"),
                     settings.set_flip_pace_ms(GUILD, 1), settings.set_language(GUILD, "xx"),
                     settings.add_start_channel(GUILD, 5), settings.add_start_channel(GUILD, 5)):
            try:
                await call
            except InvalidSetting as error:
                assert english_left(error.said(texts(PSEUDO)), ["'slow'", "'yes'", "'xx'", "flip", "auto",
                                                                 "instant", "en, de, fr, es, pt_BR, ru, ro, pl, ja"]) \
                    == [], error.said(texts(PSEUDO))


#: a setting War declares in these tests only (no game of the project declares one yet)
TABLE = GameSetting("table", N_("Table shape"), ("round", "square"))


def with_war_declaring_a_setting() -> Registry:
    """The registry, War declaring :data:`TABLE`."""
    return Registry(dataclasses.replace(plugin, settings=(TABLE,)) if plugin.name == "war" else plugin
                    for plugin in registry().plugins)


@pytest.fixture
def war_declares_a_setting():
    previous = use_registry(with_war_declaring_a_setting())
    yield
    use_registry(previous)


async def test_a_setting_a_game_declares_is_checked_stored_for_its_game_and_read_back(settings: SettingsService,
                                                                                       database,
                                                                                       war_declares_a_setting):
    assert SettingsService.game_setting(await settings.get(GUILD), "war", "table") == "round"  # its default
    after = await settings.set_game_setting(GUILD, "drunkard", "table", " Square ")  # a variant sets its game's
    assert after.game_settings == {"war": {"table": "square"}}
    assert SettingsService.game_setting(await settings.get(GUILD), "war", "table") == "square"
    assert SettingsService.game_setting(await settings.get(GUILD), "doublewar", "table") == "square"
    assert (await settings.get(OTHER)).game_settings == {}  # each server its own
    assert await unchanged(database, settings.set_game_setting(GUILD, "war", "table", "oval")) == \
        "Table shape is one of round, square, not 'oval'."
    assert await unchanged(database, settings.set_game_setting(GUILD, "war", "colour", "red")) == \
        "War has no setting 'colour'."
    assert (await unchanged(database, settings.set_game_setting(GUILD, "chess", "table", "round"))).startswith(
        "There is no game 'chess'")
    with pytest.raises(KeyError):
        SettingsService.game_setting(await settings.get(GUILD), "army", "table")  # a setting Army never declared
    await settings.set_game_setting(GUILD, "war", "table", "round")  # its default again: nothing stored
    async with database.read() as conn:
        assert (await dump_tables(conn))["guild_game_settings"] == []
    assert (await settings.get(GUILD)).game_settings == {}
