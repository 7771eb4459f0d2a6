/*
 * A stand-in java.exe for checking bin\chunkcdm.bat under Wine (check-bat.sh): "-version" prints the first line
 * of a real "java -version" with the version in FAKE_JAVA_VERSION to stderr, as Java does; anything else prints
 * "ARGS:" and each argument on its own line to stdout, so the launcher's command line can be checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *v = getenv("FAKE_JAVA_VERSION");
  if (argc > 1 && strcmp(argv[1], "-version") == 0) {
    const char *name = v && strncmp(v, "1.", 2) == 0 ? "java" : "openjdk";
    fprintf(stderr, "%s version \"%s\" 2023-10-17\n", name, v ? v : "17.0.9");
    fprintf(stderr, "Runtime Environment (fake, for check-bat.sh)\n");
    return 0;
  }
  printf("ARGS:\n");
  for (int i = 1; i < argc; i++) {
    printf("%s\n", argv[i]);
  }
  return 0;
}
