"""Building the selector an audit asks for: synthetic by default, live_model only when fully configured."""

from __future__ import annotations

from pathlib import Path

from app.audit.models import Mode
from app.audit.selection import Selector
from app.errors import SelectorError


def make_selector(
    mode: Mode | str,
    *,
    model: str | None = None,
    concurrency: int | None = None,
    profile: Path | None = None,
) -> Selector:
    """The selector for `mode`. A live_model request that cannot be met raises SelectorError; it never
    degrades to synthetic."""
    mode = Mode(mode)
    if mode == Mode.SYNTHETIC:
        if model:
            raise SelectorError("--model applies to live_model mode only; synthetic mode uses no model")
        from app.audit.synthetic.selector import SyntheticSelector

        return SyntheticSelector.from_profile(profile)
    try:
        from app.llm.factory import build_live_selector
    except ImportError as exc:  # pragma: no cover - only in a broken installation
        raise SelectorError(f"live_model mode is not available in this installation ({exc})") from None
    return build_live_selector(model=model, concurrency=concurrency)
