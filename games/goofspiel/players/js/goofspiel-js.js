// A Goofspiel sample player in JavaScript (componentize-qjs, QuickJS): matches its cards to the prizes.
//
// `bid` ranks the pot (this round's prize plus the prizes carried over to it) among the prizes still to
// come, and bids the card of the same rank in its hand: low cards for low prizes, high cards for high
// ones, never a 13 on a 1. All bids are revealed, so it knows every other hand: when a cheaper card is
// sure to beat everything the others hold, it bids that one instead.

const CARDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];

// The cards `seat` has not bid yet, ascending.
function handOf(state, seat) {
  const spent = new Set(state.history.map((r) => r.bids[seat]).filter((b) => b != null));
  return CARDS.filter((c) => !spent.has(c));
}

export function bid(state) {
  const hand = Array.from(state.hand).sort((a, b) => a - b);
  const seen = new Set([state.prize, ...state.history.map((r) => r.prize)]);
  const toCome = CARDS.filter((p) => !seen.has(p));
  const pot = state.prize + Array.from(state.carried).reduce((a, b) => a + b, 0);
  let target = hand[hand.length - 1];
  if (toCome.length > 0) {
    const rank = toCome.filter((p) => p < pot).length;
    target = hand[Math.floor((rank * (hand.length - 1)) / toCome.length)];
  }
  let theirBest = 0;
  for (let s = 0; s < state.seats; s++) {
    if (s === state.you || !state.playing[s]) continue;
    const h = handOf(state, s);
    if (h.length > 0) theirBest = Math.max(theirBest, h[h.length - 1]);
  }
  const sure = hand.find((c) => c > theirBest);
  return sure !== undefined && sure <= target ? sure : target;
}
