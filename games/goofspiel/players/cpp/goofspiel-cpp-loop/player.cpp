/* goofspiel-cpp-loop: loops for ever in its first bid; banned for fuel. */
extern "C" {
#include "abi.h"
}
#include <cstdio>

extern "C" uint8_t player_bid(const state *st) {
  (void)st;
  fprintf(stderr, "goofspiel-cpp-loop: thinking (for ever)\n");
  volatile uint64_t n = 0;
  for (;;) n = n + 1;
}
