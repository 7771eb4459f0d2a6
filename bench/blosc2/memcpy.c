/* The C floor of chunk sets stored raw ("memcpyed") by c-blosc2 (bench only, never built by Maven or CI).
 * Copies the data bytes of every chunk of DIR/NAME.chunks (written by b2bench.py) into one 1 MiB buffer, as the
 * per-chunk benches decode them, four ways: one glibc memcpy per chunk, one memcpy per block (what c-blosc2 does
 * for such a chunk), "rep movsb", and a loop of 32-byte AVX2 loads and stores (what a JIT's arraycopy stub does).
 * Prints GB/s (thread CPU time, best of the passes).
 *   gcc -O2 -mavx2 -o /tmp/b2memcpy bench/blosc2/memcpy.c && /tmp/b2memcpy DIR/NAME.chunks
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void rep_movsb(void *d, const void *s, size_t n) {
  __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

static void avx2_loop(char *d, const char *s, size_t n) {
  size_t i = 0;
  for (; i + 128 <= n; i += 128) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(s + i)), b = _mm256_loadu_si256((const __m256i *)(s + i + 32));
    __m256i c = _mm256_loadu_si256((const __m256i *)(s + i + 64)), e = _mm256_loadu_si256((const __m256i *)(s + i + 96));
    _mm256_storeu_si256((__m256i *)(d + i), a);
    _mm256_storeu_si256((__m256i *)(d + i + 32), b);
    _mm256_storeu_si256((__m256i *)(d + i + 64), c);
    _mm256_storeu_si256((__m256i *)(d + i + 96), e);
  }
  memcpy(d + i, s + i, n - i);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s DIR/NAME.chunks\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  char *chunk[4096];
  int hl[4096], nbytes[4096], bs[4096], n = 0;
  uint32_t len;
  while (n < 4096 && fread(&len, 4, 1, f) == 1) {
    chunk[n] = malloc(len);
    if (fread(chunk[n], 1, len, f) != len) {
      fprintf(stderr, "short chunk\n");
      return 1;
    }
    if (!(chunk[n][2] & 0x02)) {
      fprintf(stderr, "chunk %d is not stored raw\n", n);
      return 1;
    }
    hl[n] = (chunk[n][2] & 0x10) ? 32 : 16;
    memcpy(&nbytes[n], chunk[n] + 4, 4);
    memcpy(&bs[n], chunk[n] + 8, 4);
    if (nbytes[n] > (1 << 20) || bs[n] <= 0) {
      fprintf(stderr, "chunk %d: %d bytes, blocks of %d (at most 1 MiB chunks)\n", n, nbytes[n], bs[n]);
      return 1;
    }
    n++;
  }
  fclose(f);
  char *dst = malloc(1 << 20);
  memset(dst, 0, 1 << 20);
  double total = 0;
  for (int i = 0; i < n; i++) total += nbytes[i];
  const char *names[] = {"memcpy per chunk", "memcpy per block", "rep movsb per chunk", "AVX2 loop per chunk"};
  for (int m = 0; m < 4; m++) {
    double best = 0;
    for (int pass = 0; pass < 60; pass++) {
      double t = cpu();
      for (int i = 0; i < n; i++) {
        const char *s = chunk[i] + hl[i];
        if (m == 0) {
          memcpy(dst, s, nbytes[i]);
        } else if (m == 1) {
          for (int o = 0; o < nbytes[i]; o += bs[i]) memcpy(dst + o, s + o, nbytes[i] - o < bs[i] ? nbytes[i] - o : bs[i]);
        } else if (m == 2) {
          rep_movsb(dst, s, nbytes[i]);
        } else {
          avx2_loop(dst, s, nbytes[i]);
        }
      }
      double g = total / (cpu() - t) / 1e9;
      if (g > best) best = g;
    }
    printf("%s: %.2f GB/s\n", names[m], best);
  }
  return 0;
}
