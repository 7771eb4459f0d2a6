#!/usr/bin/env bash
# Before/after comparison of Blosc2 chunk sets: c-blosc2 (python-blosc2, one thread) and two builds of
# the bench jar (e.g. main's and a branch's), each with and without --add-modules jdk.incubator.vector, timed by
# thread CPU time, rounds interleaved (c-blosc2, before, after, ...) so that all see the same machine load.
# Prints a Markdown table of GB/s and ratios against c-blosc2. Bench only (needs python-blosc2, never CI).
#
# usage: bench/run-blosc2-before-after.sh BEFORE_JAR AFTER_JAR DIR ROUNDS SECONDS SET...
#   e.g. flock /tmp/chunkcdm-bench.lock bench/run-blosc2-before-after.sh /tmp/main.jar bench/target/benchmarks.jar \
#          /tmp/chunkcdm-bench-codec2/blosc2 2 1.5 zstd-shuffle-ts8-c5 zstd-bitshuffle-ts8-c5
#   Env: B2PY (python with blosc2; default /tmp/venv-codec2/bin/python), OUT (result directory; default a mktemp),
#   BEFORE_OPTS / AFTER_OPTS (extra JVM options of one side, e.g. one jar twice with a -D switch on one side).
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=$1; AFTER=$2; DIR=$3; R=$4; S=$5; shift 5
SETS=("$@")
PY=${B2PY:-/tmp/venv-codec2/bin/python}
O=${OUT:-$(mktemp -d)}
mkdir -p "$O"
J=(java -Xmx2g -Dchunkcdm.bench.cpu=true -Dchunkcdm.decode.threads=1 -Dchunkcdm.blosc.parallelBytes=2147483647)
export B2CPU=1
for r in $(seq 1 "$R"); do
  echo "round $r c-blosc2 (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  "$PY" bench/blosc2/b2bench.py time "$DIR" "$S" "${SETS[@]}" > "$O/c.$r"
  for v in vec novec; do
    F=(); [ $v = vec ] && F=(--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED) # as the CLI's launchers
    for side in before after; do
      jar=$BEFORE; opts=${BEFORE_OPTS:-}; [ $side = after ] && jar=$AFTER && opts=${AFTER_OPTS:-}
      echo "round $r $side $v (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
      "${J[@]}" "${F[@]}" $opts -cp "$jar" org.chunkcdm.bench.Blosc2CodecBench time "$DIR" "$S" "${SETS[@]}" > "$O/$side-$v.$r" 2>/dev/null
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
            o[k] = max(o.get(k, 0), float(v))
    return o
c, bv, av, bs, as_ = best("c"), best("before-vec"), best("after-vec"), best("before-novec"), best("after-novec")
print("| set | c-blosc2 GB/s | Vector API: before → after GB/s | ratio before → after | no flag: before → after GB/s | ratio before → after |")
print("|---|---|---|---|---|---|")
for k in c:
    print(f"| {k} | {c[k]:.2f} | {bv[k]:.2f} → {av[k]:.2f} | {bv[k]/c[k]:.2f} → **{av[k]/c[k]:.2f}** | "
          f"{bs[k]:.2f} → {as_[k]:.2f} | {bs[k]/c[k]:.2f} → **{as_[k]/c[k]:.2f}** |")
PY
