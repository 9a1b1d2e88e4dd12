"""The SQLite storage is an implementation of the port: every member of every protocol exists with the same
signature (parameter names, kinds and defaults; coroutine or not), and the port holds every storage function that
the match kernel and the services call."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from bot.storage import Database, chips, matches, preferences, results, seasons, settings, stats, tournaments, web
from bot.storage.port import (
    ChipStore,
    MatchStore,
    PreferenceStore,
    ResultStore,
    SeasonStore,
    SettingsStore,
    StatsStore,
    Storage,
    TournamentStore,
    WebStore,
)

STORES = {"matches": (MatchStore, matches), "results": (ResultStore, results), "settings": (SettingsStore, settings),
          "stats": (StatsStore, stats), "seasons": (SeasonStore, seasons),
          "tournaments": (TournamentStore, tournaments), "preferences": (PreferenceStore, preferences),
          "chips": (ChipStore, chips), "web": (WebStore, web)}
ROOT = Path(__file__).resolve().parents[3]
CALLERS = sorted(str(path.relative_to(ROOT)) for folder in ("match", "services")
                 for path in (ROOT / "bot" / folder).glob("*.py"))


def members(protocol: type) -> dict[str, object]:
    """The protocol's methods and properties, by name (its attributes are in its annotations)."""
    return {name: value for name, value in vars(protocol).items()
            if not name.startswith("_") and (callable(value) or isinstance(value, property))}


def shape(function: object, *, drop_self: bool) -> tuple[bool, list[tuple[str, object, object]]]:
    """Coroutine or not, and each parameter's name, kind and default."""
    parameters = list(inspect.signature(function).parameters.values())  # type: ignore[arg-type]
    if drop_self:
        parameters = parameters[1:]
    return (inspect.iscoroutinefunction(function),
            [(parameter.name, parameter.kind, parameter.default) for parameter in parameters])


@pytest.mark.parametrize("name", sorted(STORES))
def test_each_store_module_has_every_member_of_its_protocol(name):
    protocol, module = STORES[name]
    assert members(protocol), protocol
    for member, declared in members(protocol).items():
        implemented = getattr(module, member, None)
        assert implemented is not None, f"{module.__name__} lacks {member}"
        assert shape(implemented, drop_self=False) == shape(declared, drop_self=True), f"{name}.{member}"


async def test_the_database_is_a_storage_whose_stores_are_the_modules(tmp_path):
    database = await Database.open(tmp_path / "port.db")
    try:
        assert set(Storage.__annotations__) == set(STORES)
        for name, (_, module) in STORES.items():
            assert getattr(database, name) is module
        for member, declared in members(Storage).items():
            if isinstance(declared, property):
                assert isinstance(inspect.getattr_static(database, member), property), member
                continue
            assert shape(getattr(database, member), drop_self=False) == shape(declared, drop_self=True), member
        async with database.transaction() as conn, database.pipelined(conn) as watched:
            watched.send(lambda connection: settings.remember_player(connection, 1, 2, "Ann", 0.0))
        async with database.read() as conn:
            assert await database.settings.display_name(conn, 1, 2) == "Ann"
    finally:
        await database.close()


#: the store a caller holds as ``self.store``
OWN_STORE = {**{f"bot/match/{name}.py": "matches" for name in ("kernel", "challenges", "outbox", "work")},
             "bot/services/tournaments.py": "tournaments"}


def storage_calls(caller: str) -> set[tuple[str, str]]:
    """(store, function) for every ``<database>.<store>.function`` and ``self.store.function`` in the file."""
    tree = ast.parse((ROOT / caller).read_text(encoding="utf-8"))
    calls = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not isinstance(node.value, ast.Attribute):
            continue
        if node.value.attr in STORES:
            calls.add((node.value.attr, node.attr))
        elif node.value.attr == "store" and caller in OWN_STORE:
            calls.add((OWN_STORE[caller], node.attr))
    return calls


def imported_stores(caller: str) -> set[str]:
    tree = ast.parse((ROOT / caller).read_text(encoding="utf-8"))
    return {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            and node.module == "bot.storage" for alias in node.names if alias.name in STORES}


def test_the_port_has_every_storage_function_the_callers_use():
    used = set().union(*(storage_calls(caller) for caller in CALLERS))
    missing = sorted(f"{store}.{function}" for store, function in used
                     if inspect.isfunction(getattr(STORES[store][1], function))
                     and function not in members(STORES[store][0]))
    assert {store for store, _ in used} == set(STORES) and missing == []


def test_the_kernel_and_the_services_reach_storage_only_through_the_port():
    assert {caller: imported_stores(caller) for caller in CALLERS} == {caller: set() for caller in CALLERS}
