#!/usr/bin/env bash
# Installs the Debian packages sonicsim needs to build and test. Idempotent; run as root.
#   scripts/setup.sh [build]   (build: only what the release build needs; scripts/test.sh installs the rest
#                               while that build compiles)
set -euo pipefail

build_packages=(
  build-essential cmake ninja-build
  libsimgrid-dev
  libboost-program-options-dev
  libeigen3-dev
  nlohmann-json3-dev
  libyaml-cpp-dev
  libfccp-dev
  doctest-dev
  libprotobuf-dev protobuf-compiler
)
test_packages=(
  python3-matplotlib
  clang libclang-rt-14-dev clang-format
  slurmctld slurmd slurm-client munge
)
case ${1:-all} in
  build) packages=("${build_packages[@]}") ;;
  all) packages=("${build_packages[@]}" "${test_packages[@]}") ;;
  *) echo "setup.sh: expected no argument or 'build', got '$1'" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

# The test scripts read JSON results with python3; any python3 on the PATH will do.
command -v python3 >/dev/null 2>&1 || missing+=(python3)

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
