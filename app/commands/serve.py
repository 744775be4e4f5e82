"""`toolchoice serve`: the GitHub App's web service (uvicorn); without REDIS_URL it also runs the reviews."""

from __future__ import annotations

import logging
from typing import Annotated

import typer

from app.settings import get_settings


def serve(
    host: Annotated[str, typer.Option("--host", help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 3000,
    log_level: Annotated[str, typer.Option("--log-level", help="debug, info, warning or error.")] = "info",
) -> None:
    """Receive GitHub webhooks at /api/github/webhooks. Settings come from the environment (APP_ID,
    PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET, GITHUB_API_URL, REDIS_URL, PUBLIC_URL)."""
    import uvicorn

    from app.web.app import create_app

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = get_settings()  # raises ConfigError naming missing variables before anything starts
    uvicorn.run(create_app(settings), host=host, port=port, log_level=log_level.lower())


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
