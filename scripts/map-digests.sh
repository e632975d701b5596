#!/usr/bin/env bash
# Digests of generated maps, to show that a change keeps maps byte-identical: generates every
# corpus file (or the files given) at its default setup with seeds 1..SEEDS and prints one line
# per map: "<file> <seed> <sha256 of the JSON | exit code>". Compare two runs with diff.
#   scripts/map-digests.sh RMG_BINARY [FILE...]     (SEEDS=N, default 2; JOBS=N, default 2;
#   ARGS="--underground --water normal" adds generate options)
set -euo pipefail
rmg=$(realpath "$1"); shift
shared=${RMG_SHARED_DIR:-$(dirname "$0")/../../shared}
seeds=${SEEDS:-2}
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <(find "$shared/corpus" -type f \( -name '*.h3t' -o -name '*.txt' -o -name '*.json' \) | sort)
fi
one() {
  local rmg=$1 f=$2 seed=$3 tmp
  tmp=$(mktemp --suffix=.json)
  if "$rmg" generate "$f" --seed "$seed" ${ARGS:-} --quiet -o "$tmp" 2>/dev/null; then
    echo "$(basename "$f") $seed $(sha256sum <"$tmp" | cut -c1-16)"
  else
    echo "$(basename "$f") $seed exit$?"
  fi
  rm -f "$tmp"
}
export -f one
export ARGS
for f in "${files[@]}"; do for s in $(seq 1 "$seeds"); do echo "$f $s"; done; done |
  xargs -P "${JOBS:-2}" -n 2 bash -c 'one "$0" "$1" "$2"' "$rmg" | sort
