"""A TCP proxy between the bridge and the board simulator that damages the line on demand."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable

Mangle = Callable[[bytes], bytes]


def clean(data: bytes) -> bytes:
    return data


class FaultyLine:
    """``socket://`` URL in ``url``; ``to_board`` / ``to_host`` change the bytes in flight;
    ``cut()`` breaks the current connection (an unplug)."""

    def __init__(self, board_url: str) -> None:
        host, port = board_url.removeprefix("socket://").split(":")
        self.board = (host, int(port))
        self.to_board: Mangle = clean
        self.to_host: Mangle = clean
        self._server = socket.socket()
        self._server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(1)
        self.url = f"socket://127.0.0.1:{self._server.getsockname()[1]}"
        self._sockets: list[socket.socket] = []
        self._closing = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closing:
            try:
                host, _ = self._server.accept()
            except OSError:
                return  # closed
            try:
                board = socket.create_connection(self.board)
            except OSError:
                host.close()
                continue
            for s in (host, board):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._sockets += [host, board]
            threading.Thread(target=self._pump, args=(host, board, lambda d: self.to_board(d)), daemon=True).start()
            threading.Thread(target=self._pump, args=(board, host, lambda d: self.to_host(d)), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket, mangle: Mangle) -> None:
        try:
            while data := source.recv(4096):
                sink.sendall(mangle(data))
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        for s in self._sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
        self._sockets = []

    def close(self) -> None:
        self._closing = True
        self.cut()
        self._server.close()
