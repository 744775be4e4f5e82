"""The operator's allowlist: hosts that outbound connections may reach even on a private network.

`TOOLCHOICE_ALLOW_HOSTS` names them, separated by commas or spaces: host names as they appear in URLs
(`localhost`, `llm.internal`) or IP addresses (`127.0.0.1`, `::1`). A host named there is connected to
whatever it resolves to; every other host must resolve to public addresses only. It is read when an
outbound client is built, never at import time.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from pydantic import BaseModel

from app.egress.addresses import parse

ENV_ALLOW_HOSTS = "TOOLCHOICE_ALLOW_HOSTS"


def _normal(host: str) -> str:
    host = host.strip().rstrip(".").lower()
    ip = parse(host)
    return str(ip) if ip is not None else host.strip("[]")


class EgressPolicy(BaseModel):
    allow_hosts: frozenset[str] = frozenset()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> EgressPolicy:
        env = os.environ if env is None else env
        names = env.get(ENV_ALLOW_HOSTS, "").replace(",", " ").split()
        return cls(allow_hosts=frozenset(_normal(n) for n in names if n.strip()))

    def allows(self, host: str) -> bool:
        """Whether the operator allowed `host` (a name or an address) past the private-network check."""
        return _normal(host) in self.allow_hosts
