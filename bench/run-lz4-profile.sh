#!/usr/bin/env bash
# Where Lz4.decode spends its time on one chunk set's LZ4 streams, per instruction, without CPU performance counters:
# perf's cpu-clock samples of Lz4SequenceBench decoding with chunkcdm's Lz4 alone, mapped onto the C2 machine code of
# Lz4.decode and Lz4.sequence (printed as hex by the JVM, disassembled by objdump; bench/jit-annotate.py).
# usage (from anywhere; build first: mvn -B -q -o -DskipTests package -pl bench -am; needs perf, objdump, python3):
#   flock /tmp/chunkcdm-bench.lock bench/run-lz4-profile.sh SET [SECONDS] [OUTDIR]
# SET: a chunk set name such as lz4-shuffle-ts4-c5 in B2DIR (default /tmp/chunkcdm-bench-codec2/blosc2).
# Writes OUTDIR (default /tmp/chunkcdm-lz4-profile)/{methods,decode,sequence}.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
SET=$1; SECS=${2:-3}; OUT=${3:-/tmp/chunkcdm-lz4-profile}
DIR=${B2DIR:-/tmp/chunkcdm-bench-codec2/blosc2}
mkdir -p "$OUT"
perf record -q -e cpu-clock -F 20000 -o "$OUT/perf.data" -- java -Xmx2g -Dlz4.onlyChunkcdm=true \
  -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:CompileCommand=quiet \
  -XX:CompileCommand=print,org.chunkcdm.blosc.Lz4::decode -XX:CompileCommand=print,org.chunkcdm.blosc.Lz4::sequence \
  -cp bench/target/benchmarks.jar org.chunkcdm.bench.Lz4SequenceBench "$DIR" "$SECS" 1 "$SET" > "$OUT/jit.txt"
grep -A6 "^$SET" "$OUT/jit.txt" || true
perf report -i "$OUT/perf.data" --sort sym --stdio 2>/dev/null | awk '!/^#/ && NF && n++ < 15' > "$OUT/methods.txt"
perf script -i "$OUT/perf.data" -F ip,sym 2>/dev/null > "$OUT/ips.txt"
python3 bench/jit-annotate.py "$OUT/jit.txt" "$OUT/ips.txt" "org.chunkcdm.blosc.Lz4::decode" > "$OUT/decode.txt"
python3 bench/jit-annotate.py "$OUT/jit.txt" "$OUT/ips.txt" "org.chunkcdm.blosc.Lz4::sequence" > "$OUT/sequence.txt"
cat "$OUT/methods.txt"
head -1 "$OUT/decode.txt"; head -1 "$OUT/sequence.txt"
echo "per-instruction profiles: $OUT/decode.txt $OUT/sequence.txt"
