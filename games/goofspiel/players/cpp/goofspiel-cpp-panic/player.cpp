/* goofspiel-cpp-panic: reads past the end of its hand with std::vector::at in its first bid: without
 * exceptions, libc++ aborts, and the player is banned for a crash with its last words shown. */
extern "C" {
#include "abi.h"
}
#include <cstdio>
#include <vector>

extern "C" uint8_t player_bid(const state *st) {
  std::vector<uint8_t> hand(st->hand.ptr, st->hand.ptr + st->hand.len);
  fprintf(stderr, "goofspiel-cpp-panic: taking card %zu of %zu\n", hand.size() + 1, hand.size());
  return hand.at(hand.size());
}
