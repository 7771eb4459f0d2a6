#!/usr/bin/env bash
# ncstream reader + cdmremote server benchmark: a multi-GiB .ncs (open time, small-section latency) and
# `chunkcdm serve` on loopback (whole read MB/s and 10x16-section requests/s with 8 clients vs local reads).
# Arguments: output directory (default bench-out/ncs, ~2.3 GiB), GiB of the big file (default 2), seconds per
# throughput round (default 5). Prints what docs/BENCHMARKS.md quotes.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package -pl bench -am >&2
exec java -Xmx2g -cp bench/target/benchmarks.jar org.chunkcdm.bench.NcsServeBench "${1:-bench-out/ncs}" "${2:-2}" "${3:-5}"
