#!/usr/bin/env bash
# Sets up (Debian packages), builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
(cd build && ctest --output-on-failure -j "$(nproc)")
# The same under AddressSanitizer and UndefinedBehaviorSanitizer, then 60 s of fuzzing per reader.
bash scripts/sanitize.sh 60
