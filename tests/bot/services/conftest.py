import pytest

from tests.bot.services.support import FakeClock, open_service


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
async def opener(clock, databases):
    """``await opener(path)``: a MatchKernel on that file (or its PostgreSQL database), closed at teardown even when
    the test fails (an open connection would keep the test run from exiting)."""
    services = []

    async def open_(path, **options):
        service = await open_service(path, options.pop("clock", clock), postgres=databases, **options)
        services.append(service)
        return service

    yield open_
    for service in services:
        await service.db.close()


@pytest.fixture
async def service(tmp_path, opener):
    return await opener(tmp_path / "airwar.db")
