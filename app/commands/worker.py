"""`toolchoice worker`: an RQ worker that runs the GitHub App's reviews from Redis (REDIS_URL)."""

from __future__ import annotations

import logging
from typing import Annotated

import typer

from app.settings import get_settings


def worker(
    burst: Annotated[bool, typer.Option("--burst", help="Stop when the queue is empty.")] = False,
    log_level: Annotated[str, typer.Option("--log-level", help="debug, info, warning or error.")] = "info",
) -> None:
    """Run reviews queued by `toolchoice serve`. Needs the same environment as the web service."""
    from app.jobs.worker import run_worker

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    run_worker(get_settings(), burst=burst, log_level=log_level)


def register(app: typer.Typer) -> None:
    app.command("worker")(worker)
