"""A web site on a real temp SQLite database, served on 127.0.0.1 (aiohttp's test server)."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.storage.database import Database
from bot.web.app import make_app


@pytest.fixture
async def db(tmp_path):
    database = await Database.open(tmp_path / "airwar.db")
    yield database
    await database.close()


@pytest.fixture
async def site(db):
    client = TestClient(TestServer(make_app(db), host="127.0.0.1"))
    await client.start_server()
    yield client
    await client.close()
