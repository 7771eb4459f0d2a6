#!/usr/bin/env bash
# Where the time of chunk sets stored raw ("memcpyed") by c-blosc2 goes: the same chunks' data copied by
# plain memcpy in C (bench/blosc2/memcpy.c: per chunk, per block as c-blosc2 does, rep movsb, an AVX2 loop), by
# glibc memmove from Python, decoded by c-blosc2 (python-blosc2, one thread), copied by Java's System.arraycopy and
# decoded by the pure-Java decoder (one thread, --add-modules jdk.incubator.vector). Thread CPU time everywhere,
# rounds interleaved. Bench only (needs gcc and python-blosc2; never CI).
#
# usage: bench/run-blosc2-memcpy.sh DIR ROUNDS SECONDS SET...
#   e.g. flock /tmp/chunkcdm-bench.lock bench/run-blosc2-memcpy.sh /tmp/chunkcdm-bench-codec2/blosc2 2 1.5 \
#          blosclz-bitshuffle-ts8-c5 blosclz-bitshuffle-ts4-c5
#   Env: B2PY (python with blosc2; default /tmp/venv-codec2/bin/python), JAR (default bench/target/benchmarks.jar).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=$1; R=$2; S=$3; shift 3
PY=${B2PY:-/tmp/venv-codec2/bin/python}
JAR=${JAR:-bench/target/benchmarks.jar}
CBIN=$(mktemp -d)/b2memcpy
gcc -O2 -mavx2 -o "$CBIN" bench/blosc2/memcpy.c
J=(java -Xmx2g -Dchunkcdm.bench.cpu=true -Dchunkcdm.decode.threads=1 -Dchunkcdm.blosc.parallelBytes=2147483647
   --add-modules jdk.incubator.vector -cp "$JAR" org.chunkcdm.bench.Blosc2CodecBench)
export B2CPU=1
for r in $(seq 1 "$R"); do
  echo "== round $r (load $(cut -d' ' -f1-3 /proc/loadavg))"
  for s in "$@"; do
    echo "$s C: $("$CBIN" "$DIR/$s.chunks" | tr '\n' ';')"
  done
  "$PY" bench/blosc2/b2bench.py memcpy "$DIR" "$S" "$@" | sed 's/^/python: /'
  "${J[@]}" copy "$DIR" "$S" "$@" 2>/dev/null | sed 's/^/java System.arraycopy: /'
  "${J[@]}" time "$DIR" "$S" "$@" 2>/dev/null | sed 's/^/java decode: /'
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
