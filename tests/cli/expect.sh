#!/usr/bin/env bash
# Runs a command and checks its exit code and that its output (stdout and stderr together)
# matches every given regular expression (grep -E, line by line); a REGEX written "!REGEX" must
# match no line.
#   expect.sh EXIT_CODE [REGEX...] -- COMMAND [ARGS...]      ("" checks nothing)
set -u
expected=$1
shift
regexes=()
while [[ $# -gt 0 && $1 != "--" ]]; do
  regexes+=("$1")
  shift
done
shift  # the --
output=$("$@" 2>&1)
code=$?
if [[ $code != "$expected" ]]; then
  printf '%s\n' "$output"
  echo "expect.sh: exit code $code, expected $expected: $*" >&2
  exit 1
fi
for regex in "${regexes[@]}"; do
  if [[ $regex == !* ]]; then
    if grep -Eq -- "${regex#!}" <<<"$output"; then
      printf '%s\n' "$output"
      echo "expect.sh: output matches /${regex#!}/, which it must not: $*" >&2
      exit 1
    fi
    continue
  fi
  if [[ -n $regex ]] && ! grep -Eq -- "$regex" <<<"$output"; then
    printf '%s\n' "$output"
    echo "expect.sh: output does not match /$regex/: $*" >&2
    exit 1
  fi
done
exit 0
