// A Santorini sample player in JavaScript (componentize-qjs, QuickJS): greedy, and always legal thanks to
// the host's rule checker (`arena:santorini/rules`, a little fuel a call).
//
// `place` takes the legal cell nearest the centre. `takeTurn` takes a winning turn (up onto level 3) if
// there is one, else a turn that climbs, else the first legal turn.
import { isLegalPlace, legalTurns } from "arena:santorini/rules@0.1.0";

// The 25 cells, nearest the centre first (row-major among equals).
const CELLS = [];
for (let row = 0; row < 5; row++) for (let col = 0; col < 5; col++) CELLS.push({ row, col });
const distance = (cell) => (cell.row - 2) ** 2 + (cell.col - 2) ** 2;
CELLS.sort((a, b) => distance(a) - distance(b));

const height = (state, cell) => state.heights[cell.row * 5 + cell.col];

export function tournamentStart(you, players) {}

export function matchStart(opponent, number, total) {}

export function gameStart(info) {}

export function place(state) {
  const taken = (cell) => state.workers.some((w) => w != null && w.row === cell.row && w.col === cell.col);
  return CELLS.find((cell) => !taken(cell) && isLegalPlace(state, cell));
}

export function takeTurn(state) {
  const turns = legalTurns(state); // never empty: a player with no legal turn is not asked
  const rise = (turn) => height(state, turn.to) - height(state, state.workers[state.turn * 2 + turn.worker]);
  return turns.find((turn) => height(state, turn.to) === 3 && rise(turn) === 1)
    ?? turns.find((turn) => rise(turn) > 0)
    ?? turns[0];
}

export function gameOver(won) {}

export function tournamentEnd(won) {}
