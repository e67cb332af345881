/*
 * The anchor for the benchmark: the classic mirror-halved bitmask counter in
 * native C (first-row queen in the left half counted twice, the middle column
 * once for odd n). Prints "<total> <milliseconds>" for the count alone.
 * Built by bench/native.mjs with the system's cc -O3 -march=native.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t complete(uint32_t mask, uint32_t cols, uint32_t ld, uint32_t rd) {
  if (cols == mask) return 1;
  uint64_t count = 0;
  uint32_t avail = mask & ~(cols | ld | rd);
  while (avail) {
    uint32_t bit = avail & -avail;
    avail ^= bit;
    count += complete(mask, cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
  }
  return count;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 0;
  if (n < 1 || n > 31) {
    fprintf(stderr, "usage: mirror-halved <n from 1 to 31>\n");
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  uint32_t mask = (1u << n) - 1;
  uint64_t total = 0;
  for (int col = 0; col < n / 2; col++) {
    uint32_t bit = 1u << col;
    total += complete(mask, bit, bit << 1, bit >> 1);
  }
  total *= 2;
  if (n & 1) {
    uint32_t bit = 1u << (n / 2);
    total += complete(mask, bit, bit << 1, bit >> 1);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  printf("%llu %.3f\n", (unsigned long long)total, ms);
  return 0;
}
