#!/usr/bin/env bash
# bcolz benchmark: whole read of a generated 1 GiB float64 carray through Variable.read() vs native c-blosc
# decoding the same chunks alone, plus single-element read latency. Needs libblosc1 and ~1 GiB of disk.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package -pl bench -am >&2
exec java -Xmx6g -cp bench/target/benchmarks.jar org.chunkcdm.bench.BcolzBench "${1:-/tmp/chunkcdm-bench}"
