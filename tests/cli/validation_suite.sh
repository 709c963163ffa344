#!/usr/bin/env bash
# The validation suite: every published result it lists is within its tolerance or has its
# deviation explained, and the committed report (docs/validation.md) is what the suite writes now.
# The CMS Mini-AOD cases take some minutes on two cores: by default only their subset runs (the smallest
# and largest job count of each model), whose rows must be the committed report's, byte for byte;
# SONICSIM_VALIDATION_FULL=1 runs them all and compares the whole report.
set -u
sonicsim=$1
repo=$2
plans=$3  # the ctest fixture protodune_plans: the plans of cases.json's plan1693 and plan235
source "$(dirname "$0")/harness.sh"
python=/usr/bin/python3
[ -x "$python" ] || python=python3

# The NVIDIA cases: the subset of concurrency levels is simulated and must equal the committed
# predictions of every level (docs/validation-nvidia.csv), from which the report section is made.
if "$python" "$repo/tests/cli/cms_miniaod_unit.py"; then pass; else fail "the CMS cases' arithmetic (cms_miniaod_unit.py)"; fi
if "$python" "$repo/tests/cli/root_finding_unit.py"; then pass; else fail "the CMS crossings' root-finding (root_finding_unit.py)"; fi
if "$python" "$repo/tests/cli/published_bands_unit.py"; then pass
else fail "the published-results cases' design (published_bands_unit.py)"; fi
cms=subset
[ "${SONICSIM_VALIDATION_FULL:-0}" = 1 ] && cms=full
if "$python" "$repo/analysis/validation/run_suite.py" --sonicsim "$sonicsim" --cases "$repo/scenarios/validation/cases.json" \
     --report "$work/validation.md" --plot "$work/validation.png" --nvidia-plot "$work/validation-nvidia.png" \
     --cms "$cms" --cms-plot "$work/validation-cms.png" \
     --plan-output "plan1693=$plans/plan1693.txt" --plan-output "plan235=$plans/plan235.txt"; then pass
else fail "a validation case is outside its tolerance without a stated mechanism, or an NVIDIA prediction is stale"; fi
# The NVIDIA scenarios and latency models are what scenarios/validation/nvidia_triton.py makes from the offline tables.
if "$python" "$repo/scenarios/validation/nvidia_triton.py" "$sonicsim" --root "$repo" --check; then pass
else fail "the NVIDIA scenarios or calibration/models/nvidia-triton are stale: run scenarios/validation/nvidia_triton.py"; fi
# The through-server scans' frontends in cases.json are the fit fit_frontend.py makes today.
if "$python" "$repo/scenarios/validation/fit_frontend.py" --check; then pass
else fail "scenarios/validation/cases.json's scan_frontends differ from scenarios/validation/fit_frontend.py"; fi
# The staging fit (scenarios/validation/fit_staging.py) recovers a known line.
if "$python" "$repo/scenarios/validation/fit_staging.py" --self-test; then pass
else fail "scenarios/validation/fit_staging.py does not recover a line from points on it"; fi
# The source-wide terms' fit (scenarios/validation/source_wide_terms.py) recovers values computed by hand.
if "$python" "$repo/scenarios/validation/source_wide_terms.py" --self-test; then pass
else fail "scenarios/validation/source_wide_terms.py's staging fit or row batch differs from the hand-computed values"; fi
outside_cms() { awk '/^## CMS Mini-AOD/{skip=1; next} /^## /{skip=0} !skip' "$1"; }
if [ "$cms" = full ]; then
  if diff -u "$repo/docs/validation.md" "$work/validation.md"; then pass
  else fail "docs/validation.md is out of date: regenerate it with analysis/validation/run_suite.py (README)"; fi
else
  if diff -u <(outside_cms "$repo/docs/validation.md") <(outside_cms "$work/validation.md"); then pass
  else fail "docs/validation.md is out of date: regenerate it with analysis/validation/run_suite.py (README)"; fi
  stale=$(grep '^| cms-' "$work/validation.md" | grep -vxF -f <(grep '^| cms-' "$repo/docs/validation.md") || true)
  if [ -z "$stale" ]; then pass
  else fail "docs/validation.md's CMS rows differ from the subset run now: $stale"; fi
fi

# The README names every case the report lists outside its tolerance.
missing=""
for case in $(sed -n '/^## Outside the tolerance/,/^## /s/^- \*\*\([^*]*\)\*\*.*/\1/p' "$work/validation.md"); do
  grep -q "\`$case\`" "$repo/README.md" || missing="$missing $case"
done
if [ -z "$missing" ]; then pass; else fail "README.md does not name the cases outside their tolerance:$missing"; fi

finish
