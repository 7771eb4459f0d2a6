#!/usr/bin/env bash
# Blosc2 b2nd benchmark: writes a 1 GiB float32 b2nd frame (benchmark-only chunk writer), then reads it whole
# and in small 3-D sub-sections through netcdf-java, reporting chunks/blocks/bytes decoded (docs/BENCHMARKS.md).
# Arguments: output directory (default bench-out/sframe, ~131 MiB), rounds (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package -pl bench -am >&2
exec java -Xmx5g -cp bench/target/benchmarks.jar org.chunkcdm.bench.B2ndBench "${1:-bench-out/sframe}" "${2:-5}"
