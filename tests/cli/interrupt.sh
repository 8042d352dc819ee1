#!/usr/bin/env bash
# Interrupts a run with signals and checks what it leaves behind (tests/cli/CliTests.cmake).
#   interrupt.sh GRAPHBENCH OUT_DIR SUITE SIGNALS WAIT_REGEX EXPECTED_EXIT [--no-results] [--under-timeout] [ARGS...]
# Plants the temporary file of a killed run in OUT_DIR, starts `GRAPHBENCH run --config SUITE
# --device cpu -o OUT_DIR ARGS...`, waits until its output matches WAIT_REGEX, sends SIGNALS
# (comma-separated: INT, TERM, INT,INT ...) and checks the exit code, that the run ended within
# 30 s of the first signal (5 s with --no-results), and that no temporary file is left in
# OUT_DIR; with --no-results, that the run wrote no result file (a second signal ends it at once).
# With --under-timeout the run is started by coreutils' `timeout -s TERM 600`, and SIGNALS go to
# timeout: its SIGALRM is the one its own clock sends when the time is up, so ALRM stops the run
# exactly as the end of a time limit does (timeout's SIGTERM to the run and to its process group),
# without waiting for one.
set -u
gb=$1 out=$2 suite=$3 signals=$4 wait_regex=$5 expected=$6
shift 6
no_results=0
limit=30
if [[ ${1:-} == --no-results ]]; then
  no_results=1
  limit=5
  shift
fi
launcher=()
if [[ ${1:-} == --under-timeout ]]; then
  launcher=(timeout -s TERM 600)
  shift
fi
log="$out.log"
rm -rf "$out" "$log"
mkdir -p "$out"
: >"$out/.results.json.tmp-99999999"  # left by a killed run (no process has this pid)

"${launcher[@]}" "$gb" run --config "$suite" --device cpu -o "$out" "$@" >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 1200); do
  grep -Eq -- "$wait_regex" "$log" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if ! grep -Eq -- "$wait_regex" "$log"; then
  cat "$log"
  echo "interrupt.sh: the run never printed /$wait_regex/" >&2
  kill -KILL "$pid" 2>/dev/null
  exit 1
fi
sleep 0.3  # into the phase WAIT_REGEX announced
start=$(date +%s)
IFS=, read -ra list <<<"$signals"
for s in "${list[@]}"; do
  kill -"$s" "$pid"
  sleep 0.2
done
wait "$pid"
code=$?
elapsed=$(($(date +%s) - start))
cat "$log"
if [[ $code != "$expected" ]]; then
  echo "interrupt.sh: exit code $code, expected $expected" >&2
  exit 1
fi
if ((elapsed > limit)); then
  echo "interrupt.sh: the run took $elapsed s to stop after the signal" >&2
  exit 1
fi
left=$(find "$out" -name '.*.tmp-*')
if [[ -n $left ]]; then
  echo "interrupt.sh: temporary files left: $left" >&2
  exit 1
fi
if ((no_results)) && compgen -G "$out/results.*" >/dev/null; then
  echo "interrupt.sh: result files written: $(ls "$out")" >&2
  exit 1
fi
echo "interrupt.sh: exit $code ${elapsed}s after $signals, no temporary file left"
exit 0
