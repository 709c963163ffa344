#!/usr/bin/env bash
# Sets up (Debian packages), builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
status=0
(cd build && ctest --output-on-failure -j "$(nproc)") || status=$?
# The ten slowest tests of this run (ctest keeps each test's last time in its cost data).
echo "slowest tests (s):"
awk 'NF == 3 { printf "%10.1f  %s\n", $3, $1 }' build/Testing/Temporary/CTestCostData.txt | sort -rn | head -10
[ "$status" -eq 0 ] || exit "$status"
# The same under AddressSanitizer and UndefinedBehaviorSanitizer, then 20 s of fuzzing per reader
# (scripts/sanitize.sh 600 for a longer run): CI must stay under 30 minutes on two cores, and with
# 60 s per reader the whole suite took 27 to 33 minutes there. Five readers fuzz two at a time in
# three rounds: 60 s, as four readers at 30 s took.
bash scripts/sanitize.sh 20
