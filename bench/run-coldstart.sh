#!/usr/bin/env bash
# Cold start: what a fresh JVM pays, against the references of the same run (rounds interleaved).
#   convert  `chunkcdm convert` of the 1 GiB float64 lz4 bcolz carray (BcolzBench's) to ncstream on tmpfs, the whole
#            process timed, through ./chunkcdm and the archive's bin/chunkcdm, against netcdf-java's
#            NcStreamWriter.streamAll in a fresh JVM with -Xmx4g on the same data (ColdStartBench ncstreamwriter,
#            chunkcdm's jars on the class path to read the carray), and against the CLI started as before
#            (`--add-modules jdk.incubator.vector`, BEFORE_OPTS).
#   read     the first whole read of 1 GiB float64 b2nd arrays (lz4 + shuffle, zstd + bitshuffle; b2bench.py
#            writeb2nd) in a fresh JVM started with the options of ./chunkcdm (ColdStartBench read: open + read +
#            close, timed inside the process) against python-blosc2's first `blosc2.open(p)[:]` in a fresh process
#            (b2bench.py read, 2 threads), and against the JVM started with BEFORE_OPTS.
#   options  first and warm whole reads of both b2nd arrays in fresh JVMs, one row per option set of OPTS (what a
#            one-shot command, a just-started server and Fiji's first big plane pay, then a warm server); the host
#            JVM rows stand for TDS and Fiji: netcdf-java and chunkcdm on the class path, no class-data archive.
#   limits   what every fresh JVM pays: zeroing a 1 GiB array, ./chunkcdm --version and a small dump (with and
#            without the class-data archive); dd of 1 GiB into OUT; a b2nd read in 16 slabs (the JIT's warm-up).
#   serve    `chunkcdm serve` started by ./chunkcdm, with and without the Vector API module: the first and the
#            warm cdmremote requests for the whole lz4 + shuffle b2nd variable (curl, data discarded).
# Best and median of ROUNDS per row, and the least CPU time (user + sys of a whole process; for the in-process
# first reads, the JVM's CPU time up to the end of the first read), which other processes on the machine disturb
# less than the wall clock. Bench only: never run by mvn verify or CI.
#
# usage: flock /tmp/chunkcdm-bench.lock setsid env NICE=-15 bench/run-coldstart.sh [PART...]   (default: convert read)
#   Env: DIR inputs (default /tmp/chunkcdm-bench-cold; written when missing: the carray needs libblosc1, the b2nd
#        arrays python-blosc2), OUT a tmpfs directory for the outputs (default /dev/shm/chunkcdm-cold), ROUNDS
#        (default 3), WARM (warm reads per JVM in the options part, default 5), JDK (a JDK home to run everything
#        with, default the java on PATH), B2PY (python with blosc2; default /tmp/venv-b2/bin/python, made with
#        python3 -m venv + pip install blosc2 when missing),
#        NOCDS=1 (the launchers and the launcher's options without their class-data archive: CHUNKCDM_CDS=off),
#        NATIVE=0 (every JVM side with -Dchunkcdm.blosc=java: a machine without libblosc1),
#        BEFORE_OPTS (default "--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED"),
#        OPTS (options part: one "label|JVM options" per line; default: the launcher's options, a host JVM's, and
#        each of the module, C1 only and the parallel collector on the host JVM),
#        NICE=N (everything at nice N, e.g. -15, also as the session's autogroup nice, so that other sessions'
#        builds take less of the CPU from the measured processes; hence setsid, a session of its own),
#        QUIET=N (before each timed process, wait up to QUIET_WAIT seconds, default 900, until at most N other
#        processes are runnable).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
DIR=${DIR:-/tmp/chunkcdm-bench-cold}
OUT=${OUT:-/dev/shm/chunkcdm-cold}
ROUNDS=${ROUNDS:-3}
WARM=${WARM:-5}
PY=${B2PY:-/tmp/venv-b2/bin/python}
BEFORE_OPTS=${BEFORE_OPTS:---add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED}
PARTS=("$@")
[ ${#PARTS[@]} -eq 0 ] && PARTS=(convert read)
if [ -n "${NICE:-}" ]; then
  # with the kernel's autogroups (sched_autogroup_enabled) a process's nice counts only inside its session: the
  # session's own nice is what other sessions' builds compete with
  if [ -w /proc/self/autogroup ] && [ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" = 1 ]; then
    echo "$NICE" > /proc/self/autogroup
  fi
  renice -n "$NICE" -p $$ >/dev/null # every process of the run inherits it
fi
if [ -n "${JDK:-}" ]; then
  export JAVA_HOME=$JDK PATH="$JDK/bin:$PATH"
fi
[ -n "${NOCDS:-}" ] && export CHUNKCDM_CDS=off
NAT=()
if [ "${NATIVE:-1}" = 0 ]; then
  NAT=(-Dchunkcdm.blosc=java)
  export CHUNKCDM_JAVA_OPTS="${CHUNKCDM_JAVA_OPTS:-} -Dchunkcdm.blosc=java"
fi
SETS=(lz4-shuffle-ts8-c5 zstd-bitshuffle-ts8-c5)

ver=$(sed -n 's:.*<revision>\(.*\)</revision>.*:\1:p' pom.xml | head -1)
rel=$(sed -n 's:.*<chunkcdm.release>\(.*\)</chunkcdm.release>.*:\1:p' pom.xml | head -1)
ver=${ver//\$\{chunkcdm.release\}/$rel}
CLI=cli/target/chunkcdm-cli.jar
TGZ=cli/target/chunkcdm-$ver.tar.gz
BJAR=bench/target/chunkcdm-bench-$ver.jar
if [ ! -f "$CLI" ] || [ ! -f "$BJAR" ] || [ ! -f "$TGZ" ]; then
  mvn -B -q -DskipTests -Dchunkcdm.publish.phase=none package -pl cli,bench -am >&2
fi
# the CLI archive as a user unpacks it (its launcher writes cds/ there)
ADIR=$(mktemp -d)
trap 'rm -rf "$ADIR"' EXIT
tar xzf "$TGZ" -C "$ADIR"
ARCH=$ADIR/chunkcdm-$ver/bin/chunkcdm
# the dev launcher builds when sources changed, and both make their class-data archive on a first run: not timed
./chunkcdm --version >/dev/null
"$ARCH" --version >/dev/null
CP="$root/$CLI:$root/$BJAR"

# the JVM options a launcher passes to a one-shot command: its jvm_opts="..." and run_opts="..." lines
launcher_opts() {
  echo "$(sed -n 's/^ *jvm_opts="\(.*\)"$/\1/p' "$1" | head -1) $(sed -n 's/^ *run_opts="\(.*\)"$/\1/p' "$1" | head -1)"
}
LOPTS=$(launcher_opts chunkcdm)
# and the class-data archive ./chunkcdm made for this Java (--version above made it when missing)
jdkhome=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
jid=$(sed -n 's/^JAVA_RUNTIME_VERSION="\([^"]*\)".*$/\1/p' "$jdkhome/release" | sed -n '1{s/[^A-Za-z0-9._+-]/_/g;p;}')
if [ -z "${NOCDS:-}" ] && [ -f "cli/target/cds/chunkcdm-$jid.aot" ]; then # Java 25 and later
  LOPTS="$LOPTS -XX:AOTCache=$root/cli/target/cds/chunkcdm-$jid.aot -Xlog:aot=off -Xlog:cds=off"
elif [ -z "${NOCDS:-}" ] && [ -f "cli/target/cds/chunkcdm-$jid.jsa" ]; then
  LOPTS="$LOPTS -XX:SharedArchiveFile=$root/cli/target/cds/chunkcdm-$jid.jsa -Xlog:cds=off"
fi

mkdir -p "$DIR" "$OUT"
if [ ! -f "$DIR/big_float64.bcolz/data/__1023.blp" ]; then
  echo "writing $DIR/big_float64.bcolz (1 GiB float64, lz4, native c-blosc)" >&2
  java -cp bench/target/benchmarks.jar org.chunkcdm.bench.BcolzBench "$DIR" write >&2 \
    || { mvn -B -q -DskipTests package -pl bench -am >&2 && java -cp bench/target/benchmarks.jar org.chunkcdm.bench.BcolzBench "$DIR" write >&2; }
fi
if [ ! -x "$PY" ]; then
  echo "making $PY (python3 -m venv + pip install blosc2)" >&2
  python3 -m venv "$(dirname "$(dirname "$PY")")" && "$(dirname "$PY")/pip" install -q blosc2 >&2
fi
for s in "${SETS[@]}"; do
  [ -f "$DIR/${s//-/_}.b2nd" ] || "$PY" bench/blosc2/b2bench.py writeb2nd "$DIR" "$s"
done

RES=$(mktemp -d)
ORDER=()
pid=
# a server still running would keep flock's lock (it inherits the descriptor)
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$RES" "$ADIR"' EXIT
# rec ROW VALUE: one measurement of a table row
rec() {
  [ -f "$RES/$(echo "$1" | md5sum | cut -c1-12)" ] || ORDER+=("$1")
  echo "$2" >> "$RES/$(echo "$1" | md5sum | cut -c1-12)"
}
# wall CMD...: the whole process's wall-clock and CPU (user + sys) seconds, "WALL CPU" (its output kept in
# $RES/last; a failure stops the run)
wall() {
  local t TIMEFORMAT='%3R %3U %3S'
  quiet
  if ! t=$( { time "$@" > "$RES/last" 2>&1; } 2>&1 ); then
    echo "failed: $*" >&2
    cat "$RES/last" >&2
    kill -TERM $$ # this runs in a command substitution: stop the script, not only the subshell
  fi
  awk '{ printf "%.3f %.3f", $1, $2 + $3 }' <<< "$t"
}
# quiet: waits (at most QUIET_WAIT seconds, default 900) until at most QUIET processes are runnable in each of 10
# samples over 2 s (QUIET unset: no wait); other sessions' builds on the machine would otherwise be in the numbers
quiet() {
  [ -n "${QUIET:-}" ] || return 0
  local end=$((SECONDS + ${QUIET_WAIT:-900})) busy i
  while [ $SECONDS -lt $end ]; do
    busy=0
    for i in 1 2 3 4 5 6 7 8 9 10; do
      [ "$(cut -d' ' -f4 /proc/loadavg | cut -d/ -f1)" -gt "$((QUIET + 1))" ] && busy=1 # + 1: this sampler
      sleep 0.2
    done
    [ $busy = 0 ] && return 0
  done
  echo "(still busy after ${QUIET_WAIT:-900} s: measuring anyway, load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
}
# table TITLE REF_ROW: per row the best and median of its first column (seconds), the best of its second (CPU
# seconds, when recorded), the count, and the ratio of the best first column to REF_ROW's
table() {
  local title=$1 ref=$2 refbest
  refbest=$(sort -g "$RES/$(echo "$ref" | md5sum | cut -c1-12)" | head -1 | cut -d' ' -f1)
  echo
  echo "$title"
  echo
  echo "| row | best s | median s | least CPU s | runs | best / reference |"
  echo "|---|---:|---:|---:|---:|---:|"
  for row in "${ORDER[@]}"; do
    sort -g "$RES/$(echo "$row" | md5sum | cut -c1-12)" | awk -v row="$row" -v ref="$refbest" '
      { v[NR] = $1; if (NF > 1 && (c == "" || $2 < c)) c = $2 }
      END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
        printf "| %s | %.3f | %.3f | %s | %d | %.2f |\n", row, v[1], m, c == "" ? "" : sprintf("%.2f", c), NR, v[1] / ref }'
  done
  rm -f "$RES"/*
  ORDER=()
}

echo "$(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(java -version 2>&1 | sed -n 2p)"
echo "launcher options (./chunkcdm): $LOPTS; archive bin/chunkcdm: $(launcher_opts "$ARCH")"
[ ${#NAT[@]} -gt 0 ] && echo "every JVM side with ${NAT[*]}"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

for part in "${PARTS[@]}"; do
  case $part in
    convert)
      in=$DIR/big_float64.bcolz
      for r in $(seq "$ROUNDS"); do
        rm -f "$OUT"/*.ncs
        rec "netcdf-java NcStreamWriter.streamAll, java -Xmx4g (reference)" \
          "$(wall java -Xmx4g "${NAT[@]}" -cp "$CP" org.chunkcdm.bench.ColdStartBench ncstreamwriter "$in" "$OUT/ncw.ncs")"
        rec "chunkcdm convert, ./chunkcdm" "$(wall ./chunkcdm convert "$in" "$OUT/dev.ncs")"
        rec "chunkcdm convert, archive bin/chunkcdm" "$(wall "$ARCH" convert "$in" "$OUT/arch.ncs")"
        # shellcheck disable=SC2086
        rec "chunkcdm convert, java $BEFORE_OPTS -jar (before)" \
          "$(wall java $BEFORE_OPTS ${CHUNKCDM_JAVA_OPTS:-} -jar "$CLI" convert "$in" "$OUT/before.ncs")"
      done
      rm -f "$OUT"/*.ncs
      table "convert of the 1 GiB float64 lz4 bcolz carray to ncstream on tmpfs, whole process (load $(cut -d' ' -f1-3 /proc/loadavg))" \
        "netcdf-java NcStreamWriter.streamAll, java -Xmx4g (reference)"
      ;;
    read)
      for s in "${SETS[@]}"; do
        f=$DIR/${s//-/_}.b2nd
        for r in $(seq "$ROUNDS"); do
          quiet
          rec "$s: python-blosc2, blosc2.open(p)[:] in a fresh process (reference)" \
            "$("$PY" bench/blosc2/b2bench.py read "$DIR" 1 "$s" | cut -d' ' -f2)"
          quiet
          rec "$s: python-blosc2 as above, NUMPY_MADVISE_HUGEPAGE=0 (no transparent huge pages)" \
            "$(NUMPY_MADVISE_HUGEPAGE=0 "$PY" bench/blosc2/b2bench.py read "$DIR" 1 "$s" | cut -d' ' -f2)"
          quiet
          # shellcheck disable=SC2086
          rec "$s: chunkcdm, fresh JVM with the launcher's options" \
            "$(java $LOPTS "${NAT[@]}" -cp "$CP" org.chunkcdm.bench.ColdStartBench read "$f" 2>/dev/null | cut -d' ' -f2,8)"
          quiet
          # shellcheck disable=SC2086
          rec "$s: chunkcdm, fresh JVM with $BEFORE_OPTS (before)" \
            "$(java $BEFORE_OPTS "${NAT[@]}" -cp "$CP" org.chunkcdm.bench.ColdStartBench read "$f" 2>/dev/null | cut -d' ' -f2,8)"
        done
        table "first whole read of the 1 GiB float64 $s b2nd, timed inside the process (load $(cut -d' ' -f1-3 /proc/loadavg))" \
          "$s: python-blosc2, blosc2.open(p)[:] in a fresh process (reference)"
      done
      ;;
    options)
      opts=${OPTS:-"one-shot command (the launcher's options)|$LOPTS
one-shot command + Vector API module|$LOPTS --add-modules jdk.incubator.vector
host JVM (TDS, serve, Fiji: no class-data archive)|--enable-native-access=ALL-UNNAMED
host JVM + Vector API module|--enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector
host JVM + -XX:TieredStopAtLevel=1|--enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1
host JVM + -XX:+UseParallelGC|--enable-native-access=ALL-UNNAMED -XX:+UseParallelGC"}
      for s in "${SETS[@]}"; do
        f=$DIR/${s//-/_}.b2nd
        for r in $(seq "$ROUNDS"); do
          while IFS='|' read -r label o; do
            quiet
            # shellcheck disable=SC2086
            line=$(java $o "${NAT[@]}" -cp "$CP" org.chunkcdm.bench.ColdStartBench read "$f" "$WARM" 2>/dev/null)
            set -- $line
            rec "$label: first read" "$2 $8"
            rec "$label: warm read (best of $WARM)" "$4"
          done <<< "$opts"
        done
        table "$s b2nd, first and warm whole reads in fresh JVMs (load $(cut -d' ' -f1-3 /proc/loadavg))" \
          "$(head -1 <<< "$opts" | cut -d'|' -f1): first read"
      done
      ;;
    serve)
      name=lz4_shuffle_ts8_c5.b2nd
      var=$(java -cp "$CP" org.chunkcdm.bench.ColdStartBench varname "$DIR/$name")
      for r in $(seq "$ROUNDS"); do
        for mode in without with; do
          quiet
          extra=""
          [ $mode = with ] && extra="--add-modules jdk.incubator.vector"
          port=$((20000 + RANDOM % 20000))
          CHUNKCDM_JAVA_OPTS="${CHUNKCDM_JAVA_OPTS:-} $extra" ./chunkcdm serve "$DIR" --port "$port" > "$RES/serve.log" 2>&1 &
          pid=$!
          for _ in $(seq 100); do
            curl -s -o /dev/null "http://127.0.0.1:$port/" && break
            sleep 0.1
          done
          url="http://127.0.0.1:$port/cdmremote/$name?req=data&var=$var"
          rec "serve, $mode the Vector API module: first request" "$(wall curl -sf -o /dev/null "$url" | cut -d' ' -f1)"
          best=
          for _ in $(seq "$WARM"); do
            t=$(wall curl -sf -o /dev/null "$url" | cut -d' ' -f1)
            best=$(awk -v a="${best:-1e9}" -v b="$t" 'BEGIN { print (b < a) ? b : a }')
          done
          rec "serve, $mode the Vector API module: warm request (best of $WARM)" "$best"
          kill "$pid"
          wait "$pid" 2>/dev/null || true
          pid=
        done
      done
      table "chunkcdm serve: whole variable of the lz4 + shuffle b2nd over cdmremote, curl on loopback (load $(cut -d' ' -f1-3 /proc/loadavg))" \
        "serve, without the Vector API module: first request"
      ;;
    limits)
      sample=samples/b2nd_3d_i2_cframe.b2nd
      for r in $(seq "$ROUNDS"); do
        # shellcheck disable=SC2086
        rec "new double[1 << 27] in a fresh JVM (1 GiB zeroed by the JVM)" \
          "$(java $LOPTS -cp "$CP" org.chunkcdm.bench.ColdStartBench alloc | awk '{ print $(NF - 1) }')"
        rm -f "$OUT/dd.bin"
        rec "dd of 1 GiB to a file in OUT (the kernel's copy into tmpfs)" \
          "$(wall dd if=/dev/zero of="$OUT/dd.bin" bs=1M count=1024)"
        rm -f "$OUT/dd.bin"
        rec "./chunkcdm --version, whole process" "$(wall ./chunkcdm --version)"
        rec "./chunkcdm dump $sample, whole process" "$(wall ./chunkcdm dump "$sample")"
        rec "./chunkcdm dump $sample, whole process, CHUNKCDM_CDS=off" "$(wall env CHUNKCDM_CDS=off ./chunkcdm dump "$sample")"
      done
      table "what every fresh JVM pays (load $(cut -d' ' -f1-3 /proc/loadavg))" "./chunkcdm --version, whole process"
      for r in 1 2; do
        quiet
        # shellcheck disable=SC2086
        echo "lz4 + shuffle b2nd in 16 slabs of 64 MiB, fresh JVM, launcher's options: $(java $LOPTS "${NAT[@]}" -cp "$CP" \
          org.chunkcdm.bench.ColdStartBench slabs "$DIR/lz4_shuffle_ts8_c5.b2nd" 16)"
      done
      ;;
    *)
      echo "unknown part $part (convert, read, options, serve, limits)" >&2
      exit 2
      ;;
  esac
done
