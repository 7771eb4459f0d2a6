/* liblz4's LZ4_decompress_safe on a file of LZ4 block streams, for bench/run-lz4-synth.sh.
 * File format (little-endian): int32 count, then per stream int32 compressed size, int32 decoded size, the bytes.
 * Prints the file name, the sequence count and the best pass in ns per sequence (thread CPU time).
 * Build: gcc -O2 -o lz4bench lz4bench.c -l:liblz4.so.1   usage: lz4bench FILE SECONDS */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int LZ4_decompress_safe(const char *src, char *dst, int srcSize, int dstCapacity);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static long sequences(const unsigned char *p, int n) {
  long s = 0;
  int i = 0;
  while (i < n) {
    int token = p[i++], lit = token >> 4, b;
    if (lit == 15) do { b = p[i++]; lit += b; } while (b == 255 && i < n);
    i += lit;
    s++;
    if (i >= n) break;
    i += 2;
    if ((token & 15) == 15) do { b = p[i++]; } while (b == 255 && i < n);
  }
  return s;
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: lz4bench FILE SECONDS\n"); return 2; }
  FILE *f = fopen(argv[1], "rb");
  int n;
  if (!f || fread(&n, 4, 1, f) != 1 || n <= 0) { fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
  char **in = malloc(n * sizeof(char *));
  int *il = malloc(n * sizeof(int)), *ol = malloc(n * sizeof(int));
  long seqs = 0;
  for (int i = 0; i < n; i++) {
    if (fread(&il[i], 4, 1, f) != 1 || fread(&ol[i], 4, 1, f) != 1) { fprintf(stderr, "truncated\n"); return 1; }
    in[i] = malloc(il[i]);
    if (fread(in[i], 1, il[i], f) != (size_t) il[i]) { fprintf(stderr, "truncated\n"); return 1; }
    seqs += sequences((unsigned char *) in[i], il[i]);
  }
  int max = 0;
  for (int i = 0; i < n; i++) if (ol[i] > max) max = ol[i];
  char *out = malloc(max);
  double secs = atof(argv[2]), best = 1e30, start = now(), t1;
  do {
    double t0 = now();
    for (int i = 0; i < n; i++) {
      if (LZ4_decompress_safe(in[i], out, il[i], ol[i]) != ol[i]) { fprintf(stderr, "stream %d fails\n", i); return 1; }
    }
    t1 = now();
    if (t1 - t0 < best) best = t1 - t0;
  } while (t1 - start < secs);
  printf("%s liblz4 %d streams %ld sequences %.3f ns/sequence\n", argv[1], n, seqs, best * 1e9 / seqs);
  return 0;
}
