#!/usr/bin/env bash
# Typed read vs readBytes + conversion vs the CDM read, on B2ndBench's 1 GiB float32 b2nd frame (written if
# missing) opened through the opener SPI (docs/BENCHMARKS.md, "b2nd partial reads and typed reads").
# Arguments: output directory (default bench-out/sframe), rounds (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package -pl bench -am >&2
exec java -Xmx5g -cp bench/target/benchmarks.jar org.chunkcdm.bench.TypedReadBench "${1:-bench-out/sframe}" "${2:-5}"
