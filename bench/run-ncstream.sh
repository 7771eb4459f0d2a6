#!/usr/bin/env bash
# ncstream writer benchmark: the 1 GiB float64 lz4 bcolz carray of run-bcolz.sh written as ncstream by chunkcdm's
# NcStreamOut and by netcdf-java's NcStreamWriter.streamAll, and as raw decoded bytes, to files under dir, in one
# JVM with -Xmx256m. Needs libblosc1 (to make the carray) and ~2.5 GiB of disk.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package -pl bench -am >&2
exec java -Xmx256m -cp bench/target/benchmarks.jar org.chunkcdm.bench.NcStreamBench "${1:-/tmp/chunkcdm-bench}" "${2:-3}"
