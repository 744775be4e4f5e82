"""Where one `toolchoice audit` process spends its time: a profile by phase, for bench/RESULTS.md.

Run by hand: `python bench/bench_phases.py FILE [--runs 3] [--cold]`. Each run is a fresh process that runs the
command line's audit of FILE in-process with timers around the engine's phases (the functions are wrapped
wherever a module holds them, so `from x import f` names are timed too); the median of each phase is printed as
one JSON line. `--cold` empties the sentence-vector cache before each run (the model's graph stays kept), as a
machine's first audit of a new tool set; without it the second and later runs read every vector from the cache.
The phases nest (validation is part of the suite; loading the model and embedding, part of selection):
`selection_words_s` is selection less those two, `render_s` is rendering less redaction.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (phase, module, attribute path): the function whose inclusive time is the phase.
PHASES = [
    ("rules", "app.audit.rules.engine", "evaluate"),
    ("suite", "app.audit.suite.build", "build_suite"),
    ("validation", "app.audit.suite.validate", "CaseValidator.__init__"),
    ("validation", "app.audit.suite.validate", "SideValidator.validate"),
    ("model_load", "app.semantic.minilm", "MiniLM.__init__"),
    ("embedding", "app.semantic.minilm", "MiniLM.embed"),
    ("selection", "app.audit.selection", "run_suite"),
    ("render", "app.render.output", "render_output"),
    ("redaction", "app.redaction.redact", "redact_result"),
]

CHILD = """
import importlib, sys, time, json, functools
start = time.perf_counter()
import app.cli
imported = time.perf_counter() - start
spent = {}
def wrap(phase, module, path):
    mod = importlib.import_module(module)
    owner, *rest = path.split(".")
    holder = mod if not rest else getattr(mod, owner)
    name = rest[0] if rest else owner
    original = getattr(holder, name)
    @functools.wraps(original)
    def timed(*a, **k):
        t = time.perf_counter()
        try:
            return original(*a, **k)
        finally:
            spent[phase] = spent.get(phase, 0.0) + time.perf_counter() - t
    setattr(holder, name, timed)
    if not rest:  # every module that imported the function by name
        for other in list(sys.modules.values()):
            if getattr(other, "__name__", "").startswith("app.") and getattr(other, name, None) is original:
                setattr(other, name, timed)
for phase in json.loads(sys.argv[1]):
    wrap(*phase)
sys.argv = ["toolchoice", "audit", sys.argv[2]]
try:
    app.cli.main()
except SystemExit:
    pass
spent["imports"] = imported
spent["total"] = time.perf_counter() - start
print(json.dumps(spent), file=sys.stderr)
"""


def run_once(path: Path, env: dict[str, str]) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(PHASES), str(path)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=600,
    )
    return json.loads(done.stderr.strip().splitlines()[-1])


def empty_vectors(directory: Path) -> None:
    import sqlite3

    db = directory / "vectors.sqlite3"
    if db.exists():
        with sqlite3.connect(db) as conn:
            conn.execute("DELETE FROM vectors")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("file", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cold", action="store_true")
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="toolchoice-phases-"))
    env = {**os.environ, "TOOLCHOICE_CACHE_DIR": str(directory), "PYTHONPATH": str(ROOT)}
    try:
        run_once(args.file.resolve(), env)  # builds and keeps the model's graph, fills the cache
        runs = []
        for _ in range(args.runs):
            if args.cold:
                empty_vectors(directory)
            runs.append(run_once(args.file.resolve(), env))
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    phases = sorted({k for r in runs for k in r})
    median = {k: statistics.median(r.get(k, 0.0) for r in runs) for k in phases}
    # The model is loaded on demand, inside selection, when a text is not in the cache.
    inside = median.get("embedding", 0.0) + median.get("model_load", 0.0)
    median["selection_words"] = median.get("selection", 0.0) - inside
    median["render"] = median.get("render", 0.0) - median.get("redaction", 0.0)
    load = os.getloadavg()[0]
    head = {"file": args.file.name, "cold": args.cold, "runs": args.runs, "load": round(load, 1)}
    print(json.dumps(head | {f"{k}_s": round(v, 3) for k, v in sorted(median.items())}))


if __name__ == "__main__":
    main()
