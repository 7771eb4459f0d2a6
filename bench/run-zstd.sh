#!/usr/bin/env bash
# Zstd benchmark: the zstd streams inside c-blosc chunks of the codec benchmark's data, decoded by the pure-Java
# decoder (org.chunkcdm.blosc.zstd), aircompressor and native zstd (zstd-jni). Needs libblosc1. Prints a Markdown
# table. Argument: measurement iterations (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package -pl bench -am >&2
exec java -cp bench/target/benchmarks.jar org.chunkcdm.bench.ZstdBench "${1:-5}"
