// A misbehaving Yahtzee sample player in JavaScript: plays like yahtzee-js.js until turn 3, then loops
// forever inside `keep`, so Arena must ban it with kind `fuel`.
import * as player from "./yahtzee-js.js";

export const { tournamentStart, gameStart, choose, tournamentEnd } = player;

export function keep(state) {
  if (state.turn === 3) {
    for (;;) {}
  }
  return player.keep(state);
}
