"""A web site on a real database -- a temp SQLite file, and the same tests again on PostgreSQL -- served on
127.0.0.1 (aiohttp's test server)."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.storage.database import Database
from bot.web.app import make_app


@pytest.fixture
async def db(tmp_path, databases):
    if databases is None:
        database = await Database.open(tmp_path / "airwar.db")
    else:
        from bot.storage.postgres import PostgresDatabase

        database = await PostgresDatabase.open(await databases.url_for(str(tmp_path)))
    yield database
    await database.close()


@pytest.fixture
async def sqlite_db(tmp_path):
    """The SQLite file ``airwar.db`` in the test's folder (what ``python -m bot web`` reads by default)."""
    database = await Database.open(tmp_path / "airwar.db")
    yield database
    await database.close()


@pytest.fixture
async def site(db):
    client = TestClient(TestServer(make_app(db), host="127.0.0.1"))
    await client.start_server()
    yield client
    await client.close()
