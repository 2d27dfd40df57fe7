// A minimal Arena Fish player: places and moves where the host's rule checker says first.
// Make it yours: every call gets the whole game, so keep no state.
import { legalPlacements, legalMoves } from "arena:fish/rules@0.1.0";

export function start() {}

export function playAs(colour) {}

export function playWith(others) {}

export function setup(state) {
  return legalPlacements(state)[0];
}

export function takeTurn(state, actions) {
  return legalMoves(state)[0];
}

export function end(won) {}
