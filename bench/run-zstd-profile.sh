#!/usr/bin/env bash
# Where the pure-Java zstd decoder spends its time on one chunk set's zstd streams, per instruction, without CPU
# performance counters: perf's cpu-clock samples of ZstdStreamsBench timing chunkcdm's decoder alone, mapped onto the
# C2 machine code of ZstdDecoder.sequences and Huffman.decode4 (printed as hex by the JVM, disassembled by objdump;
# bench/jit-annotate.py); the zstd twin of run-lz4-profile.sh.
# usage (build first: mvn -B -q -o -DskipTests package -pl bench -am; needs perf, objdump, python3):
#   flock /tmp/chunkcdm-bench.lock bench/run-zstd-profile.sh SET [SECONDS] [OUTDIR]
# SET: a chunk set name such as zstd-shuffle-ts4-c5 in B2DIR (default /tmp/chunkcdm-bench-codec2/blosc2).
# Env: CP (class path; default bench/target/benchmarks.jar). Writes OUTDIR (default /tmp/chunkcdm-zstd-profile)/
# {methods,sequences,decode4}.txt; a method C2 never compiled (e.g. decode4 on a set without 4-stream literals) is
# reported and skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
SET=$1; SECS=${2:-3}; OUT=${3:-/tmp/chunkcdm-zstd-profile}
DIR=${B2DIR:-/tmp/chunkcdm-bench-codec2/blosc2}
CP=${CP:-bench/target/benchmarks.jar}
mkdir -p "$OUT"
perf record -q -e cpu-clock -F 20000 -o "$OUT/perf.data" -- java -Xmx2g -Dchunkcdm.bench.cpu=true \
  -Dchunkcdm.bench.impls=chunkcdm -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:CompileCommand=quiet \
  -XX:CompileCommand=print,org.chunkcdm.blosc.zstd.ZstdDecoder::sequences \
  -XX:CompileCommand=print,org.chunkcdm.blosc.zstd.Huffman::decode4 \
  -cp "$CP" org.chunkcdm.bench.ZstdStreamsBench "$DIR" "$SECS" 1 "$SET" > "$OUT/jit.txt"
grep "^$SET" "$OUT/jit.txt" || true
perf report -i "$OUT/perf.data" --sort sym --stdio 2>/dev/null | awk '!/^#/ && NF && n++ < 15' > "$OUT/methods.txt"
perf script -i "$OUT/perf.data" -F ip,sym 2>/dev/null > "$OUT/ips.txt"
for m in ZstdDecoder::sequences Huffman::decode4; do
  f=$OUT/${m#*::}.txt
  python3 bench/jit-annotate.py "$OUT/jit.txt" "$OUT/ips.txt" "org.chunkcdm.blosc.zstd.$m" > "$f" || rm -f "$f"
done
cat "$OUT/methods.txt"
for f in "$OUT"/sequences.txt "$OUT"/decode4.txt; do [ -f "$f" ] && head -1 "$f"; done
echo "per-instruction profiles in $OUT"
