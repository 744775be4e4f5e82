"""Which addresses outbound connections may reach, and the operator's allowlist."""

from __future__ import annotations

import pytest

from app.egress.addresses import parse, refusal
from app.egress.policy import ENV_ALLOW_HOSTS, EgressPolicy

# Every form of a non-public address we know of; each must be refused.
REFUSED = [
    "127.0.0.1", "127.1.2.3", "10.0.0.1", "10.255.255.254", "172.16.0.1", "172.31.255.1", "192.168.1.1",
    "169.254.169.254", "169.254.0.7", "0.0.0.0", "100.64.0.1", "100.127.255.254", "192.0.0.8", "192.0.2.1",
    "198.18.0.1", "198.51.100.7", "203.0.113.9", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
    "::1", "::", "fe80::1", "fe80::1%eth0", "fc00::1", "fd12:3456:789a::1", "ff02::1", "ff05::2", "2001:db8::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:192.168.0.1", "::ffff:0.0.0.0",
    "::127.0.0.1", "::10.0.0.1", "64:ff9b::a9fe:a9fe", "64:ff9b::7f00:1", "64:ff9b:1::a00:1",
    "2002:7f00:1::", "2002:a00:1::", "2001:0:4136:e378:8000:63bf:f5ff:fffe", "[::1]",
]  # fmt: skip
# Public unicast addresses (never connected to: these tests only classify).
ALLOWED = ["8.8.8.8", "1.1.1.1", "140.82.112.3", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"]


@pytest.mark.parametrize("address", REFUSED)
def test_non_public_addresses_are_refused(address: str) -> None:
    ip = parse(address)
    assert ip is not None and refusal(ip), address


@pytest.mark.parametrize("address", ALLOWED)
def test_public_addresses_pass(address: str) -> None:
    ip = parse(address)
    assert ip is not None and refusal(ip) is None, address


def test_mapped_forms_name_the_address_inside() -> None:
    why = refusal(parse("::ffff:169.254.169.254"))  # type: ignore[arg-type]
    assert why == "the cloud metadata address (inside the IPv6 address ::ffff:a9fe:a9fe)"


def test_names_are_not_addresses() -> None:
    assert parse("api.github.com") is None and parse("2130706433.example") is None


def test_allowlist_from_the_environment() -> None:
    policy = EgressPolicy.from_env({ENV_ALLOW_HOSTS: " LLM.internal., 127.0.0.1 [::1],localhost "})
    assert policy.allow_hosts == {"llm.internal", "127.0.0.1", "::1", "localhost"}
    assert policy.allows("llm.internal") and policy.allows("LOCALHOST") and policy.allows("[::1]")
    assert not policy.allows("internal") and not policy.allows("10.0.0.1")
    assert EgressPolicy.from_env({}).allow_hosts == frozenset()
