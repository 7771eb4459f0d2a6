#!/usr/bin/env bash
# The per-chunk rows of bench/run-blosc2.sh in two cache states, c-blosc2 (python-blosc2, one thread) beside chunkcdm (one thread):
#   cold: the benchmark as bench/run-blosc2.sh runs it, every set's 64 chunks (64 MiB decoded) decoded in
#         turn, so each chunk's compressed bytes come from memory (they are long out of the 32 MiB L3);
#   hot:  the first CHUNKS chunks of the same set only (default 4: 1.7-4 MiB compressed), so their bytes stay in the
#         L3 cache, as after the file read that fetches a chunk before every real decode (pread, or the copy out of a
#         mapping: chunkcdm decodes nothing in place from a file or from the page cache).
# GB/s of decoded bytes by thread CPU time, rounds interleaved, best round. Prints a Markdown table.
# Bench only (needs python-blosc2, never CI).
#
# usage: bench/run-blosc2-hot.sh DIR ROUNDS SECONDS [SET...]   (no SET: all 40 sets of bench/run-blosc2.sh all)
#   e.g. flock /tmp/chunkcdm-bench.lock bench/run-blosc2-hot.sh /tmp/chunkcdm-bench-codec2/blosc2 2 1
#   Env: CHUNKS (default 4), B2PY (python with blosc2; default /tmp/venv-codec2/bin/python), OUT (result directory,
#   holding the hot sets too; default a mktemp), JAR (default bench/target/benchmarks.jar), NOFLAG=1 to also run
#   the JVM without any option (the 0.7 target).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/blosc2/common.sh
blosc2_args "$@"
N=${CHUNKS:-4}
O=${OUT:-$(mktemp -d)}
HOT=$O/hot
mkdir -p "$HOT"
# the hot sets: the first N chunks of each DIR/SET.chunks
"$PY" bench/blosc2/b2bench.py head "$DIR" "$HOT" "$N" "${SETS[@]}"
blosc2_jvm
for r in $(seq 1 "$R"); do
  for state in cold hot; do
    d=$DIR; [ $state = hot ] && d=$HOT
    echo "round $r/$R $state c-blosc2 (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    "$PY" bench/blosc2/b2bench.py time "$d" "$S" "${SETS[@]}" > "$O/c-$state.$r"
    for v in "${SIDES[@]}"; do
      F=(); [ $v = vec ] && F=("${VEC[@]}")
      echo "round $r/$R $state java $v (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
      "${J[@]}" "${F[@]}" -cp "$JAR" org.chunkcdm.bench.Blosc2CodecBench time "$d" "$S" "${SETS[@]}" \
        > "$O/$v-$state.$r" 2> "$O/err-$v-$state.$r" || { grep -v WARNING "$O/err-$v-$state.$r" >&2; exit 1; }
    done
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); results in $O" >&2
"$PY" - "$O" "${SIDES[@]}" <<'PY'
import glob, os, sys
d, sides = sys.argv[1], sys.argv[2:]
def best(name):
    o = {}
    for f in sorted(glob.glob(os.path.join(d, name + ".*"))):
        for l in open(f):
            k, v = l.split()
            o[k] = max(o.get(k, 0), float(v))
    return o
cc, ch = best("c-cold"), best("c-hot")
head = "| set | cold: c-blosc2 GB/s | ours GB/s | ratio | hot: c-blosc2 GB/s | ours GB/s | ratio |"
if "novec" in sides:
    head += " no flag: cold ratio | hot ratio |"
print("chunkcdm with the Vector API and native access (as the CLI's launchers)"
      + ("; no flag: without any JVM option" if "novec" in sides else ""))
print()
print(head)
print("|" + "---|" * (head.count("|") - 1))
jc, jh = best("vec-cold"), best("vec-hot")
nc, nh = (best("novec-cold"), best("novec-hot")) if "novec" in sides else ({}, {})
counts = [0, 0, 0, 0]
for k in cc:
    row = f"| {k} | {cc[k]:.2f} | {jc[k]:.2f} | {jc[k] / cc[k]:.2f} | {ch[k]:.2f} | {jh[k]:.2f} | **{jh[k] / ch[k]:.2f}** |"
    counts[0] += jc[k] >= cc[k]
    counts[1] += jh[k] >= ch[k]
    if nc:
        row += f" {nc[k] / cc[k]:.2f} | **{nh[k] / ch[k]:.2f}** |"
        counts[2] += nc[k] >= 0.7 * cc[k]
        counts[3] += nh[k] >= 0.7 * ch[k]
    print(row)
print()
print(f"rows at >= 1.0 with the flags: cold {counts[0]} of {len(cc)}, hot {counts[1]} of {len(cc)}"
      + (f"; rows at >= 0.7 without: cold {counts[2]}, hot {counts[3]}" if nc else ""))
PY
