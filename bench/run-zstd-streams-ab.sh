#!/usr/bin/env bash
# A/B of two builds of the pure-Java zstd decoder on the zstd streams inside Blosc2 chunk sets:
# ZstdStreamsBench timing ours alone (no aircompressor, no libzstd), one JVM per side and round, the sides
# alternating (A B A B ...) so that both see the same machine load; thread CPU time, best pass per JVM.
# A side is a class path: a bench jar, or a directory of changed classes put before it (e.g. a variant of
# core's org/chunkcdm/blosc/zstd compiled with javac -cp bench/target/benchmarks.jar -d DIR).
# Prints "SET A|B best-GB/s-per-round..." per line. Bench only, never run by mvn verify or CI.
#
# usage: bench/run-zstd-streams-ab.sh A_CP B_CP DIR SECONDS ROUNDS SET...
#   e.g. flock /tmp/chunkcdm-bench.lock bench/run-zstd-streams-ab.sh /tmp/main.jar \
#          /tmp/variant:bench/target/benchmarks.jar /tmp/chunkcdm-bench-codec2/blosc2 1 2 zstd-shuffle-ts4-c5
set -euo pipefail
A=$1; B=$2; DIR=$3; S=$4; R=$5; shift 5
O=$(mktemp)
trap 'rm -f "$O"' EXIT
for r in $(seq 1 "$R"); do
  for side in A B; do
    cp=$A; [ $side = B ] && cp=$B
    echo "round $r $side (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    java -Xmx2g -Dchunkcdm.bench.cpu=true -Dchunkcdm.bench.impls=chunkcdm -cp "$cp" \
      org.chunkcdm.bench.ZstdStreamsBench "$DIR" "$S" 1 "$@" | awk -v s=$side '{print $1, s, $3}' >> "$O"
  done
done
awk '{k=$1" "$2; v[k]=v[k]" "$3} END {for (k in v) print k v[k]}' "$O" | sort
