#!/usr/bin/env bash
# The C++ sources are as clang-format makes them with the repository's .clang-format.
# Usage: format_check.sh REPO
set -u
cd "$1" || exit 1
files=$(find models sim cli analysis tests fuzz bench -name '*.cpp' -o -name '*.hpp' | sort)
if out=$(clang-format --dry-run -Werror $files 2>&1); then
  echo "$(wc -w <<<"$files") files formatted"
else
  echo "$out" | head -20
  echo "not formatted: run  git ls-files '*.cpp' '*.hpp' | xargs clang-format -i  (README, Testing)" >&2
  exit 1
fi
