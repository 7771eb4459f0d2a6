#!/usr/bin/env bash
# Runs bin/chunkcdm.bat (cli/src/archive/bin, with CRLF line ends as the zip ships it) under Wine's cmd.exe and
# checks its Java branches: JAVA_HOME without java.exe, no java.exe on PATH, Java 1.8 / 11 (too old), Java
# 17 / 21-ea (accepted: the launcher then runs java with the native-access option, lib\* class path, Main and the
# arguments; a one-shot command also with its collector and compilation options, serve without them). java.exe
# is fakejava.c (x86_64-w64-mingw32-gcc), reporting FAKE_JAVA_VERSION.
# Not part of mvn verify: needs Debian's wine + wine64 (105 MB download) and gcc-mingw-w64-x86-64-win32 (56 MB):
#   apt-get install -y --no-install-recommends wine wine64 gcc-mingw-w64-x86-64-win32
# Usage: cli/src/wine/check-bat.sh      (one line per case; exit status 1 when a case fails)
# Measured 2026-11-25, Debian 12, wine 8.0~repack-4: 10 cases in 36 s (most of it creating the Wine prefix);
# wine+wine64 without recommends: 105.5 MB download / 684 MB installed. Found: Wine's where.exe is a stub
# (no output, errorlevel 0 for any name), so the launcher finds java.exe with for's %~$PATH: search instead.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bat_src="$here/../archive/bin/chunkcdm.bat"
for tool in wine x86_64-w64-mingw32-gcc; do
  command -v "$tool" >/dev/null || { echo "check-bat: $tool not installed (see the header of $0)" >&2; exit 2; }
done
work="$(mktemp -d /tmp/chunkcdm-batcheck.XXXXXX)"
trap 'rm -rf "$work"' EXIT
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
mkdir -p "$work/home/bin" "$work/home/lib" "$work/jdk/bin" "$work/nojdk/bin" "$work/pathjava"
sed 's/\r$//; s/$/\r/' "$bat_src" > "$work/home/bin/chunkcdm.bat"
x86_64-w64-mingw32-gcc -O2 -o "$work/jdk/bin/java.exe" "$here/fakejava.c"
cp "$work/jdk/bin/java.exe" "$work/pathjava/java.exe"
winpath() { echo "Z:$1" | tr / '\\'; }
BAT="$(winpath "$work/home/bin/chunkcdm.bat")"
wine wineboot -i >/dev/null 2>&1 || true

fails=0
# run NAME WANT_RC WANT_TEXT [env assignments...]: runs the .bat with "--version x y" and checks rc + output
run() {
  local name="$1" want_rc="$2" want="$3"; shift 3
  local out rc=0
  out="$(env -u JAVA_HOME "$@" wine cmd /c "$BAT" --version "two words" 2>&1 | tr -d '\r')" || rc=$?
  # wine cmd returns the batch's exit /b code
  if [ "$rc" = "$want_rc" ] && grep -qF -- "$want" <<<"$out"; then
    echo "ok   $name (exit $rc)"
  else
    echo "FAIL $name: exit $rc (want $want_rc), output:"; sed 's/^/     /' <<<"$out"; fails=$((fails + 1))
  fi
}
JH="$(winpath "$work/jdk")"
run "JAVA_HOME without bin\\java.exe" 1 "which has no bin\\java.exe" JAVA_HOME="$(winpath "$work/nojdk")"
run "no java.exe on PATH" 1 "no Java found" WINEPATH=
run "JAVA_HOME Java 1.8" 1 "needs Java 17 or newer, but" JAVA_HOME="$JH" FAKE_JAVA_VERSION=1.8.0_392
run "JAVA_HOME Java 11" 1 "is Java 11.0.21" JAVA_HOME="$JH" FAKE_JAVA_VERSION=11.0.21
run "java.exe on PATH, Java 1.8" 1 "is Java 1.8.0_392" WINEPATH="$(winpath "$work/pathjava")" FAKE_JAVA_VERSION=1.8.0_392
run "JAVA_HOME Java 17 runs Main" 0 "org.chunkcdm.cli.Main" JAVA_HOME="$JH" FAKE_JAVA_VERSION=17.0.9
run "JAVA_HOME Java 21-ea: native access option" 0 "--enable-native-access=ALL-UNNAMED" JAVA_HOME="$JH" FAKE_JAVA_VERSION=21-ea
run "Java 17: class path is lib\\*" 0 "$(winpath "$work/home/bin/")..\\lib\\*" JAVA_HOME="$JH" FAKE_JAVA_VERSION=17.0.9
run "Java 17: arguments passed through" 0 "two words" JAVA_HOME="$JH" FAKE_JAVA_VERSION=17.0.9
run "java.exe on PATH, Java 17" 0 "org.chunkcdm.cli.Main" WINEPATH="$(winpath "$work/pathjava")" FAKE_JAVA_VERSION=17.0.9
run "Java 17: a one-shot command's options" 0 "-XX:CompileThresholdScaling=5" JAVA_HOME="$JH" FAKE_JAVA_VERSION=17.0.9
# serve, a long-running server, runs on the JVM's defaults
out="$(env -u JAVA_HOME JAVA_HOME="$JH" FAKE_JAVA_VERSION=17.0.9 wine cmd /c "$BAT" serve root 2>&1 | tr -d '\r')" || true
if grep -qF -- "org.chunkcdm.cli.Main" <<<"$out" && ! grep -qF -- "UseSerialGC" <<<"$out"; then
  echo "ok   serve: the JVM's defaults"
else
  echo "FAIL serve: the JVM's defaults, output:"; sed 's/^/     /' <<<"$out"; fails=$((fails + 1))
fi
echo "check-bat: $fails failed ($(wine --version))"
[ "$fails" = 0 ]
