// {{name}}'s first sample player, in JavaScript: the optimal strategy (leave heaps whose xor is zero
// when it can, else take one stone from the largest heap). Built from ../wit alone, as a player in any
// language is.
export function takeTurn(state) {
  const total = state.heaps.reduce((a, h) => a ^ h, 0);
  if (total !== 0) {
    const i = state.heaps.findIndex((h) => (h ^ total) < h);
    if (i >= 0) return { heap: i, count: state.heaps[i] - (state.heaps[i] ^ total) };
  }
  let i = 0;
  state.heaps.forEach((h, k) => { if (h > state.heaps[i]) i = k; });
  return { heap: i, count: 1 };
}
