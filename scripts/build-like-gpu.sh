#!/usr/bin/env bash
# Builds what the GPU machine builds, on a machine without a GPU, and runs what can run there
# (docs/building.md, "What CI builds besides the two commands"): the GPU machine's PyTorch in a
# Python environment, with python/ installed editable; graphbench and its tests built against its
# LibTorch with nvcc; ctest there. .ci/run calls it; a user needs no PyTorch.
#
# Usage: scripts/build-like-gpu.sh [--no-test] [extra ctest arguments]
# Environment:
#   GRAPHBENCH_TORCH_VERSION  the PyTorch to build against (default 2.11.0, the GPU machine's)
#   GRAPHBENCH_CACHE          where the environment lives (default ~/.cache/graphbench)
#   BUILD_DIR                 the build folder (default build-cuda)
#   TORCH_CUDA_ARCH_LIST      GPU architectures for nvcc (default "8.0;9.0": A100, H100/H200)
#   JOBS                      parallel compile jobs (default: all cores)
# Exit codes: 0 built (and the tests passed), 1 a build or a test failed, 2 the set-up failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

torch_version=${GRAPHBENCH_TORCH_VERSION:-2.11.0}
cache=${GRAPHBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/graphbench}
venv=$cache/venv-torch-$torch_version
build_dir=${BUILD_DIR:-build-cuda}
export TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-8.0;9.0}
run_tests=1
[[ ${1:-} == --no-test ]] && { run_tests=0; shift; }

say() { echo "build-like-gpu: $*"; }
stamp() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(stamp)" 'BEGIN {printf "%.1f", b - a}'; }

if ! command -v nvcc > /dev/null; then
  for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
    [[ -x $d/nvcc ]] && { export PATH=$d:$PATH; break; }
  done
fi
command -v nvcc > /dev/null || { say "no nvcc: the CUDA Toolkit is needed to compile the CUDA build" >&2; exit 2; }

# 1. The Python environment (NVML's header from PyPI where the CUDA Toolkit has none).
started=$(stamp)
packages=("torch==$torch_version" numpy "nvidia-nvml-dev==${GRAPHBENCH_NVML_VERSION:-13.0.*}")
if ! "$venv/bin/python" -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '$torch_version')" 2> /dev/null \
   || ! "$venv/bin/pip" show -q nvidia-nvml-dev > /dev/null 2>&1; then
  if ! python3 -c "import venv, ensurepip" 2> /dev/null; then
    sudo=""; [[ $(id -u) == 0 ]] || sudo=sudo
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-venv > /dev/null \
      || { say "python3-venv could not be installed" >&2; exit 2; }
  fi
  say "installing PyTorch $torch_version into $venv"
  [[ -x "$venv/bin/pip" ]] || python3 -m venv "$venv" || { say "could not make a Python environment at $venv" >&2; exit 2; }
  "$venv/bin/pip" install -q --disable-pip-version-check "${packages[@]}" \
    || { rm -rf "$venv"; say "pip could not install ${packages[*]}" >&2; exit 2; }
fi
python=$venv/bin/python
# From / without PYTHONPATH: the install, not the checkout, must find the command.
"$venv/bin/pip" install -q --disable-pip-version-check -e "$root/python" \
  || { say "pip could not install $root/python (editable)" >&2; exit 2; }
(cd / && env -u PYTHONPATH "$venv/bin/export_model" --help > /dev/null) \
  || { say "the installed command export_model does not run" >&2; exit 2; }
torch_dir=$("$python" -c "import os, torch; print(os.path.dirname(torch.__file__))")
nccl_include=$("$python" -c "import nvidia.nccl as m; print(list(m.__path__)[0])" 2> /dev/null)/include
nvml_include=$("$python" -c "import os, nvidia.cu13 as m; print(os.path.join(list(m.__path__)[0], 'include'))" 2> /dev/null)
say "PyTorch $("$python" -c 'import torch; print(torch.__version__)') ready in $(since "$started") s ($venv)"

# 2. Configure and build everything, tests included (ccache, where installed, between runs).
launcher=()
if command -v ccache > /dev/null; then
  export CCACHE_BASEDIR=$root CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
started=$(stamp)
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
  -DCMAKE_PREFIX_PATH="$torch_dir/share/cmake" \
  -DGRAPHBENCH_NCCL_INCLUDE_DIR="$nccl_include" \
  $( [[ -e $(dirname "$(command -v nvcc)")/../include/nvml.h ]] || echo "-DGRAPHBENCH_NVML_INCLUDE_DIR=$nvml_include" ) \
  -DGRAPHBENCH_TORCH_PYTHON="$python" > "$build_dir.configure.log" 2>&1 \
  || { cat "$build_dir.configure.log"; say "configure failed" >&2; exit 1; }
grep -q "CUDA paths: ON" "$build_dir.configure.log" \
  || { cat "$build_dir.configure.log"; say "the CUDA paths are off: this is not the GPU machine's build" >&2; exit 1; }
mv "$build_dir.configure.log" "$build_dir/configure.log"
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" || { say "the CUDA build failed" >&2; exit 1; }
say "built $build_dir (CUDA, LibTorch $torch_version, nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')) in $(since "$started") s"
[[ $run_tests == 1 ]] || exit 0

started=$(stamp)
status=0
ctest --test-dir "$build_dir" --output-on-failure -j "${JOBS:-$(nproc)}" "$@" || status=1
say "ctest in $build_dir took $(since "$started") s"
exit $status
