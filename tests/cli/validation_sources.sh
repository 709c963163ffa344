#!/usr/bin/env bash
# The committed data of the raw-measurement validation sources (scenarios/validation/data/) is what
# scenarios/validation/import_sources.py makes from the pinned source repositories today. The check
# needs git copies of those repositories (CI has no network): it looks in $SONICSIM_VALIDATION_SOURCES
# (default /work/.mirror, where the project's fetch tool puts them) and is skipped (exit 77) without them.
set -u
repo=$1
source "$(dirname "$0")/harness.sh"
sources=${SONICSIM_VALIDATION_SOURCES:-/work/.mirror}

out=$(python3 "$repo/scenarios/validation/import_sources.py" --sources "$sources" --check 2>&1)
rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"no git copy of"* ]]; then
  echo "skipped the sources check: $out (set SONICSIM_VALIDATION_SOURCES to a folder holding them)"
  exit 77
fi
if [ $rc -eq 0 ]; then pass; else fail "scenarios/validation/data differs from the sources: $out"; fi
finish
