#!/usr/bin/env bash
# Fuzzes chunkcdm's parsers with Jazzer for a time budget, one target after the other.
#   fuzz/run-fuzz.sh [TARGET...]      (from the repository root)
# Each target fuzzes for its @FuzzTest maxDuration (Jazzer's default, 5 minutes; jazzer-junit 0.24 takes the
# budget from the annotation only), so all ten targets take about 55 minutes.
# TARGET is Class#method, e.g. BloscFuzzTest#bloscChunk; default: every target. Findings (crashing inputs) are
# written by Jazzer into fuzz/src/test/resources/.../<Class>Inputs/<method>/ and then replay in every build;
# the generated corpus stays in fuzz/.cifuzz-corpus/ (not committed). Logs: fuzz/target/fuzz-logs/.
set -euo pipefail
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(BloscFuzzTest#bloscChunk BloscFuzzTest#blosc2Chunk BloscFuzzTest#lz4WithDictionary BloscFuzzTest#bloscLz
           ZstdFuzzTest#zstdFrame ZstdFuzzTest#zstdWithDictionary FormatFuzzTest#dsFile FormatFuzzTest#bloscpackFile
           FormatFuzzTest#blosc2Frame FormatFuzzTest#bcolzCarray)
fi
mkdir -p fuzz/target/fuzz-logs
total=0
for t in "${targets[@]}"; do
  log="fuzz/target/fuzz-logs/${t//#/_}.log"
  echo "fuzzing $t ..."
  rc=0
  JAZZER_FUZZ=1 mvn -B -o -q -pl fuzz -am test -Dtest="$t" -Dsurefire.failIfNoSpecifiedTests=false > "$log" 2>&1 || rc=$?
  runs=$(grep -oE 'Done [0-9]+ runs' "$log" | tail -1 | grep -oE '[0-9]+' || true)
  runs=${runs:-0}
  total=$((total + runs))
  if [ $rc -ne 0 ]; then
    echo "  $t: $runs executions, FAILED (finding or error, see $log)"
  else
    echo "  $t: $runs executions, no finding"
  fi
done
echo "fuzz: $total executions across ${#targets[@]} targets"
