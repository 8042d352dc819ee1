# shellcheck shell=bash
# What scripts/check-build-time.sh and check-test-time.sh share (sourced by both).
# hold_to_budget PROG SECONDS BUILD_DIR DOC PHRASE HEADLINE HINT OK: SECONDS as a ratio to the
# reference R in BUILD_DIR/reference-time.txt (scripts/measure-reference.sh, the same run: a slower
# machine is not a project that grew), held to N of DOC's "Budget: PHRASE N times the reference":
# over 120% of N the loud warning (HEADLINE, HINT) and exit 3, which .ci/run goes on from; else OK and
# the ratio; 2 without R or N.
hold_to_budget() {
  local prog=$1 seconds=$2 build_dir=$3 doc=$4 phrase=$5 headline=$6 hint=$7 ok=$8 budget limit ref ratio
  local ref_file=$build_dir/reference-time.txt
  [[ -r $ref_file ]] || { echo "$prog: $ref_file: missing (scripts/measure-reference.sh writes it)" >&2; exit 2; }
  ref=$(sed -n 's/.*reference_s \([0-9.]*\).*/\1/p' "$ref_file")
  awk -v r="${ref:-0}" 'BEGIN {exit !(r > 0)}' ||
    { echo "$prog: $ref_file: expected \"compile_s C load_s L reference_s R\" with R > 0" >&2; exit 2; }
  [[ -r $doc ]] || { echo "$prog: $doc: missing" >&2; exit 2; }
  budget=$(sed -n "s/.*Budget: $phrase \\([0-9.]*\\) times the reference.*/\\1/p" "$doc" | head -1)
  [[ -n $budget ]] || { echo "$prog: $doc: no line \"Budget: $phrase N times the reference\"" >&2; exit 2; }
  ratio=$(awk -v s="$seconds" -v r="$ref" 'BEGIN {printf "%.2f", s / r}')
  limit=$(awk -v b="$budget" 'BEGIN {printf "%.2f", b * 1.2}')
  if awk -v w="$ratio" -v l="$limit" 'BEGIN {exit !(w > l)}'; then
    local bar=!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
    printf '%s\n!!! %s\n!!! %s\n!!! %s\n!!! %s\n%s\n' "$bar" "$headline: $ratio times the reference of $ref s," \
      "more than 120% of the $budget in docs/building.md (limit $limit)." "Find what grew ($hint) or, if the" \
      "growth is worth it, measure again and update docs/building.md's budget." "$bar" >&2
    exit 3
  fi
  echo "$ok: $ratio times the reference of $ref s, within 120% of the budget of $budget"
}
