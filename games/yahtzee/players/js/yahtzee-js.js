// A Yahtzee sample player in JavaScript (componentize-qjs, QuickJS): a cheap greedy heuristic that always
// plays legally.
//
// `keep` chases a straight when four dice already run in a row, keeps a made full house or large straight,
// and otherwise keeps every die of the most useful face. `choose` asks the host's rule checker what each box
// would score (null for a box that is used or that the joker rule forbids) and takes the best score minus
// the box's par, so every answer is legal. The player keeps no state between calls.
import { score } from "arena:yahtzee/rules@0.1.0";

// The WIT enum's cases in score-card order; face f scores in CATEGORIES[f - 1].
const CATEGORIES = [
  "ones", "twos", "threes", "fours", "fives", "sixes",
  "three-of-a-kind", "four-of-a-kind", "full-house", "small-straight", "large-straight", "yahtzee", "chance",
];

// What keeping a box open is worth, roughly: scoring below par is a loss. The upper boxes' par is three of
// the face (what the 63-point bonus asks of each); 0 in a box costs its par.
const PAR = {
  "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
  "three-of-a-kind": 20, "four-of-a-kind": 12, "full-house": 16,
  "small-straight": 18, "large-straight": 25, "yahtzee": 15, "chance": 22,
};

function isOpen(card, box) {
  return card.boxes[CATEGORIES.indexOf(box)] == null;
}

// The longest list of consecutive distinct faces among the dice, e.g. [2, 3, 4, 5].
function longestRun(dice) {
  let best = [], run = [];
  for (let face = 1; face <= 6; face++) {
    run = dice.includes(face) ? [...run, face] : [];
    if (run.length > best.length) best = run;
  }
  return best;
}

// count[face] for faces 1..6 (count[0] unused).
function counts(dice) {
  const count = [0, 0, 0, 0, 0, 0, 0];
  for (const d of dice) count[d]++;
  return count;
}

// The legal box with the best score minus par (the rule checker says which boxes are legal).
function chooseBox(card, dice) {
  let best = null, bestValue = 0;
  for (const box of CATEGORIES) {
    const s = score(card, new Uint8Array(dice), box);
    if (s != null && (best === null || s - PAR[box] > bestValue)) {
      best = box;
      bestValue = s - PAR[box];
    }
  }
  // The rules always leave a legal box; this fallback is never reached.
  return best ?? CATEGORIES.find((box) => isOpen(card, box));
}

// The dice to keep: values taken from `dice`.
function keepers(card, dice) {
  const count = counts(dice);
  const run = longestRun(dice);
  const straightsOpen = isOpen(card, "small-straight") || isOpen(card, "large-straight");
  const sizes = count.slice(1).sort((a, b) => b - a); // how many dice show each face, largest first

  // Made hands worth standing on.
  if (run.length === 5 && isOpen(card, "large-straight")) return dice;
  if (sizes[0] === 3 && sizes[1] === 2 && isOpen(card, "full-house")) return dice;
  // Four in a row: go for the straight.
  if (run.length >= 4 && straightsOpen && sizes[0] < 3) return run;

  // Otherwise gather the most useful face: the most common one, preferring high faces and faces whose
  // upper box is still open.
  const worth = (face) => count[face] * 10 + face + (isOpen(card, CATEGORIES[face - 1]) ? 4 : 0);
  let face = 1;
  for (let f = 2; f <= 6; f++) if (worth(f) > worth(face)) face = f;
  return Array(count[face]).fill(face);
}

export function tournamentStart(info) {}

export function gameStart(info) {}

export function keep(state) {
  return new Uint8Array(keepers(state.mine, Array.from(state.dice)));
}

export function choose(state) {
  return chooseBox(state.mine, Array.from(state.dice));
}

export function tournamentEnd(won) {}
