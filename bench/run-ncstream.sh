#!/usr/bin/env bash
# ncstream writer benchmark: the 1 GiB float64 lz4 bcolz carray of run-bcolz.sh written as ncstream by chunkcdm's
# NcStreamOut (1 MiB messages, and once with 4 MiB) and by netcdf-java's NcStreamWriter.streamAll, and as raw
# decoded bytes (the reference: the faster of a FileChannel and a FileOutputStream write), to files under dir, in
# one JVM with -Xmx256m, rounds interleaved; then the smallest -Xmx each ncstream writer completes with (output
# discarded). The last line of each table gives NcStreamOut against its targets (docs/BENCHMARKS.md).
# Usage: bench/run-ncstream.sh [dir [rounds [outdir]]]  (the carray under dir, the written files under outdir)
# Needs libblosc1 (to make the carray) and ~2.5 GiB of disk.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package -pl bench -am >&2
dir="${1:-/tmp/chunkcdm-bench}"
out="${3:-$dir}"
uptime
java -Xmx256m --add-modules jdk.incubator.vector -cp bench/target/benchmarks.jar org.chunkcdm.bench.NcStreamBench "$dir" "${2:-3}" "$out"
echo
for w in ncstreamout ncstreamwriter; do
  for x in 16m 24m 32m 48m 64m 96m 128m 256m; do
    if java -Xmx$x --add-modules jdk.incubator.vector -cp bench/target/benchmarks.jar org.chunkcdm.bench.NcStreamBench "$dir" min-heap $w >/dev/null 2>&1; then
      echo "smallest -Xmx for $w (of 16m 24m 32m 48m 64m 96m 128m 256m): $x"
      break
    fi
  done
done
