"""Outbound connections: every address is checked before connecting, and the peer after; no private networks."""
