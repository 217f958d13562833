/* Calls of lemire/streamvbyte (the C library the bench's c-peers link) on one block size,
 * many times, for instruction counts under valgrind's callgrind: compiled for AVX2 without
 * AVX-512 (-march=haswell), which valgrind runs (the c-peers' build takes -march=native, and
 * on a CPU with AVX-512 the compiler's EVEX encodings stop valgrind). count.sh runs it beside
 * svb's benches/examples/per_call. Usage: lemire_instructions OP N ITERS, OP one of
 * classic-dec, 0124-dec, delta-dec, classic-enc, 0124-enc, delta-enc, none (the loop alone).
 * Values as per_call makes them: 1-4 byte values mixed, or sorted ids 1-4 apart (delta). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "streamvbyte.h"
#include "streamvbytedelta.h"
int main(int argc, char** argv) {
  const char* op = argv[1]; int n = atoi(argv[2]); long iters = atol(argv[3]);
  uint32_t* in = malloc(n * 4); uint32_t* out = malloc(n * 4);
  uint8_t* buf = malloc(streamvbyte_max_compressedbytes(n) + 16);
  uint64_t x = 0x9E3779B97F4A7C15ull; uint32_t acc = 7;
  for (int i = 0; i < n; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    int w = (x >> 60) & 3; uint32_t v = (uint32_t)(x >> 8);
    if (!strcmp(op, "delta-dec") || !strcmp(op, "delta-enc")) { acc += 1 + (uint32_t)(x % 4); in[i] = acc; }
    else in[i] = w == 0 ? v & 0xFF : w == 1 ? v & 0xFFFF : w == 2 ? v & 0xFFFFFF : v; }
  size_t len = strstr(op, "delta") ? streamvbyte_delta_encode(in, n, buf, 7) : streamvbyte_encode(in, n, buf);
  memset(buf + len, 0, 16);
  uint64_t sum = 0;
  size_t unused = 0; (void)unused;
  int code = !strcmp(op, "classic-dec") ? 1 : !strcmp(op, "delta-dec") ? 2 : !strcmp(op, "classic-enc") ? 3 : !strcmp(op, "delta-enc") ? 4 : !strcmp(op, "0124-dec") ? 5 : !strcmp(op, "0124-enc") ? 6 : 0;
  if (code == 5 || code == 6) { len = streamvbyte_encode_0124(in, n, buf); memset(buf + len, 0, 16); }
  #define LOOP(body) for (long k = 0; k < iters; k++) { body; __asm__ volatile("" ::: "memory"); }
  switch (code) {
    case 1: LOOP(streamvbyte_decode(buf, out, n); sum += out[k % n]) break;
    case 2: LOOP(streamvbyte_delta_decode(buf, out, n, 7); sum += out[k % n]) break;
    case 3: LOOP(sum += streamvbyte_encode(in, n, buf)) break;
    case 4: LOOP(sum += streamvbyte_delta_encode(in, n, buf, 7)) break;
    case 5: LOOP(streamvbyte_decode_0124(buf, out, n); sum += out[k % n]) break;
    case 6: LOOP(sum += streamvbyte_encode_0124(in, n, buf)) break;
    default: LOOP(sum += k) break;
  }
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
