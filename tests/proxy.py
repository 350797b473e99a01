"""A TCP proxy a test controls, to cut a service (Redis, PostgreSQL) for the servers behind it
without touching the machine's shared one (docs/testing.md, "Fault tests").

    with TcpProxy("127.0.0.1", 6379) as proxy:      # listens on proxy.port
        ...  # servers use redis://127.0.0.1:{proxy.port}/0
        proxy.refuse()   # every connection closed (RST), new ones refused: a service down
        proxy.silence()  # connections held, nothing forwarded: a service that hangs
        proxy.restore()  # forwarding again (what was held during a silence goes on)

One thread accepts, one thread per direction of each connection copies bytes. While silent
the copying threads stop reading, so the peers' writes wait in the kernel's buffers, as on a
network that drops packets; ``restore`` lets them go on.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from typing import Self


class TcpProxy:
    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.mode = "forward"
        self.flowing = threading.Event()
        self.flowing.set()
        self.lock = threading.Lock()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.stopped = False
        self.acceptor = threading.Thread(target=self._accept, daemon=True)

    def __enter__(self) -> Self:
        self.acceptor.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped = True
        self.flowing.set()
        with contextlib.suppress(OSError):
            self.listener.close()
        self._close_all()

    # --- the test's controls

    def refuse(self) -> None:
        """Close every connection with a reset and refuse new ones, as a stopped service."""
        self.mode = "refuse"
        self.flowing.set()
        self._close_all()

    def silence(self) -> None:
        """Hold every connection and forward nothing, old or new, as a hung service."""
        self.mode = "silent"
        self.flowing.clear()

    def restore(self) -> None:
        self.mode = "forward"
        self.flowing.set()

    # --- inside

    def _accept(self) -> None:
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.mode == "refuse":
                _reset(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                _reset(client)
                continue
            with self.lock:
                self.pairs.append((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._copy, args=(source, sink), daemon=True).start()

    def _copy(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                self.flowing.wait()
                if self.stopped or self.mode == "refuse":
                    break
                data = source.recv(65536)
                if not data:
                    break
                self.flowing.wait()  # a silence that began meanwhile holds this too
                if self.mode == "refuse":
                    break
                sink.sendall(data)
        except OSError:
            pass
        finally:
            _reset(source)
            _reset(sink)

    def _close_all(self) -> None:
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for client, upstream in pairs:
            _reset(client)
            _reset(upstream)


def _reset(sock: socket.socket) -> None:
    """Close with RST (SO_LINGER 0), as a dead service's host answers."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        sock.close()
