// {{name}}'s referee in JavaScript (componentize-qjs): a state machine the Arena host drives (see
// ../wit/deps/game/game.wit). `start` deals the game from its seed, and it, `apply` and `banned` answer
// with what comes next: the requests outstanding (who must act, and what each is asked) and the events
// the call caused. `apply` checks each answer with the rules (throwing a reason refuses it and bans that
// player as `illegal`), `banned` says what a ban means (here: the other seat wins), `outcome` and `view`
// tell how it ended. It runs sandboxed, like the players: no clock, no files, randomness only from the
// seed. Records have camelCase keys, variants are `{ tag, val }`, an `option` is a value or null.

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

const text = () => game.heaps.join(" ");
const everyone = (t) => ({ to: { tag: "all" }, text: t });

// What comes next: the seat to move and what it sees (nobody once the game is over).
function next(events) {
  const requests = game !== null && game.winner === null
    ? [[game.turn, { tag: "take-turn", val: { heaps: [...game.heaps], you: game.turn } }]]
    : [];
  return { requests, events };
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
  return next([everyone(`heaps ${text()}`)]);
}

export function apply(seat, answer) {
  const { heap, count } = answer.val;
  if (game === null || game.winner !== null) throw "the game is over";
  if (seat !== game.turn) throw `it is seat ${game.turn}'s turn, not seat ${seat}'s`;
  if (heap >= game.heaps.length) throw `there is no heap ${heap} (there are ${game.heaps.length})`;
  const stones = game.heaps[heap];
  if (count === 0 || count > stones) throw `cannot take ${count} from heap ${heap}, which has ${stones}`;
  game.heaps[heap] -= count;
  if (game.heaps.every((h) => h === 0)) game.winner = seat;
  game.turn = 1 - game.turn;
  return next([everyone(`seat ${seat} takes ${count} from heap ${heap}: ${text()}`)]);
}

export function banned(seat, fault) {
  if (game === null) return next([]);
  game.winner = 1 - Math.min(seat, 1);
  return next([everyone(`seat ${seat} forfeits: ${fault.reason} in ${fault.call}`)]);
}

export function outcome() {
  if (game === null || game.winner === null) return null;
  const w = game.winner;
  return { scores: [0, 1].map((s) => (s === w ? 1 : 0)), winners: [w] };
}

export function view(seat) {
  return game === null ? "" : `heaps ${text()}, seat ${game.turn} to move`;
}
