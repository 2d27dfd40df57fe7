// A minimal Arena Yahtzee player: re-rolls every die and scores in the first box the rules allow.
// Make it yours: every call gets the whole game, so keep no state.
import { score } from "arena:yahtzee/rules@0.1.0";

const BOXES = [
  "ones", "twos", "threes", "fours", "fives", "sixes",
  "three-of-a-kind", "four-of-a-kind", "full-house", "small-straight", "large-straight", "yahtzee", "chance",
];

export function tournamentStart(info) {}

export function gameStart(info) {}

export function keep(state) {
  return new Uint8Array(0); // the dice values to keep
}

export function choose(state) {
  // The host's rule checker says what a box would score, and null for a box not allowed now.
  return BOXES.find((box) => score(state.mine, state.dice, box) != null) ?? "chance";
}

export function tournamentEnd(won) {}
