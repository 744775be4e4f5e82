"""The clients that leave the process use the guarded transport: the GitHub App (also GitHub Enterprise)
and the model endpoint of live mode. A refusal is final: never retried, and it says how to allow a host."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from llm.conftest import TOOLS, fast_profile
from llm.fake_openai import MODEL, FakeOpenAI
from llm.test_live_failures import one

from app.egress.policy import ENV_ALLOW_HOSTS
from app.errors import LiveModelError
from app.github.client import GitHubApiError, GitHubApp, call
from app.llm.factory import build_live_selector

assert TOOLS  # the live tests' tool set, used by `one`


@pytest.fixture(scope="module")
def private_key() -> str:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


@pytest.mark.parametrize(
    "api_url", ["http://169.254.169.254/api/v3", "https://10.20.30.40/api/v3", "http://[::ffff:127.0.0.1]:9/"]
)
def test_a_github_enterprise_url_on_a_private_network_is_refused(private_key: str, api_url: str) -> None:
    gh = GitHubApp(app_id=1, private_key=private_key, base_url=api_url).as_app()
    with pytest.raises(GitHubApiError, match=ENV_ALLOW_HOSTS) as caught:
        call("read the App", gh.rest.apps.get_authenticated)
    assert caught.value.transient is False  # the same address next time: no retry


def test_the_model_endpoint_on_loopback_needs_the_allowlist(monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeOpenAI() as server:
        env = {"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": server.url}
        monkeypatch.delenv(ENV_ALLOW_HOSTS)
        refused = build_live_selector(model=MODEL, profile=fast_profile(max_retries=3), env=env, concurrency=1)
        with pytest.raises(LiveModelError, match=r"refused to connect to 127\.0\.0\.1: a loopback address"):
            one(refused)
        assert server.requests == []  # nothing reached it, and the refusal was not retried
        monkeypatch.setenv(ENV_ALLOW_HOSTS, "127.0.0.1")
        allowed = build_live_selector(model=MODEL, profile=fast_profile(), env=env, concurrency=1)
        assert one(allowed) and len(server.chat_requests) == 1
