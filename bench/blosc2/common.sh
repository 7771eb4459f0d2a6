# Sourced by the bench/run-blosc2*.sh scripts (issue 17); bench only.

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
