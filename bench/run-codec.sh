#!/usr/bin/env bash
# Codec benchmark: the same c-blosc-made chunks decoded by pure Java and by native c-blosc, 1 and 2 threads.
# Needs libblosc1 (apt-get install -y libblosc1). Prints a Markdown table (docs/BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package -pl bench -am >&2
exec java -cp bench/target/benchmarks.jar org.chunkcdm.bench.CodecReport "${1:-3}"
