"""The GitHub App rig (fake GitHub, this run's Redis database, web service) shared from tests/github."""

from github.conftest import app_env, fake_github, rig, rsa_keys  # noqa: F401
