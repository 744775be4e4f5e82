"""Each condition of the request-wording modules turned off in turn: does a generated request change, and if none
does, does a test in our own words notice?

Run by hand from the repository root: `PYTHONPATH=. python bench/mutate_wording.py [--tests] [--jobs 2]` (about 20
minutes on two cores; `--tests` adds about 10). For every `if`, `elif`, `while` and conditional expression of the
modules that word a request, the condition is made False; for every filter of a comprehension, True. The mutated
module lives in a copy of app/ outside the checkout, and the case goldens (the demo, the successor fixtures and the
21 shared servers, tests/audit/case_goldens.py) are built from it and compared with the committed ones. A condition
whose change alters no golden is "held by no golden"; with `--tests`, the suite's tests are then run against it
too. What neither holds is listed, module and line: a guard against input no source here has, a rule no input here
reaches (each deserves a test), or code that decides nothing (each deserves deleting).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = Path("app/audit/suite")
WORDING = ("tool_requests", "explicit", "operations", "frames", "placing", "placed_words", "mentions",
           "noun_phrase", "phrase_parts", "realiser", "articles")  # fmt: skip
TESTS = [f"tests/audit/{name}.py" for name in (
    "test_requests", "test_noun_phrase", "test_contrast", "test_suite", "test_articles", "test_request_grammar",
    "test_suite_spelling", "test_kept_forms", "test_listed_values", "test_targeting", "test_live_plan",
    "test_successors", "test_server_cases")] + ["tests/render"]  # fmt: skip

# Run in the child: the goldens built from the app/ first on the path, compared with the committed ones.
CHILD = """
import sys
from tests.audit.case_goldens import dump, golden_path, lines, sources
changed = [n for n, build in sources().items() if dump(lines(n, build())) != golden_path(n).read_text(encoding="utf-8")]
print("CHANGED" if changed else "SAME", *changed[:3])
"""


def mutants(module: str) -> list[tuple[str, int, tuple[int, int, int, int], str]]:
    """(module, line, span of the condition, its replacement) for each condition of `module`."""
    tree = ast.parse((ROOT / SUITE / f"{module}.py").read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        tests = [(node.test, "False")] if isinstance(node, (ast.If, ast.IfExp, ast.While)) else []
        if isinstance(node, ast.comprehension):
            tests = [(test, "True") for test in node.ifs]
        for test, text in tests:
            span = (test.lineno, test.col_offset, test.end_lineno or test.lineno, test.end_col_offset or 0)
            out.append((module, test.lineno, span, text))
    return sorted(out, key=lambda m: (m[0], m[2]))


def mutated(source: str, span: tuple[int, int, int, int], text: str) -> str:
    data, lines = source.encode(), source.splitlines(keepends=True)

    def offset(line: int, col: int) -> int:
        return sum(len(x.encode()) for x in lines[: line - 1]) + col

    return (data[: offset(span[0], span[1])] + text.encode() + data[offset(span[2], span[3]) :]).decode()


def run(copy: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    # Run from the copy, so that its app/ is the one imported; tests/ and the goldens are the checkout's.
    env = {**os.environ, "PYTHONPATH": f"{copy}:{ROOT}"}
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=900)


def judge(copy: Path, mutant: tuple[str, int, tuple[int, int, int, int], str], with_tests: bool) -> dict[str, object]:
    module, line, span, text = mutant
    target = copy / "app" / "audit" / "suite" / f"{module}.py"
    original = (ROOT / SUITE / f"{module}.py").read_text(encoding="utf-8")
    target.write_text(mutated(original, span, text), encoding="utf-8")
    try:
        built = run(copy, ["-c", CHILD])
        golden = built.returncode != 0 or not built.stdout.startswith("SAME")
        tested = None
        if not golden and with_tests:
            pytest = ["-m", "pytest", "-q", "-x", "-p", "no:randomly", "-p", "no:cacheprovider", "--import-mode=append",
                      f"--rootdir={ROOT}", "-c", str(ROOT / "pyproject.toml"), "-o", "pythonpath="]
            tested = run(copy, [*pytest, *(str(ROOT / t) for t in TESTS)]).returncode != 0
    finally:
        target.write_text(original, encoding="utf-8")
    return {"module": module, "line": line, "to": text, "golden": golden, "test": tested}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tests", action="store_true", help="run the suite's tests on what no golden holds")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write every mutant's result here")
    args = parser.parse_args()
    todo = [m for module in WORDING for m in mutants(module)]
    with tempfile.TemporaryDirectory() as tmp:
        copies = []
        for k in range(args.jobs):
            copies.append(Path(tmp) / str(k))
            shutil.copytree(ROOT / "app", copies[-1] / "app", ignore=shutil.ignore_patterns("__pycache__"))
            for data in ("rules", "selectors", "templates"):  # app/resources.py finds them beside app/
                (copies[-1] / data).symlink_to(ROOT / data)
        with ThreadPoolExecutor(args.jobs) as pool:
            chunks = [todo[k :: args.jobs] for k in range(args.jobs)]
            parts = pool.map(lambda k: [judge(copies[k], m, args.tests) for m in chunks[k]], range(args.jobs))
            results = sorted((r for part in parts for r in part), key=lambda r: (str(r["module"]), int(r["line"])))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    total, held = Counter(str(r["module"]) for r in results), Counter(str(r["module"]) for r in results if r["golden"])
    tested = Counter(str(r["module"]) for r in results if r["test"])
    print("| module | conditions | change a golden | held by a test only | held by neither |")
    print("|---|---:|---:|---:|---:|")
    for module in WORDING:
        free = total[module] - held[module] - tested[module]
        shown = "-" if not args.tests else str(tested[module])
        print(f"| {module} | {total[module]} | {held[module]} | {shown} | {free if args.tests else '-'} |")
    print(f"| all | {sum(total.values())} | {sum(held.values())} | {sum(tested.values()) if args.tests else '-'} | "
          f"{sum(total.values()) - sum(held.values()) - sum(tested.values()) if args.tests else '-'} |")
    for r in results:
        if not r["golden"] and not r["test"]:
            source = (ROOT / SUITE / f"{r['module']}.py").read_text(encoding="utf-8").splitlines()[int(r["line"]) - 1]
            print(f"{r['module']}.py:{r['line']} (made {r['to']}): {source.strip()[:100]}")


if __name__ == "__main__":
    main()
