"""Loopback only: while installed, any socket connection (or name lookup) beyond 127.0.0.1 / ::1 is refused.

The e2e tests must not send traffic anywhere but the local Discord; this makes that a checked property
instead of a hope (a refused attempt raises ``ConnectionRefusedError`` and is recorded as a problem).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def _is_loopback(host: object) -> bool:
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    if not isinstance(host, str):
        return False
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


class LoopbackOnly:
    def __init__(self, on_refused: Callable[[str], None] | None = None) -> None:
        self.on_refused = on_refused
        self.refused: list[str] = []
        self._saved: tuple | None = None

    def _refuse(self, what: str) -> None:
        self.refused.append(what)
        if self.on_refused is not None:
            self.on_refused(what)

    def install(self) -> LoopbackOnly:
        if self._saved is not None:
            return self
        connect, connect_ex, getaddrinfo = socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo
        guard = self

        def checked(sock: socket.socket, address) -> None:
            if sock.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address[0]):
                guard._refuse(f"connect to {address!r}")
                raise ConnectionRefusedError(f"the e2e tests may only connect to 127.0.0.1, not {address!r}")

        def guarded_connect(sock, address):
            checked(sock, address)
            return connect(sock, address)

        def guarded_connect_ex(sock, address):
            checked(sock, address)
            return connect_ex(sock, address)

        def guarded_getaddrinfo(host, *args, **kwargs):
            if host is not None and not _is_loopback(host):
                guard._refuse(f"name lookup of {host!r}")
                raise socket.gaierror(socket.EAI_NONAME, f"the e2e tests may not resolve {host!r}")
            return getaddrinfo(host, *args, **kwargs)

        self._saved = (connect, connect_ex, getaddrinfo)
        socket.socket.connect = guarded_connect
        socket.socket.connect_ex = guarded_connect_ex
        socket.getaddrinfo = guarded_getaddrinfo
        return self

    def remove(self) -> None:
        if self._saved is not None:
            socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo = self._saved
            self._saved = None
