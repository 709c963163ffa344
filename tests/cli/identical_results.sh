#!/usr/bin/env bash
# Every output file of the runs in tests/data/regression/cases.txt must keep the SHA-256 recorded
# in tests/data/regression/sha256.txt: optimisations of the simulator may not change a single byte
# of its results. After a deliberate change of results, regenerate the record with
#   bash tests/cli/identical_results.sh build/sonicsim . --update
# and say in the commit why the results changed. The runs' outputs must also keep their canonical
# digests (tests/cli/canonical_results.py: rows sorted, batch ids dropped, numbers to 12 digits), which
# --update leaves as they are: a change that only reorders simultaneous events keeps them. Any
# other change of results regenerates both records with --update-all.
set -u
sonicsim=$1
root=$2
update=${3:-}
source "$(dirname "$0")/harness.sh"
record="$root/tests/data/regression/sha256.txt"

while IFS='|' read -r name scenario extra; do
  name=$(echo "$name" | xargs)
  scenario=$(echo "$scenario" | xargs)
  [ -z "$name" ] || [[ "$name" == \#* ]] && continue
  out="$work/runs/$name"
  mkdir -p "$out"
  # A perf_analyzer load writes only the file its arguments name under {output}.
  [[ "$extra" == *"{output}"* ]] || extra="--output $out $extra"
  read -r -a args <<<"${extra//\{output\}/$out}"
  if "$sonicsim" run "$root/$scenario" --quiet "${args[@]}" 2>"$work/$name.err"; then
    pass
  else
    fail "$name: the run failed: $(cat "$work/$name.err")"
  fi
done <"$root/tests/data/regression/cases.txt"

canonical="$root/tests/data/regression/canonical_sha256.txt"
if [ "$update" = "--update-all" ]; then
  python3 "$root/tests/cli/canonical_results.py" "$work/runs" "$canonical" --update
elif python3 "$root/tests/cli/canonical_results.py" "$work/runs" "$canonical"; then
  pass
else
  fail "outputs differ from the record beyond the order of simultaneous events (see above)"
fi

(cd "$work/runs" && find . -type f | LC_ALL=C sort | xargs sha256sum) >"$work/sha256.txt"
if [ "$update" = "--update" ] || [ "$update" = "--update-all" ]; then
  cp "$work/sha256.txt" "$record"
  echo "recorded $(wc -l <"$record") output files in $record"
elif diff <(sed 's/^[0-9a-f]*  //' "$record") <(sed 's/^[0-9a-f]*  //' "$work/sha256.txt") >/dev/null; then
  pass
  while read -r digest file; do
    if grep -qx "$digest  $file" "$record"; then pass; else fail "$file differs from the recorded results"; fi
  done <"$work/sha256.txt"
else
  fail "the set of output files differs from the record:"
  diff <(sed 's/^[0-9a-f]*  //' "$record") <(sed 's/^[0-9a-f]*  //' "$work/sha256.txt")
fi
finish
