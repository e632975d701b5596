#!/usr/bin/env bash
# rmg stats over 200 seeds gives identical per-seed fingerprints with 1 and 2 threads (issue 10).
set -euo pipefail
build=$1
rmg="$build/rmg"
one=$("$rmg" stats --size S --runs 200 --threads 1 --fingerprints | grep '^seed ')
two=$("$rmg" stats --size S --runs 200 --threads 2 --fingerprints | grep '^seed ')
n=$(echo "$one" | wc -l)
if [ "$n" -ne 200 ]; then echo "expected 200 fingerprints, got $n"; echo "0 passed, 1 failed"; exit 1; fi
if [ "$one" != "$two" ]; then
  echo "fingerprints differ between 1 and 2 threads:"; diff <(echo "$one") <(echo "$two") | head; echo "0 passed, 1 failed"; exit 1
fi
echo "200 seeds: identical fingerprints with 1 and 2 threads"
echo "1 passed, 0 failed"
