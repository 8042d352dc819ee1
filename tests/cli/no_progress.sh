#!/usr/bin/env bash
# Runs a command with its output going to a pipe (not a terminal), prints that output, and fails
# when it holds a progress line's control characters (a carriage return or an escape sequence):
# progress belongs on terminals only. Exits with the command's exit code otherwise.
#   no_progress.sh COMMAND [ARGS...]
set -u
output=$("$@" 2>&1)
code=$?
printf '%s\n' "$output"
if [[ $output == *$'\r'* || $output == *$'\033'* ]]; then
  echo "no_progress.sh: progress control characters in the output of a run without a terminal: $*" >&2
  exit 99
fi
exit $code
