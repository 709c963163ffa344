#!/usr/bin/env bash
# Fits the T4 kernel latencies of the CMS Mini-AOD SONIC scans that `sonicsim calibrate FILE@BATCH`
# can take as they are (README.md here says which, and why not the PyTorch ones).
#   calibration/models/cms-miniaod-t4/fit.sh SONICSIM [ROOT]
# ROOT (default: this repository) holds scenarios/validation/data/cms-miniaod/perf_analyzer/ and
# receives calibration/models/cms-miniaod-t4/*.json; the commands run in ROOT with relative paths,
# so the command each model file records is the same wherever it is run.
set -eu
sonicsim=$(realpath "$1")
cd "${2:-$(dirname "$0")/../../..}"
scans=scenarios/validation/data/cms-miniaod/perf_analyzer
fit() {  # SCAN-DIRECTORY MODEL-FILE-STEM
  local inputs=()
  for batch in $(ls "$scans/$1" | sed -n "s/^$1_batch\([0-9]*\)\.csv$/\1/p" | sort -n); do
    inputs+=("$scans/$1/$1_batch$batch.csv@$batch")
  done
  "$sonicsim" calibrate "${inputs[@]}" --output "calibration/models/cms-miniaod-t4/$2.json" "${@:3}"
}
fit deepmet nvidia-t4_deepmet_tensorflow_perf-analyzer-c4 "${@:3}"
fit deeptau_nosplit_trt nvidia-t4_deeptau_tensorflow-trt_perf-analyzer-c4 "${@:3}"
