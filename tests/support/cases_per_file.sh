#!/usr/bin/env bash
# A doctest binary run as one ctest entry per test source file runs every case once only if every
# case lives in one of those files: the cases counted per file add up to the binary's whole count.
# Usage: cases_per_file.sh BINARY FILE_STEM...
set -u
binary=$1; shift
count() { "$binary" --count "$@" | sed -n 's/.*passing the current filters: //p'; }
whole=$(count)
sum=0
for stem in "$@"; do sum=$((sum + $(count --source-file="*/$stem.cpp"))); done
if [ "$sum" -eq "$whole" ] && [ "$whole" -gt 0 ]; then
  echo "$whole cases, all in the $# test files"
else
  echo "the test files hold $sum of the binary's $whole cases: a case outside a test_*.cpp file runs in no ctest entry" >&2
  exit 1
fi
