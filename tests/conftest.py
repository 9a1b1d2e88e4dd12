"""Fixtures for the end-to-end tests: the local Discord (tests/localdiscord) with a bot connected to it.

* ``make_env(bot_factory=None, **server_options)`` -- start a local Discord, and a bot built by
  ``bot_factory(env)`` if given; returns the :class:`~tests.localdiscord.Env` driver.
* ``env`` -- the real Air War bot (``bot.client.CardGameBot``) on a temporary SQLite file, syncing its commands to
  the local guild.

At teardown the bot is closed and the test fails if the local Discord recorded a problem: an unknown route,
a request or response that breaks Discord's OpenAPI spec, an interaction answered late or twice or not at
all, a followup with an expired token, or any ERROR log record from the ``discord``, ``bot`` or ``cogs``
loggers (the error-log guard).  A test that *expects* one of those takes it with ``env.take_problems(kind)``
or ``env.take_error_logs()``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# pytest puts tests/ first on sys.path for this conftest (tests/ has no __init__.py); tests/bot would then shadow
# the project's `bot` package.  The project root first keeps `bot`/`cogs` the real packages and makes
# `tests.localdiscord` importable under the same name the benchmarks use.
if str(ROOT) not in sys.path[:1]:
    sys.path.insert(0, str(ROOT))

from tests.localdiscord import Env  # noqa: E402
from tests.localdiscord.airwar import airwar_bot_factory  # noqa: E402


@pytest.fixture
async def make_env():
    envs: list[Env] = []

    async def factory(bot_factory: Callable[[Env], object] | None = None, **server_options) -> Env:
        env = await Env.start(bot_factory, **server_options)
        envs.append(env)
        return env

    yield factory

    failures: list[str] = []
    for env in envs:
        await env.close()
        failures.extend(env.failures())
    if failures:
        pytest.fail("the local Discord recorded problems:\n  " + "\n  ".join(failures), pytrace=False)


@pytest.fixture
async def env(make_env, tmp_path) -> Env:
    return await make_env(airwar_bot_factory(tmp_path / "airwar.db"))


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL server for the whole run (started on first use, stopped at the end): its
    :class:`tests.postgres.Databases`."""
    from tests.postgres import Databases, postgres_server

    with postgres_server() as server:
        yield Databases(server)


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request):
    """The storage a test runs on: each test that asks for it (or for ``databases``) runs on both."""
    return request.param


@pytest.fixture
def databases(backend, request):
    """Where a test's databases live: ``None`` (SQLite files) or the PostgreSQL server's
    :class:`tests.postgres.Databases`."""
    return request.getfixturevalue("postgres") if backend == "postgresql" else None
