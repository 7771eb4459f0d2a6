#!/usr/bin/env bash
# LZ4 decoders on streams of one sequence class each (bench/lz4/lz4synth.py) and on the LZ4 streams of Blosc2 chunk
# sets: the system liblz4 (C harness bench/lz4/lz4bench.c, built here with gcc), chunkcdm's Lz4 and aircompressor
# (Lz4FileBench, one JVM per file), ns per sequence, best pass, thread CPU time. It separates what a decoder pays
# per sequence on perfectly regular input from what irregular real streams add.
# usage (build first: mvn -B -q -o -DskipTests package -pl bench -am; needs gcc, liblz4.so.1, python3):
#   flock /tmp/chunkcdm-bench.lock bench/run-lz4-synth.sh [SECONDS] [SET...]
# SECONDS per pass group (default 1); SETs default lz4-shuffle-ts4-c5 lz4-shuffle-ts2-c5 lz4-shuffle-ts8-c5 in B2DIR
# (default /tmp/chunkcdm-bench-codec2/blosc2). Env: OUT (default /tmp/chunkcdm-lz4-synth), KINDS (synthetic kinds).
set -euo pipefail
cd "$(dirname "$0")/.."
S=${1:-1}; shift || true
SETS=("$@"); [ ${#SETS[@]} -gt 0 ] || SETS=(lz4-shuffle-ts4-c5 lz4-shuffle-ts2-c5 lz4-shuffle-ts8-c5)
DIR=${B2DIR:-/tmp/chunkcdm-bench-codec2/blosc2}
O=${OUT:-/tmp/chunkcdm-lz4-synth}
KINDS=${KINDS:-far0 near0 far0wide far0m far1 p2 mixlong}
JAR=bench/target/benchmarks.jar
mkdir -p "$O"
gcc -O2 -o "$O/lz4bench" bench/lz4/lz4bench.c -l:liblz4.so.1
python3 bench/lz4/lz4synth.py "$O" $KINDS > /dev/null
java -cp "$JAR" org.chunkcdm.bench.Lz4FileBench dump "$DIR" "$O" "${SETS[@]}" > /dev/null
FILES=(); for k in $KINDS; do FILES+=("$O/syn-$k.bin"); done
for s in "${SETS[@]}"; do FILES+=("$O/$s.bin"); done
echo "load at the start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "| streams | sequences | liblz4 ns/seq | chunkcdm ns/seq | aircompressor ns/seq | chunkcdm / liblz4 (speed) | aircompressor / liblz4 |"
echo "|---|---|---|---|---|---|---|"
for f in "${FILES[@]}"; do
  c=$("$O/lz4bench" "$f" "$S")
  j=$(java -Xmx1g -cp "$JAR" org.chunkcdm.bench.Lz4FileBench time "$(echo "$S / 4" | bc -l)" 4 "$f")
  echo "$c $j" | awk '{ n = $1; sub(".*/", "", n); sub("[.]bin$", "", n); lib = $7; cdm = $15; air = $18;
    printf "| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f |\n", n, $5, lib, cdm, air, lib / cdm, lib / air }'
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
