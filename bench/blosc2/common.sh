# Sourced by the bench/run-blosc2*.sh scripts; bench only.

# blosc2_sets main|all: the chunk sets of bench/run-blosc2.sh, one name a line. main: the 8 codec + filter sets of
# typesize 8, clevel 5; all: the 40, adding typesizes 2 and 4 (clevel 5) and clevels 1 and 9 (typesize 8).
blosc2_sets() {
  local c f t l
  for c in lz4 blosclz zstd zlib; do for f in shuffle bitshuffle; do echo "$c-$f-ts8-c5"; done; done
  if [ "${1:-main}" = all ]; then
    for t in 2 4; do for c in lz4 blosclz zstd zlib; do for f in shuffle bitshuffle; do echo "$c-$f-ts$t-c5"; done; done; done
    for l in 1 9; do for c in lz4 blosclz zstd zlib; do for f in shuffle bitshuffle; do echo "$c-$f-ts8-c$l"; done; done; done
  fi
}

# blosc2_args DIR ROUNDS SECONDS [SET...]: sets DIR, R, S and SETS (no SET: all 40), PY (B2PY, default
# /tmp/venv-codec2/bin/python) and JAR (default bench/target/benchmarks.jar).
blosc2_args() {
  DIR=$1; R=$2; S=$3; shift 3
  SETS=("$@")
  if [ ${#SETS[@]} -eq 0 ]; then
    mapfile -t SETS < <(blosc2_sets all)
  fi
  PY=${B2PY:-/tmp/venv-codec2/bin/python}
  JAR=${JAR:-bench/target/benchmarks.jar}
}

# blosc2_jvm: for the per-chunk scripts (run-blosc2-hot.sh, run-blosc2-bound.sh) J (one decode thread, no
# block-parallel decode, thread CPU time), VEC (the options the CLI's launchers pass), SIDES (vec, plus novec with
# NOFLAG=1: the JVM without any option) and B2CPU=1 (c-blosc2 timed by thread CPU time too).
blosc2_jvm() {
  J=(java -Xmx2g -Dchunkcdm.bench.cpu=true -Dchunkcdm.decode.threads=1)
  VEC=(--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED)
  SIDES=(vec); [ "${NOFLAG:-0}" = 1 ] && SIDES+=(novec)
  export B2CPU=1
}
