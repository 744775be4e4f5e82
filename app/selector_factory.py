"""Building the selector an audit asks for: synthetic by default, live_model only when fully configured."""

from __future__ import annotations

from pathlib import Path

from app.audit.models import Mode
from app.audit.selection import Selector
from app.audit.synthetic.profiles import read_profile
from app.audit.synthetic.selector import SyntheticSelector
from app.errors import SelectorError


def synthetic_selector(profile: Path | None = None) -> SyntheticSelector:
    """The synthetic selector of `profile` (default: the shipped one), given the sentence embedding its
    `semantic` section names; SelectorError when that model cannot be loaded (never selecting without it)."""
    loaded = read_profile(profile)
    if loaded.semantic is None:
        return SyntheticSelector(loaded)
    from app.semantic.similarity import shared_similarity

    return SyntheticSelector(loaded, similarity=shared_similarity())


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
        return synthetic_selector(profile)
    try:
        from app.llm.factory import build_live_selector
    except ImportError as exc:  # pragma: no cover - only in a broken installation
        raise SelectorError(f"live_model mode is not available in this installation ({exc})") from None
    return build_live_selector(model=model, concurrency=concurrency)
