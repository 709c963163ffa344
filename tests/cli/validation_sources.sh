#!/usr/bin/env bash
# The committed data of the raw-measurement validation sources (scenarios/validation/data/) is what
# scenarios/validation/import_sources.py makes from the pinned source repositories today. The check
# needs git clones of those repositories (CI has no network): it looks in the folder that
# $SONICSIM_VALIDATION_SOURCES names (docs/validation-sources.md says how to clone them there) and is
# skipped (exit 77), saying why, when that variable is not set or the folder lacks a clone.
# Before it, without the sources: the T4 latency models fitted on the committed scans are what
# calibration/models/cms-miniaod-t4/fit.sh and fit_executions.py make today, and the CMS scenarios what
# scenarios/validation/cms-miniaod/make_scenarios.py makes.
set -u
sonicsim=$1
repo=$2
source "$(dirname "$0")/harness.sh"
sources=${SONICSIM_VALIDATION_SOURCES:-}

mkdir -p "$work/fit/scenarios/validation/data/cms-miniaod" "$work/fit/calibration/models/cms-miniaod-t4"
cp -r "$repo/scenarios/validation/data/cms-miniaod/perf_analyzer" "$work/fit/scenarios/validation/data/cms-miniaod/"
if "$repo/calibration/models/cms-miniaod-t4/fit.sh" "$sonicsim" "$work/fit" >/dev/null; then
  stale=""
  for model in "$repo"/calibration/models/cms-miniaod-t4/*_perf-analyzer-c4.json; do
    cmp -s "$model" "$work/fit/calibration/models/cms-miniaod-t4/$(basename "$model")" || stale="$stale $(basename "$model")"
  done
  [ "$(ls "$work/fit/calibration/models/cms-miniaod-t4" | wc -l)" -eq \
    "$(ls "$repo"/calibration/models/cms-miniaod-t4/*_perf-analyzer-c4.json | wc -l)" ] \
    || stale="$stale (a different set of models)"
  if [ -z "$stale" ]; then pass; else fail "calibration/models/cms-miniaod-t4 is stale:$stale (run its fit.sh)"; fi
else
  fail "calibration/models/cms-miniaod-t4/fit.sh failed"
fi

# The per-execution models, the frontend and the CMS scenarios are what their scripts make from the data.
if python3 "$repo/calibration/models/cms-miniaod-t4/fit_executions.py" --sonicsim "$sonicsim" --check; then pass
else fail "calibration/models/cms-miniaod-t4: the executions' models differ from fit_executions.py's refit"; fi
if python3 "$repo/scenarios/validation/cms-miniaod/make_scenarios.py" --check; then pass
else fail "scenarios/validation/cms-miniaod/ differs from make_scenarios.py's output"; fi

if [ -z "$sources" ]; then
  echo "skipped the sources check: SONICSIM_VALIDATION_SOURCES is not set (a folder holding git clones of" \
       "the source repositories: docs/validation-sources.md)"
  finish >/dev/null || { echo "$passed passed, $failures failed"; exit 1; }
  exit 77
fi
out=$(python3 "$repo/scenarios/validation/import_sources.py" --sources "$sources" --check 2>&1)
rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"no git copy of"* ]]; then
  echo "skipped the sources check: $out (set SONICSIM_VALIDATION_SOURCES to a folder holding them)"
  finish >/dev/null || { echo "$passed passed, $failures failed"; exit 1; }
  exit 77
fi
if [ $rc -eq 0 ]; then pass; else fail "scenarios/validation/data differs from the sources: $out"; fi
finish
