# Shared by the ctest shell scripts: a scratch directory and pass/fail bookkeeping.
# Source it, call `pass` or `fail MESSAGE` after each check, and end with `finish`.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failures=0

pass() { passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

finish() {
  echo "$passed passed, $failures failed"
  [ "$failures" -eq 0 ]
}
