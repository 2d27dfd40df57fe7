// yahtzee-js: the strategy every language's Yahtzee sample plays (yahtzee-c's, whose comments say why), in
// JavaScript (componentize-qjs, QuickJS): keep made hands, 4-long straights or the most useful face; score
// the legal box with the best score over par, asking the host's rule checker. It answers exactly as
// yahtzee-rust does, seed for seed. The player keeps no state between calls.
import { score } from "arena:yahtzee/rules@0.1.0";

// The WIT enum's cases in score-card order.
const CATEGORIES = [
  "ones", "twos", "threes", "fours", "fives", "sixes",
  "three-of-a-kind", "four-of-a-kind", "full-house", "small-straight", "large-straight", "yahtzee", "chance",
];
const [ONES, SIXES, THREE_KIND, FOUR_KIND, FULL_HOUSE] = [0, 5, 6, 7, 8];
const [SMALL_STRAIGHT, LARGE_STRAIGHT, YAHTZEE, CHANCE] = [9, 10, 11, 12];

// What a box is worth kept open for later, in tenths of a point (yahtzee-c's table).
const PAR = [21, 53, 86, 122, 157, 192, 217, 131, 226, 295, 327, 169, 220];

// The dice, how many show each face, the open boxes, and the longest run of faces present; null for
// dice that are not five faces.
function view(state) {
  const dice = Array.from(state.dice);
  if (dice.length !== 5 || dice.some((d) => d < 1 || d > 6)) return null;
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const d of dice) counts[d]++;
  const boxes = state.mine.boxes;
  const open = boxes.length === 13 ? boxes.map((b) => b == null) : Array(13).fill(true);
  let run = 0, runStart = 1, length = 0;
  for (let face = 1; face <= 6; face++) {
    length = counts[face] ? length + 1 : 0;
    if (length > run) [run, runStart] = [length, face - length + 1];
  }
  return { dice, counts, open, maxCount: Math.max(...counts.slice(1)), run, runStart };
}

const keepRun = (v, n) => Array.from({ length: n }, (_, i) => v.runStart + i);

function keepers(state) {
  const v = view(state);
  if (v === null) return [];
  const straights = v.open[SMALL_STRAIGHT] || v.open[LARGE_STRAIGHT];
  const pairs = v.counts.filter((c, f) => f > 0 && c === 2).length;
  const trips = v.counts.filter((c, f) => f > 0 && c === 3).length;
  // Made hands.
  if (v.maxCount === 5 || (v.run === 5 && v.open[LARGE_STRAIGHT]) ||
      (v.run >= 4 && v.open[SMALL_STRAIGHT] && !v.open[LARGE_STRAIGHT]) ||
      (trips && pairs && v.open[FULL_HOUSE])) {
    return v.dice;
  }
  // Draws: a 4-long straight, two pairs for a full house, a 3-long straight when nothing pairs up.
  if (v.run >= 4 && v.open[LARGE_STRAIGHT]) return keepRun(v, 4);
  if (pairs === 2 && v.open[FULL_HOUSE]) {
    const out = [];
    for (let f = 1; f <= 6; f++) if (v.counts[f] === 2) out.push(f, f);
    return out;
  }
  if (v.run >= 3 && v.maxCount === 1 && straights) return keepRun(v, 3);
  // Otherwise the face with the most dice, preferring one whose upper box is open, then high faces.
  const ofAKind = v.open[THREE_KIND] || v.open[FOUR_KIND] || v.open[YAHTZEE];
  let best = 0, bestValue = -1;
  for (let f = 1; f <= 6; f++) {
    if (!v.counts[f]) continue;
    const value = v.counts[f] * 10 + f + (v.open[f - 1] ? 4 : 0) + (ofAKind ? 2 : 0);
    if (value > bestValue) [best, bestValue] = [f, value];
  }
  return Array(v.counts[best]).fill(best);
}

function chooseBox(state) {
  const v = view(state);
  if (v === null) return "chance";
  let best = -1, bestValue = 0;
  const dice = new Uint8Array(v.dice);
  for (let c = ONES; c <= CHANCE; c++) {
    if (!v.open[c]) continue; // a used box is never allowed
    const points = score(state.mine, dice, CATEGORIES[c]);
    if (points == null) continue;
    let value = points * 10 - PAR[c];
    // Three or more of a face in its upper box keeps the 35-point bonus within reach.
    if (c <= SIXES && v.counts[c + 1] >= 3 && state.mine.upperBonus === 0) value += 30;
    if (best < 0 || value > bestValue) [best, bestValue] = [c, value];
  }
  if (best < 0) best = v.open.indexOf(true); // never reached: the rules always leave a box
  return CATEGORIES[best < 0 ? CHANCE : best];
}

export function tournamentStart(info) {}

export function gameStart(info) {}

export function keep(state) {
  return new Uint8Array(keepers(state));
}

export function choose(state) {
  return chooseBox(state);
}

export function tournamentEnd(won) {}
