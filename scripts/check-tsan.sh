#!/usr/bin/env bash
# ThreadSanitizer run (issue 12): builds the library and the reliability test with
# -DRMG_TSAN=ON and runs the test that generates on several threads at once (independent
# contexts) and the cancel-from-another-thread test, and the fairness-aware generation on two
# worker threads sharing a pack and a ruleset (issue 23). Any data race fails the run.
#   scripts/check-tsan.sh            (build dir build/tsan)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${RMG_TSAN_BUILD:-build/tsan}
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DRMG_TSAN=ON -DRMG_SANITIZE=OFF -DRMG_BUILD_BENCH=OFF >/dev/null
cmake --build "$dir" --target test_reliability test_balance -j "${JOBS:-2}" >/dev/null
export RMG_SHARED_DIR=${RMG_SHARED_DIR:-$PWD/../shared}
# halt_on_error: the first race fails the run with TSan's report.
for t in test_threads_generate_independently test_threads_read_one_map test_cancel_from_another_thread_stops_cleanly \
         test_cancel_inside_a_stage_of_a_large_map; do
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" RMG_TEST_FILTER=$t "$dir/tests/test_reliability"
done
for t in test_best_of_is_deterministic_and_the_fairest test_best_of_fails_only_when_every_candidate_fails; do
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" RMG_TEST_FILTER=$t "$dir/tests/test_balance"
done
echo "tsan: no data race"
