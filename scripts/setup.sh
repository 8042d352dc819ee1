#!/usr/bin/env bash
# Sets up graphbench on a Debian 12 machine: installs the Debian packages the build needs, if missing,
# then configures (Release, Ninja) and builds graphbench into build/ (the README's second command
# builds the tests).
#
# Usage: scripts/setup.sh [--no-install] [extra CMake arguments]
#   scripts/setup.sh                                   the CPU build, Debian's LibTorch
#   scripts/setup.sh --no-install -DTorch_DIR=/opt/libtorch/share/cmake/Torch
#                                                      a CUDA LibTorch you installed yourself
# Environment: BUILD_DIR (default build), JOBS (default: all cores).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build_dir=${BUILD_DIR:-build}
install=1
[[ ${1:-} == --no-install ]] && { install=0; shift; }

packages=(build-essential cmake ninja-build git pkg-config
          libtorch-dev libgloo-dev libcli11-dev nlohmann-json3-dev libfmt-dev catch2 zlib1g-dev
          dataset-fashion-mnist python3 python3-matplotlib)

started=$SECONDS
if [[ $install == 1 ]]; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [[ ${#missing[@]} -gt 0 ]]; then
    echo "setup: installing ${missing[*]}"
    sudo=""
    if [[ $(id -u) != 0 ]]; then
      command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 2; }
      sudo=sudo
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
    echo "setup: packages installed in $((SECONDS - started)) s"
  fi
fi

# Wall and CPU seconds of the configure and build, for scripts/check-build-time.sh.
build_started=$(date +%s.%N)
cpu_before=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" --target graphbench
ticks=$(getconf CLK_TCK)
cpu_s=$(awk -v before="$cpu_before" -v ticks="$ticks" '{printf "%.1f", ($14 + $15 + $16 + $17 - before) / ticks}' /proc/$$/stat)
wall_s=$(awk -v start="$build_started" -v now="$(date +%s.%N)" 'BEGIN {printf "%.1f", now - start}')
echo "wall_s $wall_s cpu_s $cpu_s cores $(nproc)" > "$build_dir/build-time.txt"
echo "setup: built $build_dir/graphbench in $wall_s s ($cpu_s s of CPU on $(nproc) cores) ($("$build_dir"/graphbench --version))"
