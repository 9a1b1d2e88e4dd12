"""SIGKILL at any moment: a real process plays a match and kills itself before its N-th SQL statement (inside a
transaction, between two, between showing an event and marking it shown ...); a fresh service on the same file
then resumes the match. Every time: the identical result, moves and events as a run without a kill, each result
recorded once, every event shown, and none shown twice except the one being shown at the kill."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.bot.services.crash_driver import drive
from tests.bot.services.support import FakeClock, consistency, open_service
from tests.records import match_results

ROOT = Path(__file__).resolve().parents[3]
# where to die: fixed statement numbers in the challenge and the accept, then fractions of a whole match's
# statements (measured by running the driver once without a kill) for early, middle, late play and the very end
KILL_AT = (3, 12, 41, 0.17, 0.44, 0.997)


async def outcome(path: Path, log: Path) -> dict:
    service = await open_service(path, FakeClock())
    try:
        match_id = await drive(service, log)  # resume wherever the database is
        match = await service.get_match(match_id)
        return {
            "result": match.result,
            "results": [(r.seat, r.user_id, r.outcome, r.rating_after)
                        for r in await match_results(service.db, match_id)],
            "export": await service.export(match_id),
            "events": [(q.seq, q.event) for q in await service.outbox.events(match_id)],
            "unshown": await service.outbox.unshown_events(match_id),
            "problems": await consistency(service.db),
            "open": await service.open_matches(),
        }
    finally:
        await service.db.close()


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    directory = tmp_path_factory.mktemp("reference")
    return asyncio.run(outcome(directory / "airwar.db", directory / "shown.log"))


@pytest.fixture(scope="module")
def total_statements(tmp_path_factory) -> int:
    """How many SQL statements a whole match takes when nothing kills it."""
    directory = tmp_path_factory.mktemp("count")
    finished = subprocess.run(
        [sys.executable, "-m", "tests.bot.services.crash_driver", str(directory / "airwar.db"),
         str(directory / "shown.log")], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )
    return int(finished.stdout.split()[-1])


@pytest.mark.parametrize("kill_at", KILL_AT)
async def test_a_kill_at_any_statement_loses_nothing(tmp_path, kill_at, reference, total_statements):
    path, log = tmp_path / "airwar.db", tmp_path / "shown.log"
    statement = kill_at if isinstance(kill_at, int) else int(kill_at * total_statements)
    assert 0 < statement < total_statements
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.bot.services.crash_driver", str(path), str(log), str(statement),
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == -signal.SIGKILL, stderr.decode()
    resumed = await outcome(path, log)
    for key in ("result", "results", "export", "events"):
        assert resumed[key] == reference[key], key
    assert resumed["unshown"] == [] and resumed["problems"] == [] and resumed["open"] == []
    shown = [int(line.split()[0]) for line in log.read_text().splitlines()]
    assert sorted(set(shown)) == [seq for seq, _ in reference["events"]]  # every event shown, in order
    assert shown == sorted(shown)
    twice = [seq for seq, count in Counter(shown).items() if count > 1]
    assert len(twice) <= 1  # at most the one being shown when the process died
