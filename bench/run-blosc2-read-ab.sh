#!/usr/bin/env bash
# Before/after comparison of whole 1 GiB b2nd reads: python-blosc2 `blosc2.open(p)[:]` (2 threads) and
# `Variable.read()` with two builds of the bench jar (e.g. main's and a branch's; --add-modules
# jdk.incubator.vector, 2 decode threads = the machine's cores here), interleaved per set and round so that all
# three see the same machine load; wall clock, best of READ_ROUNDS reads per process, best of ROUNDS rounds.
# The b2nd files must exist (bench/run-blosc2.sh read writes them). Bench only (needs python-blosc2, never CI).
#
# usage: bench/run-blosc2-read-ab.sh BEFORE_JAR AFTER_JAR DIR ROUNDS [SET...]
#   SET as in run-blosc2.sh (lz4-shuffle-ts8-c5 ...; default: the 8 codec + filter sets of typesize 8, clevel 5)
#   e.g. flock /tmp/chunkcdm-bench.lock bench/run-blosc2-read-ab.sh /tmp/main.jar bench/target/benchmarks.jar \
#          /tmp/chunkcdm-bench-codec2/blosc2 2
#   Env: B2PY (default /tmp/venv-codec2/bin/python), READ_ROUNDS (default 5), OUT (result directory; default a mktemp).
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=$1; AFTER=$2; DIR=$3; R=$4; shift 4
SETS=("$@")
if [ ${#SETS[@]} -eq 0 ]; then
  for c in lz4 blosclz zstd zlib; do for f in shuffle bitshuffle; do SETS+=("$c-$f-ts8-c5"); done; done
fi
PY=${B2PY:-/tmp/venv-codec2/bin/python}
RR=${READ_ROUNDS:-5}
O=${OUT:-$(mktemp -d)}
mkdir -p "$O"
for r in $(seq 1 "$R"); do
  for s in "${SETS[@]}"; do
    echo "round $r $s (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    "$PY" bench/blosc2/b2bench.py read "$DIR" "$RR" "$s" >> "$O/py.$r"
    for side in before after; do
      jar=$BEFORE; [ $side = after ] && jar=$AFTER
      java -Xmx3g --add-modules jdk.incubator.vector -cp "$jar" org.chunkcdm.bench.Blosc2CodecBench read "$DIR" "$RR" "$s" \
        >> "$O/$side.$r" 2>/dev/null
    done
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
"$PY" - "$O" <<'PY'
import glob, os, sys
d = sys.argv[1]
def best(p):
    o = {}
    for f in glob.glob(os.path.join(d, p + ".*")):
        for l in open(f):
            k, v = l.split()
            o[k] = min(o.get(k, 1e9), float(v))
    return o
py, b, a = best("py"), best("before"), best("after")
print("| 1 GiB float64 b2nd | python-blosc2 s | chunkcdm before s | chunkcdm after s | ratio (python / chunkcdm) before → after |")
print("|---|---|---|---|---|")
for k in py:
    codec, filt, ts, cl = k.split("-")
    print(f"| {codec} + {filt} | {py[k]:.3f} | {b[k]:.3f} | {a[k]:.3f} | {py[k] / b[k]:.2f} → **{py[k] / a[k]:.2f}** |")
PY
