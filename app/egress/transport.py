"""The one way out: an httpx transport whose connections are checked at the socket.

`GuardedBackend` (an httpcore network backend) resolves the host itself, refuses the connection when any
address it resolves to is not public (app/egress/addresses.py), connects to a checked address, and checks
the peer the socket is actually connected to before a byte is sent, so a name that resolves differently a
moment later (DNS rebinding) cannot slip through. Every connection goes through it, so every redirect to
a new host is checked as well. Hosts on the operator's allowlist (app/egress/policy.py) are let through.
Resolver and connector are injectable: tests record destinations and never send a packet anywhere else.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterable
from typing import Any

import httpcore
import httpx
from httpcore._backends.sync import SyncStream

from app.egress.addresses import IPAddress, parse, refusal
from app.egress.policy import ENV_ALLOW_HOSTS, EgressPolicy
from app.errors import EgressRefused

Resolver = Callable[[str, int], list[str]]
Connector = Callable[[tuple[str, int], float | None, tuple[str, int] | None], socket.socket]


def system_resolver(host: str, port: int) -> list[str]:
    """Every address `host` resolves to, in the resolver's order."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def system_connector(address: tuple[str, int], timeout: float | None, source: tuple[str, int] | None) -> socket.socket:
    return socket.create_connection(address, timeout, source_address=source)


def _refused(host: str, address: str, why: str) -> EgressRefused:
    shown = host if host == address else f"{host} ({address})"
    return EgressRefused(
        f"refused to connect to {shown}: {why}. ToolChoice does not connect to private networks; an operator "
        f"can allow a host by naming it in {ENV_ALLOW_HOSTS}"
    )


class GuardedBackend(httpcore.NetworkBackend):
    def __init__(
        self,
        policy: EgressPolicy,
        *,
        resolver: Resolver = system_resolver,
        connector: Connector = system_connector,
    ) -> None:
        self.policy = policy
        self.resolver = resolver
        self.connector = connector

    def _addresses(self, host: str, port: int) -> list[IPAddress]:
        literal = parse(host)
        if literal is not None:
            return [literal]
        try:
            resolved = [parse(a) for a in self.resolver(host, port)]
        except OSError as exc:
            raise httpcore.ConnectError(f"cannot resolve {host}: {exc}") from exc
        addresses = [a for a in resolved if a is not None]
        if not addresses:
            raise httpcore.ConnectError(f"cannot resolve {host}: no address")
        return addresses

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        allowed = self.policy.allows(host)
        addresses = self._addresses(host, port)
        if not allowed:
            for ip in addresses:  # one private answer refuses the name: the resolver may rotate answers
                why = refusal(ip)
                if why:
                    raise _refused(host, str(ip), why)
        source = None if local_address is None else (local_address, 0)
        try:
            sock = self.connector((str(addresses[0]), port), timeout, source)
        except TimeoutError as exc:
            raise httpcore.ConnectTimeout(str(exc)) from exc
        except OSError as exc:
            raise httpcore.ConnectError(str(exc)) from exc
        try:
            peer = parse(str(sock.getpeername()[0]))
            why = None if allowed or peer is None else refusal(peer)
            if why:
                raise _refused(host, str(peer), f"{why}, though {host} resolved to {addresses[0]} (DNS rebinding?)")
            for option in socket_options or ():
                sock.setsockopt(*option)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except BaseException:
            sock.close()
            raise
        return SyncStream(sock)

    def connect_unix_socket(self, *args: Any, **kwargs: Any) -> httpcore.NetworkStream:
        raise EgressRefused("connections over Unix sockets are not made")

    def sleep(self, seconds: float) -> None:
        httpcore.SyncBackend().sleep(seconds)


def guarded_transport(
    policy: EgressPolicy | None = None,
    *,
    resolver: Resolver = system_resolver,
    connector: Connector = system_connector,
    **kwargs: Any,
) -> httpx.HTTPTransport:
    """An httpx transport (no proxy: every connection is ours to check) whose sockets pass GuardedBackend.
    The allowlist is read from the environment when no policy is given."""
    transport = httpx.HTTPTransport(proxy=None, **kwargs)
    backend = GuardedBackend(policy or EgressPolicy.from_env(), resolver=resolver, connector=connector)
    # httpx takes no backend argument; its pool is an httpcore.ConnectionPool, whose backend this sets
    # (tests/egress/test_transport.py fails if a new httpx stops using it).
    pool = transport._pool
    if not isinstance(pool, httpcore.ConnectionPool):
        raise TypeError("unexpected httpx transport internals: no httpcore.ConnectionPool")
    pool._network_backend = backend
    return transport


def refused_cause(exc: BaseException | None) -> EgressRefused | None:
    """The EgressRefused somewhere in `exc`'s chain of causes (SDKs wrap it in their own errors)."""
    seen = 0
    while exc is not None and seen < 20:
        if isinstance(exc, EgressRefused):
            return exc
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None
