#!/usr/bin/env bash
# Upper bound of each row of the c-blosc2 table (docs/BENCHMARKS.md): c-blosc2's whole-chunk speed (python-blosc2, one thread) beside our
# whole chunk decode, our codec alone on the chunks' compressed streams, and the codec's native library alone on the
# same streams (org.chunkcdm.bench.CodecAloneBench), all in GB/s of the chunks' decoded bytes, thread CPU time,
# rounds interleaved. A whole chunk cannot decode faster than its codec alone, so "codec / c-blosc2" is the most a
# row can reach with our codec as it is, whatever the filters and the Blosc framing cost. Prints Markdown tables.
# Bench only (needs python-blosc2, never CI).
#
# usage: bench/run-blosc2-bound.sh DIR ROUNDS SECONDS [SET...]   (no SET: all 40 sets of bench/run-blosc2.sh all)
#   e.g. flock /tmp/chunkcdm-bench.lock bench/run-blosc2-bound.sh /tmp/chunkcdm-bench-codec2/blosc2 2 1
#   Env: B2PY (python with blosc2; default /tmp/venv-codec2/bin/python), OUT (result directory; default a mktemp),
#   JAR (default bench/target/benchmarks.jar), NOFLAG=1 to also run the JVM without any option (the 0.7 target),
#   CHUNKS=N to time only the first N chunks of every set (written to OUT/hot by b2bench.py head; with N = 4 they
#   stay in the L3 cache, as the hot column of run-blosc2-hot.sh).
# A last table splits every row below 1.0 whose codec has a native library (lz4, zstd) into codec and rest, ms per
# GB decoded: c-blosc2's rest is its whole chunk minus the native codec alone (an estimate: liblz4 / libzstd through
# JNA are not c-blosc2's own copies), ours is our whole chunk minus our codec alone. "ours, c-blosc2's rest" is the
# row if everything besides our codec took as long as c-blosc2's: below 1.0, the gap is the codec's.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/blosc2/common.sh
blosc2_args "$@"
O=${OUT:-$(mktemp -d)}
mkdir -p "$O"
if [ -n "${CHUNKS:-}" ]; then
  "$PY" bench/blosc2/b2bench.py head "$DIR" "$O/hot" "$CHUNKS" "${SETS[@]}"
  DIR=$O/hot
fi
blosc2_jvm
for r in $(seq 1 "$R"); do
  echo "round $r/$R c-blosc2 (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  "$PY" bench/blosc2/b2bench.py time "$DIR" "$S" "${SETS[@]}" > "$O/c.$r"
  for v in "${SIDES[@]}"; do
    F=(); [ $v = vec ] && F=("${VEC[@]}")
    echo "round $r/$R java $v (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    "${J[@]}" "${F[@]}" -cp "$JAR" org.chunkcdm.bench.CodecAloneBench "$DIR" "$S" "${SETS[@]}" > "$O/$v.$r" 2> "$O/err-$v.$r" \
      || { grep -v WARNING "$O/err-$v.$r" >&2; exit 1; }
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); results in $O" >&2
"$PY" - "$O" "${SIDES[@]}" <<'PY'
import glob, os, sys
d, sides = sys.argv[1], sys.argv[2:]
order, c = [], {}
for f in sorted(glob.glob(os.path.join(d, "c.*"))):
    for l in open(f):
        k, v = l.split()
        if k not in c:
            order.append(k)
        c[k] = max(c.get(k, 0), float(v))
def best(side):
    o = {}
    for f in glob.glob(os.path.join(d, side + ".*")):
        for l in open(f):
            k, row, codec, nat = l.split()
            p = o.get(k, [0, 0, 0])
            o[k] = [max(p[0], float(row)), max(p[1], 0 if codec == "-" else float(codec)),
                    max(p[2], 0 if nat == "-" else float(nat))]
    return o
for side in sides:
    j = best(side)
    print("with the Vector API and native access:" if side == "vec" else "without any JVM option:")
    print()
    print("| set | c-blosc2 GB/s | ours GB/s | ratio | our codec alone GB/s | bound: codec alone / c-blosc2 |"
          " native codec alone GB/s | our codec / native |")
    print("|---|---|---|---|---|---|---|---|")
    for k in order:
        row, codec, nat = j[k]
        n = f"{nat:.2f} | {codec / nat:.2f}" if nat else "– | –"
        b = f"{codec:.2f} | **{codec / c[k]:.2f}**" if codec else "– (all streams stored raw) | –"
        print(f"| {k} | {c[k]:.2f} | {row:.2f} | {row / c[k]:.2f} | {b} | {n} |")
    print()
j = best("vec")
print("rows below 1.0 with the Vector API and a native codec, ms per GB decoded (codec + rest):")
print()
print("| set | ratio | c-blosc2 | = native codec | + rest | ours | = our codec | + our rest | ours, c-blosc2's rest |")
print("|---|---|---|---|---|---|---|---|---|")
for k in order:
    row, codec, nat = j[k]
    if row >= c[k] or not nat or not codec or not k.startswith(("lz4", "zstd")):
        continue
    cw, nc, ow, oc = 1e3 / c[k], 1e3 / nat, 1e3 / row, 1e3 / codec
    print(f"| {k} | {row / c[k]:.2f} | {cw:.1f} | {nc:.1f} | {cw - nc:.1f} | {ow:.1f} | {oc:.1f} | {ow - oc:.1f} |"
          f" **{cw / (oc + cw - nc):.2f}** |")
print()
PY
