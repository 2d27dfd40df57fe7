/* {{name}}: a minimal Arena Goofspiel player: bids the lowest card in its hand. Make it yours: every call gets the whole game (the prize, what was carried over, your hand, the scores, every earlier round's bids), so keep no state. */
#include "abi.h"

/* Your bid this round: one card from st->hand (ascending). Put your strategy here, e.g. a high card
 * for a valuable pot (st->prize plus the st->carried prizes), a low one for a poor pot. */
uint8_t player_bid(const state *st) {
  if (st->hand.len > 0) return st->hand.ptr[0];
  return 1;
}
