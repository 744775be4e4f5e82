"""The GitHub App rig (fake GitHub, Redis db 1, web service) shared from tests/github."""

from github.conftest import app_env, fake_github, redis_db1, rig, rsa_keys  # noqa: F401
