"""Building the selector an audit asks for: synthetic by default, live_model only when fully configured."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.audit.live_plan import Ranker
from app.audit.models import Mode
from app.audit.selection import Selector
from app.audit.synthetic.profiles import read_profile
from app.audit.synthetic.selector import SyntheticSelector
from app.errors import SelectorError

if TYPE_CHECKING:
    from app.semantic.similarity import MiniLMSimilarity


def synthetic_similarity() -> MiniLMSimilarity | None:
    """The sentence embedding the shipped synthetic profile reads, one per process (None when it reads none)."""
    if read_profile(None).semantic is None:
        return None
    from app.semantic.similarity import shared_similarity

    return shared_similarity()


def synthetic_selector(profile: Path | None = None) -> SyntheticSelector:
    """The synthetic selector of `profile` (default: the shipped one), given the sentence embedding its
    `semantic` section names; SelectorError when that model cannot be loaded (never selecting without it)."""
    loaded = read_profile(profile)
    if loaded.semantic is None:
        return SyntheticSelector(loaded)
    from app.semantic.similarity import shared_similarity

    return SyntheticSelector(loaded, similarity=shared_similarity())


@dataclass(frozen=True)
class LiveRun:
    """How a live review spends and keeps its answers: a call and cost budget, a recording to write (--record),
    a recording to answer from instead of the model (--replay)."""

    max_calls: int | None = None
    max_cost: float | None = None
    record: Path | None = None
    replay: Path | None = None

    def asked(self) -> list[str]:
        """The options given, as the command line names them (synthetic mode refuses them)."""
        named: dict[str, object] = {"--max-calls": self.max_calls, "--max-cost": self.max_cost}
        named |= {"--record": self.record, "--replay": self.replay}
        return [flag for flag, value in named.items() if value is not None]


def make_selector(
    mode: Mode | str,
    *,
    model: str | None = None,
    concurrency: int | None = None,
    profile: Path | None = None,
    live: LiveRun | None = None,
) -> Selector:
    """The selector for `mode`. A live_model request that cannot be met raises SelectorError; it never
    degrades to synthetic."""
    mode = Mode(mode)
    live = live or LiveRun()
    if mode == Mode.SYNTHETIC:
        if model:
            raise SelectorError("--model applies to live_model mode only; synthetic mode uses no model")
        if live.asked():
            named = ", ".join(live.asked())
            raise SelectorError(f"{named} apply to live_model mode only; synthetic mode uses no model")
        return synthetic_selector(profile)
    try:
        from app.llm.factory import build_live_selector
    except ImportError as exc:  # pragma: no cover - only in a broken installation
        raise SelectorError(f"live_model mode is not available in this installation ({exc})") from None
    return build_live_selector(
        model=model,
        concurrency=concurrency,
        max_calls=live.max_calls,
        max_cost=live.max_cost,
        record=live.record,
        replay=live.replay,
    )


def plan_ranker(mode: Mode | str) -> Ranker | None:
    """What ranks the tools for a live plan: the synthetic selector (None in synthetic mode, which plans nothing)."""
    return synthetic_selector() if Mode(mode) == Mode.LIVE_MODEL else None
