//! A deliberately broken Nim referee, for the tests of game faults: it asks seats in turn and traps
//! when it is handed its second answer. A game it referees ends as a game fault; nobody is banned. With
//! the option `events=N` its `start` makes N events of `event-chars` characters each (1,000 unless that
//! option is set), all handed over by the first `events()` call: a flood of events. With `taken=N` its
//! `step` says it took N answers, whatever it was handed (a referee that breaks the protocol). With
//! `slow-events=N` every `events()` call spins N rounds of a loop and hands over one event, for ever.
//! With `bad-lengths=K` its first `events()` answers with lengths that do not fit its text: longer
//! (1), shorter (2), cutting a character in two (3), or adding up past `u32::MAX` (4). It exports
//! `step` in flat form too (the host calls that one); with `flat-bad=K` what that answers is broken:
//! a varint that never ends (1), a byte after the `next` (2), a request of case 7 of Nim's one (3),
//! 2 MiB, past the referee's answer limit (4), or well-formed but ending the game after the second
//! move, won by seat 0, where its typed `step` goes on (5). With `late=K` it fails once the game has
//! its outcome: in `view` (1) or in `events` (2). With `event-seat=N` its `start` emits an event to
//! seat N. With `flood-events=N` every `events()` call hands over N events of `event-chars`
//! characters, for ever: a referee at every per-call limit, stopped only by the game's record bound.
//! It serves a rule checker, `arena:nim/test-rules#stones`, that traps when the heaps hold 10 stones or fewer
//! stones (the `nim-checker` test player asks it before each move).
#![cfg(target_arch = "wasm32")]
// The generated lowering of the setup record takes many flat arguments.
#![allow(clippy::too_many_arguments)]

wit_bindgen::generate!({
    path: "../../../wit",
    inline: "package arena:nim-checked@0.1.0;
             world referee-checked { include arena:nim/referee-flat@0.1.0; export arena:nim/test-rules@0.1.0; }",
    world: "arena:nim-checked/referee-checked",
    generate_all,
    additional_derives: [serde::Serialize, serde::Deserialize],
});

use arena::game::types::Audience;
use arena::nim::types::State;
use std::cell::{Cell, RefCell};

thread_local! {
    static APPLIED: Cell<u32> = const { Cell::new(0) };
    /// In trusting mode, the heaps (empty otherwise) and the seat that took the last stone or was left.
    static HEAPS: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    static WINNER: Cell<Option<u32>> = const { Cell::new(None) };
    static MODE: Cell<usize> = const { Cell::new(0) };
    static EVENTS: RefCell<Option<Told>> = const { RefCell::new(None) };
    /// What `step` says it took, when set.
    static TAKEN: Cell<Option<u32>> = const { Cell::new(None) };
    /// How long each `events()` call spins, when it hands its events over slowly.
    static SLOW_EVENTS: Cell<Option<u64>> = const { Cell::new(None) };
    /// How the flat `step` breaks what it answers, when set.
    static FLAT_BAD: Cell<Option<usize>> = const { Cell::new(None) };
    /// Where it fails once the game has its outcome, when set.
    static LATE: Cell<Option<usize>> = const { Cell::new(None) };
    /// How many events of how many characters every `events()` call hands over, when set.
    static FLOOD: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
}

fn trusting() -> bool {
    HEAPS.with_borrow(|h| !h.is_empty())
}

struct Broken;

/// What the referee asks now.
fn requests() -> Vec<(u32, Request)> {
    let seat = APPLIED.get() % 2;
    if WINNER.get().is_some() {
        return vec![];
    }
    let heaps = if trusting() { HEAPS.with_borrow(Clone::clone) } else { vec![3, 4, 5] };
    vec![(seat, Request::TakeTurn(State { heaps, you: seat }))]
}

/// What comes next after a call that took `taken` answers: what it asks now.
fn next(taken: u32) -> Next {
    Next { requests: requests(), taken, refused: None }
}

/// Trusting mode's `apply`.
fn trusting_apply(seat: u32, answer: Answer) -> Result<(), String> {
    let Answer::TakeTurn(take) = answer;
    HEAPS.with_borrow_mut(|heaps| {
        // The bug of mode 1: the heap is not checked.
        if MODE.get() == 2 && take.heap as usize >= heaps.len() {
            return Err(format!("there is no heap {}", take.heap));
        }
        let heap = &mut heaps[take.heap as usize];
        if MODE.get() == 2 && take.count > *heap {
            let mut spin = 0u64;
            while std::hint::black_box(spin) != u64::MAX {
                spin = spin.wrapping_add(1);
            }
        }
        if take.count == 0 || take.count > *heap {
            return Err(format!("cannot take {} from {}", take.count, *heap));
        }
        *heap -= take.count;
        APPLIED.set(APPLIED.get() + 1);
        if heaps.iter().all(|&h| h == 0) {
            WINNER.set(Some(seat));
        }
        Ok(())
    })
}

impl Guest for Broken {
    fn start(setup: Setup) -> Result<Next, String> {
        let option = |name: &str| setup.options.iter().find(|(k, _)| k == name).and_then(|(_, v)| v.parse().ok());
        let flood = option("events").unwrap_or(0);
        let text = "x".repeat(option("event-chars").unwrap_or(1000));
        TAKEN.set(option("taken").map(|t| t as u32));
        SLOW_EVENTS.set(option("slow-events").map(|n| n as u64));
        FLAT_BAD.set(option("flat-bad"));
        LATE.set(option("late"));
        FLOOD.set(option("flood-events").filter(|&n| n > 0).map(|n| (n, text.len())));
        if let Some(mode) = option("trusting").filter(|&m| m > 0) {
            MODE.set(mode);
            HEAPS.set(vec![3, 4, 5]);
        }
        let len = text.len() as u32;
        let mut told = Told { text: text.repeat(flood), events: (0..flood).map(|_| (Audience::All, len)).collect() };
        if let Some(k) = option("bad-lengths") {
            let (text, lengths): (&str, &[u32]) = match k {
                1 => ("abc", &[2, 2]),
                2 => ("abcdef", &[2]),
                3 => ("é", &[1, 1]),
                _ => ("ab", &[u32::MAX, 3]),
            };
            told = Told { text: text.into(), events: lengths.iter().map(|&l| (Audience::All, l)).collect() };
        }
        if let Some(seat) = option("event-seat") {
            told.text.push_str("psst");
            told.events.push((Audience::Seat(seat as u32), 4));
        }
        EVENTS.set(Some(told));
        Ok(next(0))
    }

    /// One answer a call (the protocol allows it).
    fn step(answers: Vec<(u32, Answer)>) -> Next {
        if let Some(taken) = TAKEN.get() {
            return next(taken);
        }
        let Some((seat, answer)) = answers.into_iter().next() else { return next(0) };
        if trusting() {
            return match trusting_apply(seat, answer) {
                Ok(()) => next(1),
                Err(why) => Next { refused: Some(why), ..next(1) },
            };
        }
        APPLIED.set(APPLIED.get() + 1);
        if APPLIED.get() == 2 {
            panic!("the broken referee gives up");
        }
        next(1)
    }

    fn banned(seat: u32, _: Fault) -> Next {
        if trusting() {
            WINNER.set(Some(1 - seat.min(1)));
        }
        next(0)
    }

    /// Every event at once, however many; or, slowly, one a call for ever.
    fn events() -> Told {
        if LATE.get() == Some(2) && WINNER.get().is_some() {
            panic!("the broken referee fails in events after the outcome");
        }
        if let Some((n, chars)) = FLOOD.get() {
            return Told {
                text: "y".repeat(n * chars),
                events: (0..n).map(|_| (Audience::All, chars as u32)).collect(),
            };
        }
        if let Some(rounds) = SLOW_EVENTS.get() {
            let mut spin = 0u64;
            while std::hint::black_box(spin) < rounds {
                spin += 1;
            }
            return Told { text: "one more".into(), events: vec![(Audience::All, 8)] };
        }
        EVENTS.take().unwrap_or(Told { text: String::new(), events: Vec::new() })
    }

    fn outcome() -> Option<Outcome> {
        let w = WINNER.get()?;
        Some(Outcome { scores: (0..2).map(|s| i64::from(s == w)).collect(), winners: vec![w] })
    }

    fn view(_: Option<u32>) -> String {
        if LATE.get() == Some(1) && WINNER.get().is_some() {
            panic!("the broken referee fails in view after the outcome");
        }
        String::new()
    }
}

impl exports::arena::game::flat::Guest for Broken {
    fn step(answers: Vec<u8>) -> Vec<u8> {
        let answers: Vec<(u32, Answer)> = postcard::from_bytes(&answers).expect("the answers in flat form");
        let mut next = <Broken as Guest>::step(answers);
        if FLAT_BAD.get() == Some(5) && APPLIED.get() >= 2 && WINNER.get().is_none() {
            WINNER.set(Some(0));
            next.requests = requests();
        }
        let mut bytes = postcard::to_allocvec(&(&next.requests, next.taken, &next.refused)).expect("a next");
        match FLAT_BAD.get() {
            Some(1) => bytes = vec![0xff; 12],
            Some(2) => bytes.push(0),
            Some(3) => bytes = postcard::to_allocvec(&(vec![(0u32, 7u32)], 1u32, None::<String>)).expect("bytes"),
            Some(4) => bytes = vec![0; 2 << 20],
            _ => {}
        }
        bytes
    }
}

/// A rule checker for the tests of one that fails: how many stones the heaps hold, trapping when they
/// hold 10 or fewer (the `nim-checker` test player asks it before each move).
impl exports::arena::nim::test_rules::Guest for Broken {
    fn stones(heaps: Vec<u32>) -> u32 {
        let stones = heaps.iter().sum();
        if stones <= 10 {
            panic!("the broken referee's rule checker fails on 10 stones or fewer");
        }
        stones
    }
}

export!(Broken);
