#!/usr/bin/env bash
# Sets up (Debian packages), builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh build
# The packages only the tests need (clang for the sanitizers, Slurm, matplotlib) install while the release
# build compiles: on a fresh machine here, 65 s for the build's packages, then 77 s for these.
setup_log=$(mktemp)
bash scripts/setup.sh > "$setup_log" 2>&1 &
setup=$!
# Ninja compiles a target's sources while the libraries it links are still being built, where make
# builds one target after another (a sanitized build from scratch: 7 min 13 s with make, 6 min 0 s with
# Ninja, on two cores). A build tree made earlier keeps the generator it was made with.
export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
wait "$setup" || { cat "$setup_log"; echo "test.sh: scripts/setup.sh failed"; exit 1; }
status=0
(cd build && ctest --output-on-failure -j "$(nproc)") || status=$?
# The ten slowest tests of this run (ctest keeps each test's last time in its cost data).
echo "slowest tests (s):"
awk 'NF == 3 { printf "%10.1f  %s\n", $3, $1 }' build/Testing/Temporary/CTestCostData.txt | sort -rn | head -10
[ "$status" -eq 0 ] || exit "$status"
# The same under AddressSanitizer and UndefinedBehaviorSanitizer, then 20 s of fuzzing per reader
# (scripts/sanitize.sh 600 for a longer run); five readers fuzz two at a time in three rounds: 60 s.
# On two cores this whole script took 24.9 minutes in CI at the last landing (1,491 s, its setup included;
# 1,766 s the landing before, when the tests' packages installed before the build). On the development machine
# (two cores, packages installed), a clean clone from scratch: 25.5 minutes (1,532 s: ctest 602 s, 571 s on a
# quiet run with ctest's cost data; the sanitized stage 12-13.5 min, its build about 5.5 min,
# unit tests with scenarios and hostile input 5.5, fuzzing 1; quiet runs here differ by up to 10%).
bash scripts/sanitize.sh 20
