#!/usr/bin/env bash
# Whole reads of 1 GiB float64 plain Blosc2 frames and bcolz carrays against python-blosc2, 2 threads
# each side. bench/blosc2/b2bench.py writes, for every set (codec-filter-ts8-c5), the series of the b2nd arrays
# of run-blosc2.sh as a plain frame DIR/<set>.b2frame (python-blosc2 SChunk, 8 MiB chunks) and as a bcolz carray
# DIR/<set>.bcolz/ (bcolz's layout, 1 MiB chunk files compressed by c-blosc 1.21, libblosc.so.1). Then, per round
# and set, interleaved: python-blosc2 (frame: blosc2.open + SChunk.get_slice into one preallocated float64 array;
# bcolz: every chunk file read and blosc2.decompress2 into one preallocated array; blosc2.set_nthreads(2)) and
# chunkcdm (NetcdfFiles.open + Variable.read() + close, 2 decode threads, --add-modules jdk.incubator.vector and
# --enable-native-access=ALL-UNNAMED as the CLI's launchers;
# bench WholeReadBench); wall clock, best of READ_ROUNDS reads per process, best of ROUNDS rounds. With a b2nd
# array DIR/<set>.b2nd present (run-blosc2.sh read writes them), KINDS=b2nd adds it (python: blosc2.open(p)[:]).
# Bench only (python-blosc2 and libblosc1 are never needed by mvn verify or CI).
#
# usage: bench/run-blosc2-whole.sh [DIR [SET...]]
#   DIR default /tmp/chunkcdm-bench-whole (~13 GiB for the 8 sets); SET default the 8 sets of typesize 8, clevel 5.
#   Env: ROUNDS (default 3), READ_ROUNDS (default 10: a fresh JVM still compiles in its first ~5 reads), KINDS (default "frame bcolz"), JAR (default
#   bench/target/benchmarks.jar, built when missing), BEFORE (a second jar, e.g. main's: then every set is also read
#   by it, in the order python, BEFORE, JAR, and the table gets its column), BEFORE_OPTS / AFTER_OPTS (JVM options
#   for the BEFORE / JAR runs, e.g. BEFORE=$JAR BEFORE_OPTS=-Dchunkcdm.ffm=false), B2PY (python with blosc2 and numpy; default
#   /tmp/venv-codec2/bin/python), OUT (result directory; default a mktemp).
#   e.g. flock /tmp/chunkcdm-bench.lock bench/run-blosc2-whole.sh /tmp/chunkcdm-bench-whole6
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-/tmp/chunkcdm-bench-whole}
[ $# -gt 0 ] && shift
SETS=("$@")
if [ ${#SETS[@]} -eq 0 ]; then
  for c in lz4 blosclz zstd zlib; do for f in shuffle bitshuffle; do SETS+=("$c-$f-ts8-c5"); done; done
fi
PY=${B2PY:-/tmp/venv-codec2/bin/python}
ROUNDS=${ROUNDS:-3}
RR=${READ_ROUNDS:-10}
KINDS=${KINDS:-frame bcolz}
JAR=${JAR:-bench/target/benchmarks.jar}
O=${OUT:-$(mktemp -d)}
mkdir -p "$O" "$DIR"
if [ ! -f "$JAR" ]; then
  mvn -B -q -o -DskipTests package -pl bench -am >&2
fi
B2=bench/blosc2/b2bench.py
for kind in $KINDS; do
  ext=.b2frame; [ "$kind" = bcolz ] && ext=.bcolz; [ "$kind" = b2nd ] && ext=.b2nd
  missing=()
  for s in "${SETS[@]}"; do [ -e "$DIR/${s//-/_}$ext" ] || missing+=("$s"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "writing ${#missing[@]} 1 GiB $kind datasets" >&2
    w=write$kind; [ "$kind" = frame ] && w=writeframe
    "$PY" $B2 "$w" "$DIR" "${missing[@]}"
  fi
done
for r in $(seq 1 "$ROUNDS"); do
  for s in "${SETS[@]}"; do
    for kind in $KINDS; do
      echo "round $r $kind $s (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
      pyread=read$kind; [ "$kind" = b2nd ] && pyread=read
      "$PY" $B2 "$pyread" "$DIR" "$RR" "$s" | sed "s/^/$kind /" >> "$O/py.$r"
      if [ -n "${BEFORE:-}" ]; then
        java -Xmx3g --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Dchunkcdm.decode.threads=2 ${BEFORE_OPTS:-} -cp "$BEFORE" \
          org.chunkcdm.bench.WholeReadBench read "$kind" "$DIR" "$RR" "$s" 2>/dev/null | sed "s/^/$kind /" >> "$O/before.$r"
      fi
      java -Xmx3g --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Dchunkcdm.decode.threads=2 ${AFTER_OPTS:-} -cp "$JAR" \
        org.chunkcdm.bench.WholeReadBench read "$kind" "$DIR" "$RR" "$s" 2>/dev/null | sed "s/^/$kind /" >> "$O/java.$r"
    done
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); results in $O"
"$PY" - "$O" <<'PY'
import glob, os, sys
d = sys.argv[1]
def best(p):
    o = {}
    for f in glob.glob(os.path.join(d, p + ".*")):
        for l in open(f):
            kind, k, v = l.split()
            o[kind, k] = min(o.get((kind, k), 1e9), float(v))
    return o
py, j, b = best("py"), best("java"), best("before")
if b:
    print("| 1 GiB float64 | codec + filter | python-blosc2 s | BEFORE s | ratio | chunkcdm `Variable.read()` s | ratio (python / chunkcdm) |")
    print("|---|---|---|---|---|---|---|")
else:
    print("| 1 GiB float64 | codec + filter | python-blosc2 s | chunkcdm `Variable.read()` s | ratio (python / chunkcdm) |")
    print("|---|---|---|---|---|")
for kind, k in py:
    codec, filt, ts, cl = k.split("-")
    jt = j.get((kind, k))
    bt = b.get((kind, k))
    pre = f"| {kind} | {codec} + {filt} | {py[kind, k]:.3f} |"
    if b:
        pre += f" {bt:.3f} | {py[kind, k] / bt:.2f} |" if bt else " - | - |"
    print(pre + (f" {jt:.3f} | **{py[kind, k] / jt:.2f}** |" if jt else " - | - |"))
PY
