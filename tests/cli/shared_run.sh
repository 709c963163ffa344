#!/usr/bin/env bash
# One run that several tests read (a ctest fixture): sonicsim run SCENARIO --quiet --output DIR, afresh.
# Usage: shared_run.sh SONICSIM SCENARIO DIR
set -eu
rm -rf "$3"
"$1" run "$2" --quiet --output "$3"
