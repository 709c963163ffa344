#!/usr/bin/env bash
# The accuracy ratchet of the validation suite: the frozen predictions (scenarios/validation/predictions/)
# are current, complete and what analysis/validation/predict.py makes (a subset re-simulated, cases.json
# "frozen_check"), and scored against the measurements (analysis/validation/scores.py) no source's coverage,
# skill against its best baseline or count within tolerance is below the committed summary.json.
set -u
sonicsim=$1
repo=$2
source "$(dirname "$0")/harness.sh"
python=/usr/bin/python3
[ -x "$python" ] || python=python3
v="$repo/analysis/validation"
summary="$repo/scenarios/validation/predictions/summary.json"

if "$python" "$v/predict.py" --sonicsim "$sonicsim" --check; then pass
else fail "the frozen predictions are stale, incomplete or not what predict.py makes (run analysis/validation/predict.py)"; fi
if "$python" "$v/scores.py" --sonicsim "$sonicsim" ; then pass
else fail "a source scores worse than $summary (a ratchet: update it with scores.py --write, saying why)"; fi
# The ratchet can fail: a committed summary one covered target better than now is refused.
"$python" - "$summary" "$work/better.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
name = next(iter(s["sources"]))
s["sources"][name]["covered"] += 1
json.dump(s, open(sys.argv[2], "w"))
PY
if ! "$python" "$v/scores.py" --sonicsim "$sonicsim" --summary "$work/better.json" 2>"$work/err"; then
  if grep -q "covered" "$work/err"; then pass; else fail "the ratchet refused for another reason: $(cat "$work/err")"; fi
else fail "the ratchet accepted a coverage below the committed one"; fi
finish
