/* yahtzee-cpp-panic: reads past the end of a std::vector with at() in its first `keep`: without
 * exceptions, libc++ aborts, and the player is banned for a crash with its last words shown. */
extern "C" {
#include "abi.h"
}
#include <cstdio>
#include <vector>

extern "C" int strategy_keep(const turn_state *state, uint8_t out[5]) {
  std::vector<uint8_t> dice(state->dice.ptr, state->dice.ptr + state->dice.len);
  fprintf(stderr, "yahtzee-cpp-panic: reading die %u of %zu\n", 7u, dice.size());
  out[0] = dice.at(7);
  return 1;
}

extern "C" int strategy_choose(const turn_state *state) {
  (void)state;
  return CAT_CHANCE;
}
