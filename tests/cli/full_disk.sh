#!/usr/bin/env bash
# A run whose result files cannot be written (a full disk, here a file-size limit that makes every
# write past 4 KiB fail) loses nothing: it exits 2, names where the records went (standard output,
# since the same limit stops a rescue file too), prints them there in results.json's format, and
# leaves the earlier run's files as they were.
#   full_disk.sh GRAPHBENCH OUTPUT_DIR RUN_ARGS...
set -u
gb=$1
out=$2
shift 2
rm -rf "$out"
"$gb" "$@" -o "$out" -q > /dev/null || { echo "full_disk.sh: the first run failed"; exit 1; }
before=$(cksum < "$out/results.json")
stdout=$(mktemp)
stderr=$(mktemp)
trap 'rm -f "$stdout" "$stderr"' EXIT
# Ignored, SIGXFSZ stays ignored in the child: a write past the limit fails with EFBIG instead of
# killing the process. Standard output is a pipe, which the limit does not cover.
(trap '' XFSZ; ulimit -f 4; exec "$gb" "$@" -o "$out" -q) 2> "$stderr" | cat > "$stdout"
code=${PIPESTATUS[0]}
cat "$stderr"
fail() { echo "full_disk.sh: $*"; exit 1; }
[[ $code == 2 ]] || fail "exit code $code, expected 2"
grep -q "cannot write file (write: File too large)" "$stderr" || fail "no write error named"
grep -Eq "the [0-9]+ record\(s\) of this run were saved to standard output" "$stderr" || fail "the rescue is not named"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["records"] and d["tool"] == "graphbench"' \
  "$stdout" || fail "standard output does not hold the records as results.json"
[[ $(cksum < "$out/results.json") == "$before" ]] || fail "the earlier results.json changed"
echo "full_disk.sh: ok"
