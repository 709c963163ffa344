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
# (scripts/sanitize.sh 600 for a longer run); five readers fuzz two at a time in three rounds: 60 s.
# On two cores this whole script took 41 minutes in CI at the last landing (2,472 s; 36 at 2,168 s before),
# against an aim of 25: about 6 of them the release build, 12 ctest, 9-10 the sanitized build (clang), 4
# its unit tests, 1.5 its scenarios and hostile input, 1 the fuzzing.
bash scripts/sanitize.sh 20
