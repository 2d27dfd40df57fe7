/* yahtzee-cpp-loop: loops for ever in its first `keep`; banned for fuel. */
extern "C" {
#include "abi.h"
}
#include <cstdio>

extern "C" int strategy_keep(const turn_state *state, uint8_t out[5]) {
  (void)state;
  (void)out;
  fprintf(stderr, "yahtzee-cpp-loop: thinking (for ever)\n");
  volatile uint64_t n = 0;
  for (;;) n = n + 1;
}

extern "C" int strategy_choose(const turn_state *state) {
  (void)state;
  return CAT_CHANCE;
}
