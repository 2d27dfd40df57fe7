// A Fish sample player in JavaScript (componentize-qjs, QuickJS): greedy, always legal, and computes
// legality itself.
//
// `setup` places on the free tile with the most fish. `takeTurn` tries every straight-line move of its
// penguins (odd-r hex layout, see wit/fish/fish.wit) and takes the one landing on the most fish.

// The six directions as [row step, column step in an even row, column step in an odd row]: E, W, NE, NW,
// SE, SW.
const DIRECTIONS = [[0, 1, 1], [0, -1, -1], [-1, 0, 1], [-1, -1, 0], [1, 0, 1], [1, -1, 0]];

const fishAt = (board, row, col) => board.tiles[row * board.cols + col];

// The tiles with a penguin on them, as "row,col" keys.
function occupied(state) {
  return new Set(state.seats.flatMap((seat) => seat.penguins.map((p) => `${p.row},${p.col}`)));
}

// Every tile the penguin on `start` may move to: straight lines, stopping before holes, the edge and
// penguins.
function targets(state, start, taken) {
  const board = state.board, found = [];
  for (const [dr, dcEven, dcOdd] of DIRECTIONS) {
    let row = start.row, col = start.col;
    for (;;) {
      col += row % 2 ? dcOdd : dcEven;
      row += dr;
      if (row < 0 || row >= board.rows || col < 0 || col >= board.cols) break;
      if (fishAt(board, row, col) === 0 || taken.has(`${row},${col}`)) break;
      found.push({ row, col });
    }
  }
  return found;
}

export function start() {}

export function playAs(colour) {}

export function playWith(others) {}

export function setup(state) {
  const board = state.board, taken = occupied(state);
  let best = null;
  for (let row = 0; row < board.rows; row++) {
    for (let col = 0; col < board.cols; col++) {
      const fish = fishAt(board, row, col);
      if (fish > 0 && !taken.has(`${row},${col}`) && (best === null || fish > fishAt(board, best.row, best.col))) {
        best = { row, col };
      }
    }
  }
  return best;
}

export function takeTurn(state, actions) {
  const me = state.seats.find((seat) => seat.colour === state.turn);
  const taken = occupied(state);
  let best = null;
  for (const penguin of me.penguins) {
    for (const to of targets(state, penguin, taken)) {
      if (best === null || fishAt(state.board, to.row, to.col) > fishAt(state.board, best.to.row, best.to.col)) {
        best = { from: penguin, to };
      }
    }
  }
  // The host only asks a player that can move; the fallback is never reached.
  return best ?? { from: me.penguins[0], to: me.penguins[0] };
}

export function end(won) {}
