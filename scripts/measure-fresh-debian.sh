#!/usr/bin/env bash
# Times the README's two commands as a new user meets them, in a fresh Debian 12 minbase root from a
# fresh clone of REVISION: docs/building.md's "On a fresh Debian 12" table. Needs root, debootstrap
# and the Debian mirror; the machine otherwise idle.
#
# Usage: scripts/measure-fresh-debian.sh [REVISION] [BASE_ROOT]
#   REVISION   default HEAD
#   BASE_ROOT  a minbase root made once with `debootstrap --variant=minbase bookworm DIR`; it is
#              copied, never changed (default: made in a temporary folder, which takes minutes)
# With LOG_DIR set, the two commands' logs are copied there (ctest's time for each test, to see
# where the test command goes).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:-HEAD}
base=${2:-}
[[ $(id -u) == 0 ]] || { echo "measure-fresh-debian.sh: needs root (chroot, mounts)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/var/tmp}/graphbench-fresh-XXXXXX")
chroot_dir=$work/root
cleanup() {
  if [[ -n ${LOG_DIR:-} ]]; then mkdir -p "$LOG_DIR" && cp "$work"/*.log "$LOG_DIR"/ 2>/dev/null || true; fi
  for m in dev/pts dev proc sys; do umount "$chroot_dir/$m" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
if [[ -n $base ]]; then cp -a "$base" "$chroot_dir"; else debootstrap --variant=minbase bookworm "$chroot_dir" >/dev/null; fi
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
mount -t proc proc "$chroot_dir/proc"
for m in sys dev dev/pts; do mount --bind "/$m" "$chroot_dir/$m"; done
git clone -q "$root" "$chroot_dir/graphbench"
git -C "$chroot_dir/graphbench" checkout -q "$rev"
echo "revision $(git -C "$chroot_dir/graphbench" log --oneline -1 | cut -c1-72), $(nproc) cores, fresh Debian 12 minbase"

in_root() { chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 bash -c "cd /graphbench && $1"; }
timed() {  # timed LABEL COMMAND
  local start end
  start=$(date +%s.%N)
  in_root "$2" > "$work/$1.log" 2>&1 || { echo "$1: failed; its log:"; tail -30 "$work/$1.log"; exit 1; }
  end=$(date +%s.%N)
  last_s=$(echo "$end - $start" | bc)
  printf '%-28s %7.1f s\n' "$1" "$last_s"
}
timed "first command" 'scripts/setup.sh && build/graphbench --workload gelu'
grep -h '^setup:' "$work/first command.log" | sed 's/^/  /'
# The reference the budgets are ratios to (docs/building.md), between the two commands as in .ci/run.
in_root 'scripts/measure-reference.sh build' | sed 's/^/  /'
timed "test command" 'cmake --build build && ctest --test-dir build --output-on-failure -j "$(nproc)"'
grep -h 'tests passed\|Total Test time' "$work/test command.log" | sed 's/^/  /'
for check in "check-build-time.sh build" "check-test-time.sh $last_s build"; do
  in_root "scripts/$check" 2>&1 | sed 's/^/  /' || true
done
echo "slowest tests:"
grep -E 'Test +#[0-9]+:' "$work/test command.log" | sed -E 's/.* Test +#[0-9]+: (.*[^ .]) \.+ *(\*\*\*)?[A-Za-z]+ +([0-9.]+) sec/\3 \1/' |
  sort -rn | head -5 | awk '{t=$1; $1=""; printf "  %6.1f s %s\n", t, $0}'
