#!/usr/bin/env bash
# Fuzzes chunkcdm's parsers with Jazzer for a time budget, one target after the other (one fuzzing JVM at a time,
# at the lowest CPU priority).
#   fuzz/run-fuzz.sh [TARGET...]      (from the repository root)
# Each target fuzzes for its @FuzzTest maxDuration (Jazzer's default, 5 minutes; jazzer-junit 0.24 takes the
# budget from the annotation only), so all twenty-six targets take about 130 minutes. Per input, a 1 s limit applies
# (-Dfuzz.input.timeout="1 s" below; jazzer-junit passes it to libFuzzer as -timeout=1): a slower input is a finding. The fuzzing JVM runs with -Xmx256m (fuzz/pom.xml): an OutOfMemoryError is a finding.
# TARGET is Class#method, e.g. BloscFuzzTest#bloscChunk; default: every target. Findings (crashing or slow inputs)
# are written by Jazzer into fuzz/src/test/resources/.../<Class>Inputs/<method>/ and then replay in every build;
# the generated corpus stays in fuzz/.cifuzz-corpus/ (not committed). Logs: fuzz/target/fuzz-logs/.
# Prints one line per target: executions, coverage (libFuzzer's cov/ft at the end) and the verdict.
set -euo pipefail
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(BloscFuzzTest#bloscChunk BloscFuzzTest#blosc2Chunk BloscFuzzTest#lz4WithDictionary BloscFuzzTest#bloscLz
           ZstdFuzzTest#zstdFrame ZstdFuzzTest#zstdWithDictionary FormatFuzzTest#dsFile FormatFuzzTest#bloscpackFile
           FormatFuzzTest#blosc2Frame FormatFuzzTest#bcolzCarray NcStreamFuzzTest#ncstreamFile
           H5BloscFuzzTest#hdf5BloscChunk InflateFuzzTest#inflate H5FiltersFuzzTest#lzf H5FiltersFuzzTest#lz4Filter
           H5FiltersFuzzTest#bitshuffle H5FiltersFuzzTest#zstdFilter H5FiltersFuzzTest#bzip2 H5FiltersFuzzTest#nbit
           H5FiltersFuzzTest#scaleOffset H5FiltersFuzzTest#filterPipeline
           ZarrFuzzTest#zarrMetadata ZarrFuzzTest#shardIndex FormatFuzzTest#b2zStore FormatFuzzTest#b2dKeyMap
           FormatFuzzTest#b2eStore)
fi
mkdir -p fuzz/target/fuzz-logs
total=0
for t in "${targets[@]}"; do
  log="fuzz/target/fuzz-logs/${t//#/_}.log"
  echo "fuzzing $t (log $log) ..."
  rc=0
  # timeout.mode=disabled: JUnit would otherwise fail the whole 5-minute fuzzing invocation after the fact; the
  # per-input limit stays, enforced by libFuzzer (-timeout=1 from junit-platform.properties)
  JAZZER_FUZZ=1 nice -n 19 mvn -B -o -q -pl fuzz -am test -Dtest="$t" -Djunit.jupiter.execution.timeout.mode=disabled -Dfuzz.input.timeout="1 s" \
    -Dsurefire.failIfNoSpecifiedTests=false > "$log" 2>&1 || rc=$?
  runs=$(grep -oE 'Done [0-9]+ runs' "$log" | tail -1 | grep -oE '[0-9]+' || true)
  if [ -z "$runs" ]; then # stopped before libFuzzer's summary: the last status line
    runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
  fi
  runs=${runs:-0}
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)
  total=$((total + runs))
  if grep -qE 'libFuzzer: timeout|ERROR: libFuzzer|FuzzTestFindingException|OutOfMemoryError' "$log"; then
    verdict="FINDING (see $log)"
  elif [ $rc -ne 0 ]; then
    verdict="FAILED (exit $rc, see $log)"
  else
    verdict="no finding"
  fi
  echo "  $t: $runs executions, ${cov:-cov ?}, $verdict"
done
echo "fuzz: $total executions across ${#targets[@]} targets"
