#!/usr/bin/env bash
# Sets up (Debian packages), builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
(cd build && ctest --output-on-failure -j "$(nproc)")
# The same under AddressSanitizer and UndefinedBehaviorSanitizer, then 30 s of fuzzing per reader
# (scripts/sanitize.sh 600 for a longer run): CI must stay under 30 minutes on two cores, and with
# 60 s per reader the whole suite took 27 to 33 minutes there.
bash scripts/sanitize.sh 30
