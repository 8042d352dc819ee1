#!/usr/bin/env bash
# The measurement campaigns on the GPU machine: the stages below, run in the order given, after
# scripts/gpu-check.sh build (in the same call of the device tool, or a later one on a machine that
# stayed warm), e.g.
#
#   scripts/gpu-check.sh build && scripts/campaigns/run.sh models-export decode-export models decode
#
# Each stage is a function stage_NAME of a file of this folder, which says what it runs and where
# its results go: gate.sh (gate-default ci-runs calibrate aa-repetitions aa-overlap l2 profile-off mnist-host),
# models.sh (models-export wait-export models decode-export decode train-pt2 own-code
# mobilenet-adam sweep-export sweeps vit-pt trace decode-llama-pt cache-state), scopes.sh
# (scopes-export scopes scopes-inductor-export scopes-inductor scopes-inductor-python aoti-probe), serving.sh (serving-export serving-llama serving-reexport
# serving-weights-apart), ddp.sh (ddp ddp-bf16 ddp-trace ddp-copy-engine ddp-chunks ddp-four ddp-python two-node),
# control-flow.sh (control-flow branches), conditional.sh (conditional-nodes).
# A stage started in the background (NAME-export) is waited for by the stage that needs it, in the
# same call. Logs and results as scripts/gpu-check.sh writes them ($OUT, gpu-results.tgz).
# Exit codes: 0 every stage passed, 1 one failed, 2 an unknown stage.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/gpu-common.sh
source "$here/../gpu-common.sh"
for file in "$here"/gate.sh "$here"/models.sh "$here"/scopes.sh "$here"/serving.sh "$here"/ddp.sh "$here"/control-flow.sh \
            "$here"/conditional.sh; do
  # shellcheck disable=SC1090 # the stage files of this folder
  source "$file"
done
for stage in "$@"; do
  if ! declare -F "stage_${stage//-/_}" > /dev/null; then
    echo "campaigns/run.sh: unknown stage $stage (scripts/campaigns/*.sh define them)" >&2
    exit 2
  fi
done
[[ -x $gb ]] || echo "campaigns/run.sh: warning: no $gb here: run scripts/gpu-check.sh build first" >&2
for stage in "$@"; do
  "stage_${stage//-/_}"
  pack "$stage"
done
exit $status
