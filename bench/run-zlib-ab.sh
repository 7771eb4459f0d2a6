#!/usr/bin/env bash
# zlib rows of the c-blosc2 table, before/after an Inflate change: c-blosc2 (python-blosc2, one thread)
# and Blosc2CodecBench time with and without the Vector API, on this tree's bench jar ("after") and on the same jar
# with Inflate.java of commit BEFORE compiled ahead of it ("before"); rounds interleaved, thread CPU time.
# Prints one line per set: c-blosc2 GB/s, then before/after GB/s and ratios (best of the rounds). Bench only.
#
# usage: bench/run-zlib-ab.sh BEFORE_COMMIT DIR [ROUNDS]   (run it under flock /tmp/chunkcdm-bench.lock)
# env: B2PY (python with blosc2, default /tmp/venv-codec2/bin/python), SECONDS_PER_SET (default 1.5)
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=$1; D=$2; ROUNDS=${3:-2}
PY=${B2PY:-/tmp/venv-codec2/bin/python}
SECS=${SECONDS_PER_SET:-1.5}
SETS="zlib-shuffle-ts8-c5 zlib-bitshuffle-ts8-c5 zlib-shuffle-ts2-c5 zlib-bitshuffle-ts2-c5 zlib-shuffle-ts4-c5
 zlib-bitshuffle-ts4-c5 zlib-shuffle-ts8-c1 zlib-bitshuffle-ts8-c1 zlib-shuffle-ts8-c9 zlib-bitshuffle-ts8-c9"
mvn -B -q -o -DskipTests package -pl bench -am >&2
T=$(mktemp -d)
mkdir -p "$T/src" "$T/old"
git show "$BEFORE:core/src/main/java/org/chunkcdm/blosc/Inflate.java" > "$T/src/Inflate.java"
javac -nowarn -cp core/target/classes -d "$T/old" "$T/src/Inflate.java" 2>/dev/null
J=(java -Xmx2g -Dchunkcdm.bench.cpu=true -Dchunkcdm.decode.threads=1 -Dchunkcdm.blosc.parallelBytes=2147483647)
for r in $(seq 1 "$ROUNDS"); do
  echo "round $r/$ROUNDS: c-blosc2 ($(cut -d' ' -f1-3 /proc/loadavg))" >&2
  B2CPU=1 "$PY" bench/blosc2/b2bench.py time "$D" "$SECS" $SETS > "$T/c.$r"
  for side in after before; do
    CP=bench/target/benchmarks.jar
    [ $side = before ] && CP=$T/old:$CP
    echo "round $r/$ROUNDS: $side ($(cut -d' ' -f1-3 /proc/loadavg))" >&2
    "${J[@]}" --add-modules jdk.incubator.vector -cp "$CP" org.chunkcdm.bench.Blosc2CodecBench time "$D" "$SECS" $SETS \
      2>/dev/null > "$T/v-$side.$r"
    "${J[@]}" -cp "$CP" org.chunkcdm.bench.Blosc2CodecBench time "$D" "$SECS" $SETS 2>/dev/null > "$T/s-$side.$r"
  done
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
best() { cat "$T"/$1.* | awk -v s="$2" '$1 == s && $NF > b {b = $NF} END {printf "%.2f", b}'; }
echo "| set | c-blosc2 GB/s | vector before | after | ratio | no flag before | after | ratio |"
echo "|---|---:|---:|---:|---|---:|---:|---|"
for s in $SETS; do
  c=$(best c "$s"); vb=$(best v-before "$s"); va=$(best v-after "$s"); sb=$(best s-before "$s"); sa=$(best s-after "$s")
  awk -v s="$s" -v c="$c" -v vb="$vb" -v va="$va" -v sb="$sb" -v sa="$sa" 'BEGIN {
    printf "| %s | %.2f | %.2f | %.2f | %.2f -> %.2f | %.2f | %.2f | %.2f -> %.2f |\n", s, c, vb, va, vb / c, va / c, sb, sa, sb / c, sa / c }'
done
rm -rf "$T"
