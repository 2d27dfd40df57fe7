// {{name}}'s referee in JavaScript (componentize-qjs): a state machine the Arena host drives (see
// ../wit/deps/game/game.wit). `start` deals the game from its seed, and it, `step` and `banned` answer
// with what comes next: the requests outstanding (who must act, and what each is asked), how many of the
// step's answers were taken and the refusal of the last one. `step` checks each answer with the rules (a
// refusal bans that player as `illegal`), `banned` says what a ban means (here: the other seat wins),
// `events` hands over the events kept so far, `outcome` and `view` tell how it ended. It runs sandboxed,
// like the players: no clock, no files, randomness only from the seed. Records have camelCase keys, variants are `{ tag, val }`, an `option` is a value or null.

const MASK = (1n << 64n) - 1n;

// SplitMix64 on BigInt (the seed is a u64, past what a JS number holds exactly): the game's seed is its
// only source of chance, so a seed always gives the same game.
function mix(z) {
  z = (z + 0x9e3779b97f4a7c15n) & MASK;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}

let game = null;
// The events not handed to the host yet, oldest first.
let kept = [];

const text = () => game.heaps.join(" ");
const everyone = (t) => kept.push({ to: { tag: "all" }, text: t });

// What comes next: the seat to move and what it sees (nobody once the game is over), how many answers
// the call took, and why it refused the last one (null: it did not).
function next(taken = 0, refused = null) {
  const requests = game !== null && game.winner === null
    ? [[game.turn, { tag: "take-turn", val: { heaps: [...game.heaps], you: game.turn } }]]
    : [];
  return { requests, taken, refused };
}

export function start(setup) {
  if (setup.names.length !== 2) throw `{{name}} seats 2 players, not ${setup.names.length}`;
  const option = setup.options.find(([k]) => k === "heaps");
  const heaps = option === undefined ? "3" : option[1];
  if (!/^[0-9]+$/.test(heaps)) throw `heaps must be a number, not ${heaps}`;
  // The seed arrives as a JS number: exact below 2^53, a larger one rounded (the same way each time).
  let r = mix(BigInt.asUintN(64, BigInt(setup.seed)));
  game = { heaps: [], turn: 0, winner: null };
  for (let i = 0; i < Number(heaps); i++) {
    r = mix(r);
    game.heaps.push(1 + Number(r % 7n));
  }
  everyone(`heaps ${text()}`);
  return next();
}

// A step's answers, in order: one seat moves at a time here, so there is one (a referee may always
// take just the first; the host hands the others back).
export function step(answers) {
  const [seat, answer] = answers[0];
  const { heap, count } = answer.val;
  if (game === null || game.winner !== null) return next(1, "the game is over");
  if (seat !== game.turn) return next(1, `it is seat ${game.turn}'s turn, not seat ${seat}'s`);
  if (heap >= game.heaps.length) return next(1, `there is no heap ${heap} (there are ${game.heaps.length})`);
  const stones = game.heaps[heap];
  if (count === 0 || count > stones) return next(1, `cannot take ${count} from heap ${heap}, which has ${stones}`);
  game.heaps[heap] -= count;
  if (game.heaps.every((h) => h === 0)) game.winner = seat;
  game.turn = 1 - game.turn;
  everyone(`seat ${seat} takes ${count} from heap ${heap}: ${text()}`);
  return next(1);
}

export function banned(seat, fault) {
  if (game === null) return next();
  game.winner = 1 - Math.min(seat, 1);
  everyone(`seat ${seat} forfeits: ${fault.reason} in ${fault.call}`);
  return next();
}

// A text's length in UTF-8 bytes, as `told` counts it.
function bytes(text) {
  let n = 0;
  for (const c of text) {
    const p = c.codePointAt(0);
    n += p < 0x80 ? 1 : p < 0x800 ? 2 : p < 0x10000 ? 3 : 4;
  }
  return n;
}

// The events kept so far, as one `told`: their texts in one string, and each one's audience and length.
export function events() {
  const taken = kept;
  kept = [];
  return { text: taken.map((e) => e.text).join(""), events: taken.map((e) => [e.to, bytes(e.text)]) };
}

export function outcome() {
  if (game === null || game.winner === null) return null;
  const w = game.winner;
  return { scores: [0, 1].map((s) => (s === w ? 1 : 0)), winners: [w] };
}

export function view(seat) {
  return game === null ? "" : `heaps ${text()}, seat ${game.turn} to move`;
}
