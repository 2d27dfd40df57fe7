// The matching-pennies referee in JavaScript (componentize-qjs, QuickJS): the same game as the Rust
// referee in ../referee, word for word (the tests play both and compare the records). Each round both
// seats are asked at once; each choice is told only to its chooser until both are in, then the round is
// revealed to everyone. A seat that faults forfeits the game.
//
// The `arena:game` protocol: `start`, `step` and `banned` answer with what comes next (the requests
// outstanding, how many of the step's answers were taken, and a refusal of the last one); `events`
// hands the host the events kept so far. Records have camelCase keys, variants are `{ tag, val }`,
// `option` is a value or null.

const ROUNDS = 5;

let game = null;
let kept = [];

const coin = (heads) => (heads ? "heads" : "tails");

function next(taken = 0, refused = null) {
  const requests = [];
  if (game !== null && game.forfeit === null && game.round <= game.rounds) {
    for (let s = 0; s < 2; s++) {
      if (game.choices[s] === null) {
        const round = { number: game.round, of: game.rounds, you: s, taken: [...game.taken] };
        requests.push([s, { tag: "choose", val: round }]);
      }
    }
  }
  return { requests, taken, refused };
}

const everyone = (text) => kept.push({ to: { tag: "all" }, text });

export function start(setup) {
  if (setup.names.length !== 2) {
    throw `matching pennies seats 2 players, not ${setup.names.length}`;
  }
  let rounds = ROUNDS;
  const option = setup.options.find(([k]) => k === "rounds");
  if (option !== undefined) {
    const v = option[1];
    // As Rust's `u32::from_str`: digits only (a leading `+` allowed), within range.
    if (!/^\+?[0-9]+$/.test(v) || Number(v) > 0xffffffff) throw `rounds must be a number, not ${v}`;
    rounds = Number(v);
  }
  game = { rounds, round: 1, taken: [0, 0], choices: [null, null], forfeit: null };
  everyone(`${rounds} rounds; seat 0 takes a round when the coins match`);
  return next();
}

// The step's answers in order, until one is refused or one closes the round (which changes what the
// seats still to answer are asked).
export function step(answers) {
  let taken = 0;
  for (const [seat, answer] of answers) {
    taken += 1;
    const round = game === null ? 0 : game.round;
    const why = apply(seat, answer.val);
    if (why !== null) return next(taken, why);
    if (game.round !== round) break;
  }
  return next(taken);
}

function apply(seat, heads) {
  if (game === null || seat > 1 || game.choices[seat] !== null) {
    return `seat ${seat} was not asked`;
  }
  game.choices[seat] = heads;
  kept.push({ to: { tag: "seat", val: seat }, text: `round ${game.round}: you chose ${coin(heads)}` });
  const [a, b] = game.choices;
  if (a !== null && b !== null) {
    // The players (and not the spectators) hear that the round is closed (a varicast).
    kept.push({ to: { tag: "seats", val: [0, 1] }, text: `round ${game.round}: both choices are in` });
    const winner = a === b ? 0 : 1;
    game.taken[winner] += 1;
    everyone(`round ${game.round}: ${coin(a)} and ${coin(b)}, seat ${winner} takes it`);
    game.choices = [null, null];
    game.round += 1;
  }
  return null;
}

export function banned(seat, fault) {
  if (game === null) return next();
  game.forfeit = Math.min(seat, 1);
  everyone(`seat ${seat} forfeits: ${fault.reason}`);
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
  if (game === null) return null;
  const scores = [...game.taken];
  let winners;
  if (game.forfeit !== null) winners = [1 - game.forfeit];
  else if (game.round <= game.rounds) return null;
  else if (game.taken[0] === game.taken[1]) winners = [0, 1];
  else winners = [game.taken[0] > game.taken[1] ? 0 : 1];
  return { scores, winners };
}

export function view(seat) {
  if (game === null) return "";
  const mine = seat !== null && seat <= 1 && game.choices[seat] !== null
    ? `, your choice this round: ${coin(game.choices[seat])}` : "";
  return `rounds taken: seat 0 ${game.taken[0]}, seat 1 ${game.taken[1]}${mine}`;
}
