"""A throwaway PostgreSQL server for the tests: a fresh cluster in a temporary directory, on 127.0.0.1 and a free
port, stopped and deleted at the end.

The server programs are found, in order: ``PG_BIN`` (a directory holding ``initdb`` and ``pg_ctl``), Debian's
``/usr/lib/postgresql/<newest>/bin``, then the ``pgserver`` package's bundled PostgreSQL (installed from the
package index when a machine has none: ``.ci/run`` does that). PostgreSQL refuses to run as root, so as root the
cluster belongs to the ``postgres`` system user and its programs run through ``runuser -u postgres``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "airwar"


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server programs on this machine."""


def _readable_by_postgres(directory: Path) -> Path:
    """The bundled programs where the ``postgres`` user can run them (a copy when they sit under a home it cannot
    enter)."""
    probe = subprocess.run(["runuser", "-u", "postgres", "--", "test", "-x", str(directory / "initdb")],
                           capture_output=True)
    if probe.returncode == 0:
        return directory
    copy = Path(tempfile.gettempdir()) / "airwar-pginstall"
    if not (copy / "bin" / "initdb").exists():
        shutil.copytree(directory.parent, copy, dirs_exist_ok=True)
        for path in [copy, *copy.rglob("*")]:
            path.chmod(path.stat().st_mode | 0o055)
    return copy / "bin"


def _ensure_postgres_user() -> None:
    """As root, PostgreSQL runs as the ``postgres`` system user: made if the machine has none."""
    if subprocess.run(["id", "postgres"], capture_output=True).returncode != 0:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"],
                       check=True, capture_output=True)


def server_programs() -> Path:
    """The directory of ``initdb`` and ``pg_ctl``."""
    given = os.environ.get("PG_BIN")
    candidates = [Path(given)] if given else []
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda path: int(path.parent.name)
                    if path.parent.name.isdigit() else 0)
    candidates += reversed(debian)
    bundled = importlib.util.find_spec("pgserver")  # found, not imported (importing it sets up more than we need)
    if bundled is not None and bundled.origin:
        candidates.append(Path(bundled.origin).resolve().parent / "pginstall" / "bin")
    for directory in candidates:
        if (directory / "initdb").exists() and (directory / "pg_ctl").exists():
            return directory
    raise PostgresUnavailable("no PostgreSQL server programs: install Debian's postgresql, or `pip install pgserver`,"
                              " or set PG_BIN")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostgresServer:
    """A running cluster: ``url`` (``postgresql://airwar@127.0.0.1:<port>/postgres``), the data directory."""

    programs: Path
    root: Path
    port: int
    as_postgres: bool
    #: fsync and full-page writes on (a benchmark's server, on disk); off for the tests, where a crash loses nothing
    durable: bool = False

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_postgres else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, text=True, timeout=120)

    def start(self) -> None:
        self._run(str(self.programs / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "--auth=trust",
                  "--encoding=UTF8", "--locale=C", "--no-sync")
        # synchronous_commit=off either way: like the bot's SQLite (WAL, synchronous=NORMAL), a commit does not wait
        # for its fsync, and a crash of the machine may lose the last ones but never leaves the database broken
        durability = "" if self.durable else "-c fsync=off -c full_page_writes=off "
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.root} "
                   f"{durability}-c synchronous_commit=off -c max_connections=200")
        self._run(str(self.programs / "pg_ctl"), "-D", str(self.data), "-o", options, "-l",
                  str(self.root / "server.log"), "-w", "-t", "60", "start")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run(str(self.programs / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def postgres_server(*, durable: bool = False, directory: str | None = None) -> Iterator[PostgresServer]:
    """A fresh PostgreSQL server for the block (raises PostgresUnavailable without the programs), its data in a new
    directory in ``directory`` (default: the system's temporary directory); ``durable``: see
    :attr:`PostgresServer.durable`."""
    programs = server_programs()
    as_postgres = os.geteuid() == 0
    if as_postgres:
        _ensure_postgres_user()
        if "pgserver" in programs.parts:
            programs = _readable_by_postgres(programs)
    root = Path(tempfile.mkdtemp(prefix="airwar-pg-", dir=directory))
    if as_postgres:
        shutil.chown(root, "postgres", "postgres")
        root.chmod(0o700)
    server = PostgresServer(programs, root, _free_port(), as_postgres, durable)
    try:
        server.start()
        yield server
    finally:
        server.stop()


class Databases:
    """Fresh databases on one server, one per name asked for (the same name: the same database again, as a
    SQLite path reopened is the same file)."""

    def __init__(self, server: PostgresServer) -> None:
        self.server = server
        self._made: dict[str, str] = {}

    async def url_for(self, key: str) -> str:
        import asyncpg

        if key not in self._made:
            name = f"t{len(self._made) + 1}"
            connection = await asyncpg.connect(self.server.url())
            try:
                await connection.execute(f'CREATE DATABASE "{name}"')
            finally:
                await connection.close()
            self._made[key] = name
        return self.server.url(self._made[key])
