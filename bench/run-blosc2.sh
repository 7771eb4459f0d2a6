#!/usr/bin/env bash
# Codec speed against c-blosc2: python-blosc2 writes 1 MiB Blosc2 chunks of a float series; c-blosc2
# (through python-blosc2, one thread) and the pure-Java decoder (one thread, with and without
# --add-modules jdk.incubator.vector) decode them, rounds interleaved so that both sides see the same machine load;
# then whole reads of 1 GiB b2nd arrays (Variable.read() against blosc2.open(p)[:], 2 threads).
# Prints Markdown tables (docs/BENCHMARKS.md). Bench only: python-blosc2 is never needed by mvn verify or CI.
#
# usage: bench/run-blosc2.sh [main|all|read|table-only] [DIR]
#   main: typesize 8, clevel 5; all: + typesizes 2 and 4, clevels 1 and 9;
#   read: whole reads only. Env: ROUNDS (default 3), SECONDS_PER_SET per set and round (default 1.5),
#   READ_ROUNDS reads per process and round for the whole reads, best taken (default 5),
#   B2CPU=1: time the codec sets by each side's thread CPU time instead of wall-clock time (less noise on a
#   shared machine; c-blosc2 with one thread decodes in the calling thread),
#   B2PY (python with blosc2; default /tmp/b2venv/bin/python, made with python3 -m venv + pip install blosc2).
set -euo pipefail
cd "$(dirname "$0")/.."
WHAT=${1:-main}
DIR=${2:-bench-out/blosc2}
ROUNDS=${ROUNDS:-3}
SECS=${SECONDS_PER_SET:-1.5}
# whole reads: best of READ_ROUNDS reads per process on each side (the first Java reads of a fresh JVM are JIT
# warm-up: with 2 reads, 0.8-2.6 s against 0.26-0.31 s warm for the same 1 GiB)
READ_ROUNDS=${READ_ROUNDS:-5}
PY=${B2PY:-/tmp/b2venv/bin/python}
if [ ! -x "$PY" ]; then
  echo "making $PY (python3 -m venv + pip install blosc2)" >&2
  python3 -m venv "$(dirname "$(dirname "$PY")")" && "$(dirname "$PY")/pip" install -q blosc2 >&2
fi
B2=bench/blosc2/b2bench.py
RES="$DIR/res"
CPUFLAG=false
if [ "${B2CPU:-0}" = 1 ]; then RES="$DIR/res-cpu"; CPUFLAG=true; export B2CPU; fi
mkdir -p "$RES"
if [ "$WHAT" != table-only ]; then
  mvn -B -q -o -DskipTests package -pl bench -am >&2 || mvn -B -q -DskipTests package -pl bench -am >&2
fi
JAVA1=(java -Xmx2g -Dchunkcdm.bench.cpu=$CPUFLAG -Dchunkcdm.decode.threads=1 -cp bench/target/benchmarks.jar)
# the options of the CLI's launchers: the Vector API, and native access (Java 22+: raw copies through memmove)
# ("no flag": neither, as a host that passes no JVM options)
VEC=(--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED)
MAIN_CLASS=org.chunkcdm.bench.Blosc2CodecBench

source bench/blosc2/common.sh
mapfile -t SETS < <(blosc2_sets "$WHAT")

if [ "$WHAT" = main ] || [ "$WHAT" = all ]; then
  missing=()
  for s in "${SETS[@]}"; do [ -f "$DIR/$s.chunks" ] || missing+=("$s"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "writing ${#missing[@]} chunk sets of 64 MiB with python-blosc2" >&2
    "$PY" $B2 write "$DIR" 64 "${missing[@]}"
  fi
  rm -f "$RES"/{c,v,s}.*
  for r in $(seq 1 "$ROUNDS"); do
    echo "round $r/$ROUNDS: c-blosc2 ($(cut -d' ' -f1-3 /proc/loadavg))" >&2
    "$PY" $B2 time "$DIR" "$SECS" "${SETS[@]}" > "$RES/c.$r"
    echo "round $r/$ROUNDS: java with the Vector API ($(cut -d' ' -f1-3 /proc/loadavg))" >&2
    "${JAVA1[@]}" "${VEC[@]}" $MAIN_CLASS time "$DIR" "$SECS" "${SETS[@]}" > "$RES/v.$r" 2>/dev/null
    echo "round $r/$ROUNDS: java without it ($(cut -d' ' -f1-3 /proc/loadavg))" >&2
    "${JAVA1[@]}" $MAIN_CLASS time "$DIR" "$SECS" "${SETS[@]}" > "$RES/s.$r"
  done
fi

READS=()
for c in lz4 blosclz zstd zlib; do for f in shuffle bitshuffle; do READS+=("$c-$f-ts8-c5"); done; done
if [ "$WHAT" = read ] || [ "$WHAT" = all ]; then
  missing=()
  for s in "${READS[@]}"; do [ -f "$DIR/${s//-/_}.b2nd" ] || missing+=("$s"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "writing ${#missing[@]} b2nd arrays of 1 GiB with python-blosc2" >&2
    "$PY" $B2 writeb2nd "$DIR" "${missing[@]}"
  fi
  rm -f "$RES"/{rc,rj}.*
  for r in $(seq 1 "$ROUNDS"); do
    for s in "${READS[@]}"; do
      echo "whole read round $r/$ROUNDS $s ($(cut -d' ' -f1-3 /proc/loadavg))" >&2
      "$PY" $B2 read "$DIR" "$READ_ROUNDS" "$s" >> "$RES/rc.$r"
      java -Xmx3g "${VEC[@]}" -cp bench/target/benchmarks.jar $MAIN_CLASS read "$DIR" "$READ_ROUNDS" "$s" >> "$RES/rj.$r" 2>/dev/null
    done
  done
fi

"$PY" - "$RES" <<'PYEOF'
import glob, os, sys
d = sys.argv[1]
def best(prefix, pick):
    out = {}
    for f in sorted(glob.glob(os.path.join(d, prefix + ".*"))):
        for line in open(f):
            k, v = line.split()
            out[k] = pick(out.get(k, float(v)), float(v))
    return out
def table(keys, header, row):
    if not keys:
        return
    print()
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for k in keys:
        print(row(k, *k.split("-")))
print("load average at the end: " + open("/proc/loadavg").read().split(" ", 3)[:3].__str__())
c, v, s = best("c", max), best("v", max), best("s", max)
table(c, "| set | c-blosc2 GB/s | chunkcdm, --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED | ratio | chunkcdm, no flag | ratio |",
      lambda k, codec, filt, ts, cl: f"| {codec} + {filt}, typesize {ts[2:]}, clevel {cl[1:]} | {c[k]:.1f} | {v.get(k, 0):.1f} | "
      f"{v.get(k, 0) / c[k]:.2f} | {s.get(k, 0):.1f} | {s.get(k, 0) / c[k]:.2f} |")
rc, rj = best("rc", min), best("rj", min)
table(rc, "| 1 GiB float64 b2nd | python-blosc2 `blosc2.open(p)[:]` s | chunkcdm `Variable.read()` s | speed ratio (python time / java time) |",
      lambda k, codec, filt, ts, cl: f"| {codec} + {filt} | {rc[k]:.2f} | {rj.get(k, 0):.2f} | {rc[k] / rj[k] if rj.get(k) else 0:.2f} |")
PYEOF
