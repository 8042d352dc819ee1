# shellcheck shell=bash
# What scripts/check-build-time.sh and scripts/check-test-time.sh share (sourced by both): a time
# held to a budget that docs/building.md states, a loud warning beyond 120% of it.
#
# hold_to_budget PROG SECONDS DOC PHRASE HEADLINE HINT OK
#   reads N from DOC's line "Budget: PHRASE N s" (exit 2 naming the line where there is none); over
#   120% of N: the warning, HEADLINE its first line and HINT where to look, and exit 3; else prints
#   OK with the budget beside it.
hold_to_budget() {
  local prog=$1 seconds=$2 doc=$3 phrase=$4 headline=$5 hint=$6 ok=$7 budget limit
  budget=$(sed -n "s/.*Budget: $phrase \\([0-9.]*\\) s.*/\\1/p" "$doc" | head -1)
  [[ -n $budget ]] || { echo "$prog: $doc: no line \"Budget: $phrase N s\"" >&2; exit 2; }
  limit=$(awk -v b="$budget" 'BEGIN {printf "%.1f", b * 1.2}')
  if awk -v w="$seconds" -v l="$limit" 'BEGIN {exit !(w > l)}'; then
    {
      echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      echo "!!! $headline,"
      echo "!!! more than 120% of the $budget s in docs/building.md (limit $limit s)."
      echo "!!! Find what grew ($hint) or, if the"
      echo "!!! growth is worth it, measure again and update docs/building.md's budget."
      echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    } >&2
    exit 3
  fi
  echo "$ok, within 120% of the $budget s budget"
}
