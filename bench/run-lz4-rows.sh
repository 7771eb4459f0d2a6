#!/usr/bin/env bash
# lz4 rows: c-blosc2 (python-blosc2) against chunkcdm after (this branch) and before (old Lz4 classes first on the
# class path), with and without the Vector API; thread CPU time, best pass per set, rounds interleaved.
# usage (from anywhere; build first: mvn -B -q -o -DskipTests package -pl bench -am):
#   flock /tmp/chunkcdm-bench.lock bench/run-lz4-rows.sh OLDCLASSES OUTDIR [ROUNDS] [SECONDS]
# OLDCLASSES: a directory with the "before" org/chunkcdm/blosc/Lz4.class (put first on the class path); DIR of the
# chunk sets: B2DIR (default /tmp/chunkcdm-bench-codec2/blosc2, written by bench/run-blosc2.sh); B2PY: python with blosc2.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD; OLD=$1; OUT=$2; ROUNDS=${3:-2}; SECS=${4:-1.0}
PY=${B2PY:-/tmp/venv-codec2/bin/python}
DIR=${B2DIR:-/tmp/chunkcdm-bench-codec2/blosc2}
SETS=(lz4-shuffle-ts8-c5 lz4-bitshuffle-ts8-c5 lz4-shuffle-ts4-c5 lz4-bitshuffle-ts4-c5 lz4-shuffle-ts2-c5 lz4-bitshuffle-ts2-c5 lz4-shuffle-ts8-c1 lz4-bitshuffle-ts8-c1 lz4-shuffle-ts8-c9 lz4-bitshuffle-ts8-c9)
J=(java -Xmx2g -Dchunkcdm.bench.cpu=true -Dchunkcdm.decode.threads=1 -Dchunkcdm.blosc.parallelBytes=2147483647)
JAR=$REPO/bench/target/benchmarks.jar
M=org.chunkcdm.bench.Blosc2CodecBench
mkdir -p "$OUT"
for r in $(seq 1 "$ROUNDS"); do
  echo "round $r c-blosc2 $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  B2CPU=1 "$PY" "$REPO/bench/blosc2/b2bench.py" time "$DIR" "$SECS" "${SETS[@]}" > "$OUT/c.$r"
  echo "round $r after+vec $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  "${J[@]}" --add-modules jdk.incubator.vector -cp "$JAR" $M time "$DIR" "$SECS" "${SETS[@]}" > "$OUT/av.$r" 2>/dev/null
  echo "round $r before+vec $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  "${J[@]}" --add-modules jdk.incubator.vector -cp "$OLD:$JAR" $M time "$DIR" "$SECS" "${SETS[@]}" > "$OUT/bv.$r" 2>/dev/null
  echo "round $r after $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  "${J[@]}" -cp "$JAR" $M time "$DIR" "$SECS" "${SETS[@]}" > "$OUT/as.$r"
  echo "round $r before $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  "${J[@]}" -cp "$OLD:$JAR" $M time "$DIR" "$SECS" "${SETS[@]}" > "$OUT/bs.$r"
done
echo "end $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 - "$OUT" "$ROUNDS" <<'PY'
import sys
out, rounds = sys.argv[1], int(sys.argv[2])
def best(k):
    d = {}
    for r in range(1, rounds + 1):
        for line in open(f"{out}/{k}.{r}"):
            p = line.split()
            if len(p) >= 2:
                d[p[0]] = max(d.get(p[0], 0), float(p[-1]))
    return d
c, av, bv, as_, bs = (best(k) for k in ("c", "av", "bv", "as", "bs"))
print("| set | c-blosc2 GB/s | Vector API: before | after | ratio before → after | no flag: before | after | ratio before → after |")
print("|---|---|---|---|---|---|---|---|")
for s in c:
    print(f"| {s} | {c[s]:.1f} | {bv[s]:.1f} | {av[s]:.1f} | {bv[s]/c[s]:.2f} → **{av[s]/c[s]:.2f}** | {bs[s]:.1f} | {as_[s]:.1f} | {bs[s]/c[s]:.2f} → **{as_[s]/c[s]:.2f}** |")
PY
