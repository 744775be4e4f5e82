"""Which IP addresses an outbound connection may reach: public unicast only.

Refused: loopback, RFC 1918 and other private ranges, link-local (169.254.0.0/16 with the cloud metadata
address 169.254.169.254; fe80::/10), unique-local IPv6 (fc00::/7), shared address space (100.64.0.0/10),
0.0.0.0 and ::, multicast, reserved and documentation ranges, and every IPv6 form that carries an IPv4
address (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16,
Teredo), judged by the IPv4 address inside.
"""

from __future__ import annotations

import ipaddress

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# IPv6 prefixes whose addresses embed an IPv4 address in their low 32 bits.
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
_METADATA = ipaddress.ip_address("169.254.169.254")
# IETF protocol assignments: Python's is_global counts a few of them as public; no service we call is there.
_IETF = ipaddress.ip_network("192.0.0.0/24")


def parse(host: str) -> IPAddress | None:
    """`host` as an IP address (brackets and an IPv6 zone dropped), or None when it is a name."""
    text = host.strip("[]").split("%", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _embedded(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if ip in _NAT64 or ip in _NAT64_LOCAL or (int(ip) >> 32 == 0 and int(ip) > 1):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)  # NAT64 and IPv4-compatible ::a.b.c.d
    return None


def refusal(ip: IPAddress) -> str | None:
    """Why a connection to `ip` is refused, or None when it is a public unicast address."""
    if isinstance(ip, ipaddress.IPv6Address):
        inner = _embedded(ip)
        if inner is not None:
            why = refusal(inner)
            return f"{why} (inside the IPv6 address {ip})" if why else None
    if ip == _METADATA:
        return "the cloud metadata address"
    if ip.is_unspecified:
        return "the unspecified address"
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_link_local:
        return "a link-local address"
    if ip.is_multicast:
        return "a multicast address"
    if isinstance(ip, ipaddress.IPv6Address) and ip in ipaddress.ip_network("fc00::/7"):
        return "a unique-local IPv6 address"
    if ip.is_private:
        return "a private-network address"
    if not ip.is_global or ip.is_reserved or ip in _IETF:
        return "a reserved or non-public address"
    return None
