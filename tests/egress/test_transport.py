"""The guarded transport: names are resolved and every address checked before connecting, the connected
peer after, and every redirect is a new checked connection. Resolver and connector are stubs that record
each destination; the only sockets opened go to loopback servers started here."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from app.egress.policy import ENV_ALLOW_HOSTS, EgressPolicy
from app.egress.transport import guarded_transport, refused_cause, system_connector
from app.errors import EgressRefused

from .test_addresses import REFUSED

LOOPBACK = EgressPolicy(allow_hosts=frozenset({"127.0.0.1"}))


class Recorder:
    """A resolver and a connector that record what was asked; the connector only ever opens loopback."""

    def __init__(self, answers: dict[str, list[str]] | None = None, *, land_on: int | None = None) -> None:
        self.answers = answers or {}
        self.land_on = land_on  # a loopback port every connection really goes to (a rebinding resolver)
        self.resolved: list[str] = []
        self.connected: list[tuple[str, int]] = []

    def resolve(self, host: str, port: int) -> list[str]:
        self.resolved.append(host)
        if host not in self.answers:
            raise socket.gaierror(f"no such name in this test: {host}")
        return self.answers[host]

    def connect(self, address: tuple[str, int], timeout: float | None, source: tuple[str, int] | None) -> socket.socket:
        self.connected.append(address)
        if self.land_on is not None:
            return system_connector(("127.0.0.1", self.land_on), timeout, source)
        if address[0] != "127.0.0.1":
            raise AssertionError(f"a test tried to reach {address}")
        return system_connector(address, timeout, source)


class _Handler(BaseHTTPRequestHandler):
    redirect_to = ""

    def do_GET(self) -> None:
        if self.path == "/hop" and self.redirect_to:
            self.send_response(302)
            self.send_header("Location", self.redirect_to)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def server() -> Iterator[tuple[int, type[_Handler]]]:
    handler = type("Handler", (_Handler,), {})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1], handler
    httpd.shutdown()
    httpd.server_close()


def client(policy: EgressPolicy, rec: Recorder) -> httpx.Client:
    transport = guarded_transport(policy, resolver=rec.resolve, connector=rec.connect)
    return httpx.Client(transport=transport, follow_redirects=True, timeout=5)


@pytest.mark.parametrize("address", REFUSED)
def test_a_name_resolving_to_a_private_address_is_refused_before_connecting(address: str) -> None:
    rec = Recorder({"api.example.test": [address.strip("[]")]})
    with client(EgressPolicy(), rec) as http, pytest.raises(EgressRefused, match=ENV_ALLOW_HOSTS):
        http.get("https://api.example.test/v1/models")
    assert rec.resolved == ["api.example.test"] and rec.connected == []


@pytest.mark.parametrize("address", REFUSED)
def test_an_address_in_the_url_is_refused_without_resolving(address: str) -> None:
    host = address if address.startswith("[") or ":" not in address else f"[{address}]"
    if "%" in host:
        pytest.skip("httpx does not take an IPv6 zone in a URL")
    rec = Recorder()
    with client(EgressPolicy(), rec) as http, pytest.raises(EgressRefused):
        http.get(f"http://{host}/latest/meta-data/")
    assert rec.resolved == [] and rec.connected == []


def test_one_private_answer_among_public_ones_refuses_the_name() -> None:
    rec = Recorder({"mixed.example.test": ["8.8.8.8", "10.0.0.5"]})
    with client(EgressPolicy(), rec) as http, pytest.raises(EgressRefused, match=r"mixed.example.test \(10.0.0.5\)"):
        http.get("https://mixed.example.test/")
    assert rec.connected == []


def test_a_public_answer_connected_to_a_private_peer_is_refused(server: tuple[int, type[_Handler]]) -> None:
    """DNS rebinding: the name checks out as public, but the socket lands on loopback; refused before a byte."""
    port, _ = server
    rec = Recorder({"rebind.example.test": ["93.184.216.34"]}, land_on=port)
    with client(EgressPolicy(), rec) as http, pytest.raises(EgressRefused, match="DNS rebinding"):
        http.get(f"http://rebind.example.test:{port}/")
    assert rec.connected == [("93.184.216.34", port)]  # asked for, but the packets went to loopback only


def test_an_allowed_loopback_host_works(server: tuple[int, type[_Handler]]) -> None:
    port, _ = server
    rec = Recorder()
    with client(LOOPBACK, rec) as http:
        assert http.get(f"http://127.0.0.1:{port}/").text == "ok"
    assert rec.connected == [("127.0.0.1", port)]
    with client(EgressPolicy(), Recorder()) as http, pytest.raises(EgressRefused, match="a loopback address"):
        http.get(f"http://127.0.0.1:{port}/")


@pytest.mark.parametrize(
    "target",
    ["http://169.254.169.254/latest/meta-data/", "http://[::ffff:a9fe:a9fe]/", "http://internal.example.test/admin"],
)
def test_every_redirect_is_checked(server: tuple[int, type[_Handler]], target: str) -> None:
    port, handler = server
    handler.redirect_to = target
    rec = Recorder({"internal.example.test": ["10.1.2.3"]})
    with client(LOOPBACK, rec) as http, pytest.raises(EgressRefused):
        http.get(f"http://127.0.0.1:{port}/hop")
    assert rec.connected == [("127.0.0.1", port)]  # the first hop only


def test_refusal_is_found_inside_wrapping_errors() -> None:
    inner = EgressRefused("refused")
    try:
        try:
            raise inner
        except EgressRefused as exc:
            raise RuntimeError("sdk") from exc
    except RuntimeError as outer:
        assert refused_cause(outer) is inner
    assert refused_cause(RuntimeError("other")) is None


def test_the_transport_uses_httpcores_pool() -> None:
    """guarded_transport sets the backend of httpx's httpcore pool; a change in httpx must fail here."""
    transport = guarded_transport(EgressPolicy())
    assert type(transport._pool._network_backend).__name__ == "GuardedBackend"
