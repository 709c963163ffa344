#!/usr/bin/env bash
# One plan that several tests read (a ctest fixture): what sonicsim plan SCENARIO ARGS... prints, in FILE.
# Usage: shared_plan.sh SONICSIM FILE SCENARIO [ARGS...]
set -u
sonicsim=$1 file=$2
shift 2
rm -f "$file"
mkdir -p "$(dirname "$file")"
if "$sonicsim" plan "$@" > "$file.part"; then mv "$file.part" "$file"; else cat "$file.part"; rm -f "$file.part"; exit 1; fi
