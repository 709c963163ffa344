#!/usr/bin/env bash
# The README's first command builds only what it runs: the sonicsim target, not every test binary
# (about 4 minutes more on a quiet 2-core machine, far more on a busy one). Every `cmake --build` in
# it names a target, and the targets it names are the ones its commands run (build/NAME). The test
# command (scripts/test.sh) builds everything, which ctest needs. Every script the READMEs show as a
# command (an indented line starting with its path) runs as shown: executable, with a shebang.
set -u
repo=$1
source "$(dirname "$0")/harness.sh"
first=$(sed -n '/^    /{p;q}' "$repo/README.md")

builds=$(grep -o 'cmake --build [^&]*' <<<"$first")
if [ -n "$builds" ] && ! grep -v -- '--target' <<<"$builds" | grep -q .; then pass
else fail "README's first command builds without a --target: $first"; fi
built=$(grep -o -- '--target [A-Za-z0-9_]*' <<<"$builds" | sed 's/--target //' | sort -u)
ran=$(grep -o 'build/[A-Za-z0-9_]*' <<<"$first" | sed 's|build/||' | sort -u)
if [ -n "$ran" ] && [ "$built" = "$ran" ]; then pass; else fail "README's first command builds [$built] and runs [$ran]"; fi
# What builds everything stays so: scripts/test.sh (and CI through it) builds the default target.
if grep -q '^cmake --build build -j "$(nproc)"$' "$repo/scripts/test.sh"; then pass; else fail "scripts/test.sh no longer builds every target"; fi
# The scripts the READMEs run by their path.
shown=$(cd "$repo" && grep -ohE '^ +(analysis|scenarios|bench|scripts|tests)/[A-Za-z0-9_/.-]+\.(py|sh)' \
  README.md ./*/README.md docs/*.md | sed 's/^ *//' | sort -u)
for script in $shown; do
  if [ -x "$repo/$script" ] && head -1 "$repo/$script" | grep -q '^#!'; then pass
  else fail "$script: a README runs it by its path, but it is not an executable script with a shebang"; fi
done

finish
