"""The BM25 floor: the plain baseline every selector must beat on the labeled sets.

BM25 (k1 1.2, b 0.75) of the request's content stems against each offered tool's name, description
and parameter names, all weighted alike; the best tool is chosen when its score reaches ln(100), else
NO_TOOL. A fixed threshold only means something against corpus statistics, so the idf
ln(1 + (N - df + 0.5) / (df + 0.5)) and the average length are taken over a corpus of tools: the distinct
tools of every case evaluated in the run (with one case's own list, N = 1 and no score could reach the
threshold). Nothing in it is fitted to labels: it is the reference row of the selector's benchmark, and
a test keeps the synthetic selector above it. `beside_floor` runs a selector and the floor on the same
case files in one process, file by file.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.audit.evaluation import Metrics, evaluate_cases, load_all
from app.audit.models import NO_TOOL, Mode
from app.audit.results import Selection, SelectorInfo
from app.audit.selection import SelectionRequest, Selector
from app.audit.text import content_stems

K1 = 1.2  # the usual BM25 term-frequency saturation
B = 0.75  # the usual BM25 length normalisation
THRESHOLD = math.log(100)  # a fixed threshold, not chosen on any case


def _document(tool: dict[str, Any]) -> Counter[str]:
    schema = tool.get("inputSchema")
    properties = schema.get("properties") if isinstance(schema, dict) else None
    names = " ".join(p for p in properties if isinstance(p, str)) if isinstance(properties, dict) else ""
    description = tool.get("description")
    text = " ".join([str(tool.get("name") or ""), description if isinstance(description, str) else "", names])
    return Counter(content_stems(text))


class Bm25Floor:
    """BM25 with a fixed threshold and corpus statistics; implements the Selector protocol."""

    def __init__(self, corpus: Sequence[Sequence[dict[str, Any]]]) -> None:
        """`corpus`: the tool lists of the cases to be evaluated (distinct tools are counted once)."""
        distinct = {json.dumps(t, sort_keys=True, default=str): t for tools in corpus for t in tools}
        docs = [_document(t) for t in distinct.values()]
        self.size = len(docs)
        self.df: Counter[str] = Counter()
        for d in docs:
            self.df.update(d.keys())
        self.avgdl = (sum(sum(d.values()) for d in docs) / len(docs) if docs else 0.0) or 1.0

    @property
    def info(self) -> SelectorInfo:
        return SelectorInfo(
            mode=Mode.SYNTHETIC, name="bm25_floor", profile_hash="", settings={"k1": K1, "b": B, "threshold": THRESHOLD}
        )

    def select_many(self, requests: Sequence[SelectionRequest]) -> list[Selection]:
        return [self.select(req.tools, req.intent) for req in requests]

    def select(self, tools: list[dict[str, Any]], intent: str) -> Selection:
        """The best-scoring tool when its BM25 score reaches THRESHOLD, else NO_TOOL."""
        scores = self.scores(tools, intent)
        if not scores:
            return Selection(tool=NO_TOOL, confidence=1.0, reason="no tools offered")
        best = max(range(len(scores)), key=lambda i: (scores[i], -i))
        name = str(tools[best].get("name") or "")
        if scores[best] < THRESHOLD:
            return Selection(tool=NO_TOOL, reason=f"best tool {name} scored {scores[best]:.2f} < {THRESHOLD:.2f}")
        return Selection(tool=name, reason=f"BM25 {scores[best]:.2f}")

    def scores(self, tools: list[dict[str, Any]], intent: str) -> list[float]:
        """BM25 score of each tool, in list order."""
        n = max(self.size, 1)
        query = list(dict.fromkeys(content_stems(intent)))
        out = []
        for tool in tools:
            doc = _document(tool)
            norm = K1 * (1.0 - B + B * sum(doc.values()) / self.avgdl)
            score = 0.0
            for term in query:
                tf = doc.get(term, 0)
                if tf:
                    df = self.df.get(term, 0)
                    score += math.log(1.0 + (n - df + 0.5) / (df + 0.5)) * tf * (K1 + 1.0) / (tf + norm)
            out.append(score)
        return out


class FileComparison(BaseModel):
    """One case file (or the overall row): a selector's metrics beside the floor's, in the same run."""

    file: str
    selector: Metrics
    floor: Metrics

    def below_floor(self) -> list[str]:
        """Which of overall, NO_TOOL and tool accuracy fall below the floor's (empty when none does)."""
        out = []
        for label, ours, theirs in (
            ("overall", self.selector.accuracy, self.floor.accuracy),
            ("NO_TOOL", self.selector.no_tool_accuracy, self.floor.no_tool_accuracy),
            ("tool", self.selector.tool_accuracy, self.floor.tool_accuracy),
        ):
            if ours is not None and theirs is not None and ours < theirs:
                out.append(label)
        return out


def beside_floor(
    selector: Selector, files: Sequence[Path], *, servers_dir: Path | None = None
) -> tuple[list[FileComparison], FileComparison, float, float]:
    """Per-file and overall metrics of `selector` and of the floor (idf over the files' tools), and each
    one's cases per second."""
    cases = load_all(files, servers_dir=servers_dir)
    floor = Bm25Floor([c.tools for c in cases])
    ours = evaluate_cases(selector, cases, files=files, per_file=True)
    theirs = evaluate_cases(floor, cases, files=files, per_file=True)
    assert ours.per_file is not None and theirs.per_file is not None
    rows = [FileComparison(file=Path(f).name, selector=ours.per_file[f], floor=theirs.per_file[f]) for f in ours.files]
    overall = FileComparison(file="overall", selector=ours.overall, floor=theirs.overall)
    return rows, overall, ours.cases_per_second, theirs.cases_per_second
