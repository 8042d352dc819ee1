#!/usr/bin/env bash
# Names the code behind a graphbench crash report (its "graphbench: crashed by ..." lines, on a
# machine without a debugger): for every address the report gives with the mapping that holds it,
# and every frame of its stack, the function and source line by addr2line.
#   scripts/crash-addresses.sh LOG
set -u
log=${1:?usage: crash-addresses.sh LOG}
command -v addr2line >/dev/null || { echo "crash-addresses.sh: addr2line not found (binutils)" >&2; exit 2; }
resolve() {  # resolve FILE OFFSET
  addr2line -f -C -i -e "$1" "$2" 2>/dev/null | paste -sd' ' -
}
frame_pattern='^([^ (]+)\(\+(0x[0-9a-f]+)\)\['  # backtrace_symbols: FILE(+OFFSET)[ADDRESS]
address=
while IFS= read -r line; do
  if [[ $line =~ (instruction\ pointer|stack\ pointer.*)\ (0x[0-9a-f]+)$ ]]; then
    address=${BASH_REMATCH[2]}
  elif [[ -n $address && $line =~ ^\ +in\ ([0-9a-f]+)-[0-9a-f]+\ [r-][w-]x[ps]\ ([0-9a-f]+)\ [^\ ]+\ [0-9]+\ +(/.*)$ ]]; then
    low=$((16#${BASH_REMATCH[1]})) offset=$((16#${BASH_REMATCH[2]})) file=${BASH_REMATCH[3]}
    at=$(printf '0x%x' $((address - low + offset)))
    echo "$address = $file+$at: $(resolve "$file" "$at")"
    address=
  elif [[ $line =~ $frame_pattern ]]; then
    echo "frame ${BASH_REMATCH[1]}+${BASH_REMATCH[2]}: $(resolve "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}")"
  fi
done < "$log"
