/* goofspiel-cpp: bids the prize's own value (always in hand: each prize comes up once), or a higher
 * card when a pot carried over makes the prize worth more; the cards left are kept in a std::set. */
extern "C" {
#include "abi.h"
}
#include <numeric>
#include <set>

extern "C" uint8_t player_bid(const state *st) {
  std::set<uint8_t> hand(st->hand.ptr, st->hand.ptr + st->hand.len);
  if (hand.empty()) return 1;
  unsigned pot = std::accumulate(st->carried.ptr, st->carried.ptr + st->carried.len, unsigned(st->prize));
  // The smallest card worth the pot (at least the prize), else the highest there is.
  auto it = hand.lower_bound((uint8_t)(pot > 13 ? 13 : pot));
  return it != hand.end() ? *it : *hand.rbegin();
}
