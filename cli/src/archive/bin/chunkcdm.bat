@echo off
rem chunkcdm launcher for Windows: runs the CLI from ..\lib with a Java 17 or newer runtime; nothing else needed.
rem The Java used: %JAVA_HOME%\bin\java.exe when JAVA_HOME is set, else java.exe on PATH.
rem CHUNKCDM_JAVA_OPTS: extra JVM options (e.g. -Xmx8g -Dchunkcdm.blosc=java).
setlocal
set "CHUNKCDM_HOME=%~dp0.."

if not defined JAVA_HOME goto javaOnPath
set "JAVA_EXE=%JAVA_HOME%\bin\java.exe"
if exist "%JAVA_EXE%" goto checkVersion
echo chunkcdm: JAVA_HOME is set to "%JAVA_HOME%", which has no bin\java.exe; point JAVA_HOME at a Java 17 or newer runtime, or unset it to use java on PATH 1>&2
exit /b 1

:javaOnPath
rem java.exe on PATH, found by for's own PATH search (not where.exe, which Wine only stubs: always "found")
set "JAVA_EXE="
for %%j in (java.exe) do set "JAVA_EXE=%%~$PATH:j"
if defined JAVA_EXE goto checkVersion
echo chunkcdm: no Java found: chunkcdm needs a Java 17 or newer runtime (e.g. Eclipse Temurin 17+); put its java.exe on PATH or set JAVA_HOME 1>&2
exit /b 1

:checkVersion
rem third word of the first line of "java -version": "1.8.0_392", "11.0.21", "17.0.9", "21-ea", ...
set "JAVA_VERSION="
for /f "tokens=3" %%v in ('call "%JAVA_EXE%" -version 2^>^&1') do if not defined JAVA_VERSION set "JAVA_VERSION=%%~v"
if not defined JAVA_VERSION goto run
set "JAVA_MAJOR="
set "JAVA_MINOR="
for /f "tokens=1,2 delims=.-_+" %%a in ("%JAVA_VERSION%") do (set "JAVA_MAJOR=%%a" & set "JAVA_MINOR=%%b")
if "%JAVA_MAJOR%"=="1" set "JAVA_MAJOR=%JAVA_MINOR%"
set /a JAVA_MAJOR_NUM=%JAVA_MAJOR% 2>nul
if errorlevel 1 goto run
if %JAVA_MAJOR_NUM% GEQ 17 goto run
echo chunkcdm: needs Java 17 or newer, but %JAVA_EXE% is Java %JAVA_VERSION%; install Java 17+ and put it on PATH or set JAVA_HOME 1>&2
exit /b 1

:run
rem JVM options of a one-shot command (docs/BENCHMARKS.md, "Cold start"): native access for JNA and the FFM calls;
rem no Vector API module: in a fresh JVM its kernels run unoptimised until compiled, which made commands slower.
rem Java 24 and later print four warning lines when a library (protobuf, msgpack) uses sun.misc.Unsafe; Java 23 and
rem later know the option that allows it quietly (user options in CHUNKCDM_JAVA_OPTS come after it and win)
rem A one-shot command (all but serve, a long-running server on the JVM's defaults): the serial collector, methods
rem compiled later (less compiler work on the cores the command uses) and no performance-data file.
if not defined JAVA_MAJOR_NUM set "JAVA_MAJOR_NUM=0"
if %JAVA_MAJOR_NUM% GEQ 23 set "CHUNKCDM_JAVA_OPTS=--sun-misc-unsafe-memory-access=allow %CHUNKCDM_JAVA_OPTS%"
if /i not "%~1"=="serve" set "CHUNKCDM_JAVA_OPTS=-XX:+UseSerialGC -XX:CompileThresholdScaling=5 -XX:-UsePerfData %CHUNKCDM_JAVA_OPTS%"
"%JAVA_EXE%" --enable-native-access=ALL-UNNAMED %CHUNKCDM_JAVA_OPTS% -cp "%CHUNKCDM_HOME%\lib\*" org.chunkcdm.cli.Main %*
exit /b %ERRORLEVEL%
