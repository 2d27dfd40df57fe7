//! What the engine itself lets a guarded call cost, beside Arena's dynamic one (the `games` bench's
//! per-call figures): the same no-op `keep` with the same Yahtzee turn state lowered by wasmtime's
//! typed API (Rust types written for Yahtzee alone: a host that knows no game cannot have them, so
//! this is the ceiling of any cheaper lowering), a call handed the same request as its postcard bytes
//! (what a per-game adapter inside the sandbox, lowering the request itself, would be handed), and a
//! call with nothing to lower (a `u32` in and out), each guarded as a game guards a seat.

use arena_sandbox::{Guard, PlayerState, Sandbox};
use std::time::{Duration, Instant};
use wasmtime::component::{ComponentType, InstancePre, Lower};

#[derive(ComponentType, Lower, Clone)]
#[component(record)]
struct Scorecard {
    boxes: Vec<Option<u16>>,
    #[component(name = "upper-bonus")]
    upper_bonus: u16,
    #[component(name = "yahtzee-bonus")]
    yahtzee_bonus: u16,
    total: u16,
}

#[derive(ComponentType, Lower, Clone)]
#[component(record)]
struct GameScore {
    mine: u16,
    theirs: u16,
}

#[derive(ComponentType, Lower, Clone)]
#[component(record)]
struct MatchState {
    game: u32,
    #[component(name = "games-in-match")]
    games_in_match: u32,
    #[component(name = "my-wins")]
    my_wins: u32,
    #[component(name = "their-wins")]
    their_wins: u32,
    ties: u32,
    earlier: Vec<GameScore>,
}

/// The bench's turn state (`turn_state()` in games.rs), as Rust values.
#[derive(ComponentType, Lower, Clone)]
#[component(record)]
struct TurnState {
    turn: u8,
    dice: Vec<u8>,
    #[component(name = "rolls-left")]
    rolls_left: u8,
    mine: Scorecard,
    theirs: Scorecard,
    opponent: String,
    #[component(name = "match-state")]
    match_state: MatchState,
}

fn turn_state() -> TurnState {
    let card = Scorecard { boxes: vec![None; 13], upper_bonus: 0, yahtzee_bonus: 0, total: 0 };
    TurnState {
        turn: 1,
        dice: vec![1, 2, 3, 4, 5],
        rolls_left: 2,
        mine: card.clone(),
        theirs: card,
        opponent: "x".into(),
        match_state: MatchState { game: 1, games_in_match: 1, my_wins: 0, their_wins: 0, ties: 0, earlier: vec![] },
    }
}

/// A component whose export returns its argument: a call with nothing to lower but a number.
const ECHO: &str = r#"(component
  (core module $m (func (export "echo") (param i32) (result i32) local.get 0))
  (core instance $i (instantiate $m))
  (func (export "echo") (param "n" u32) (result u32) (canon lift (core func $i "echo")))
)"#;

/// A component whose export takes a list of bytes and answers an empty one (its allocator hands out
/// the same scratch space every time, so any number of calls fit in its page).
const BYTES: &str = r#"(component
  (core module $m
    (memory (export "memory") 1)
    (func (export "realloc") (param i32 i32 i32 i32) (result i32) i32.const 1024)
    (func (export "take") (param i32 i32) (result i32)
      (i32.store (i32.const 16) (i32.const 0))
      (i32.store (i32.const 20) (i32.const 0))
      i32.const 16))
  (core instance $i (instantiate $m))
  (func (export "take") (param "request" (list u8)) (result (list u8))
    (canon lift (core func $i "take") (memory (core memory $i "memory")) (realloc (core func $i "realloc"))))
)"#;

/// The turn state's length in postcard, the referee's flat form: the turn, five dice, the rolls left,
/// two cards of 13 open boxes and three zeros, a one-letter name, and the match state.
pub const TURN_STATE_BYTES: usize = 50;

/// The typed figures, each the median of five rounds of `n` calls: the no-op `keep` with the typed turn
/// state, bare and guarded, the request as bytes guarded, and the echo guarded.
pub struct Floor {
    pub typed_bare: Duration,
    pub typed_guarded: Duration,
    pub bytes_guarded: Duration,
    pub echo_guarded: Duration,
}

/// A component of the bench's own, instantiated in a fresh store of `sandbox`.
async fn instance_of(sandbox: &Sandbox, wat: &str) -> (wasmtime::Store<PlayerState>, wasmtime::component::Instance) {
    let component = wasmtime::component::Component::new(sandbox.engine(), wat).expect("the bench's component");
    let mut store = sandbox.store(1);
    let linker = wasmtime::component::Linker::<PlayerState>::new(sandbox.engine());
    let instance = linker.instantiate_async(&mut store, &component).await.expect("instantiate it");
    (store, instance)
}

/// Measures the floor on the no-op player's `keep` (one that frees its request after each call), and on
/// the bytes and echo components of its own.
pub async fn measure(sandbox: &Sandbox, noop: &InstancePre<PlayerState>) -> Floor {
    let state = turn_state();
    let mut store = sandbox.store(1);
    store.set_fuel(1_000_000).unwrap();
    store.set_epoch_deadline(1_000_000);
    let instance = noop.instantiate_async(&mut store).await.expect("instantiate the no-op player");
    let typed = instance
        .get_typed_func::<(&TurnState,), (Vec<u8>,)>(&mut store, "keep")
        .expect("keep takes a turn state, answers a list<u8>");
    let store = &mut store;
    let (mut echo_store, instance) = instance_of(sandbox, ECHO).await;
    let echo = instance.get_typed_func::<(u32,), (u32,)>(&mut echo_store, "echo").expect("echo");
    let (mut bytes_store, instance) = instance_of(sandbox, BYTES).await;
    let take = instance.get_typed_func::<(&[u8],), (Vec<u8>,)>(&mut bytes_store, "take").expect("take");
    let request = vec![1u8; TURN_STATE_BYTES];
    let (mut bare, mut guarded, mut echoed, mut bytes) = (vec![], vec![], vec![], vec![]);
    let n = 20_000u32;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..n {
            store.set_fuel(1_000_000).unwrap();
            store.set_epoch_deadline(1_000_000);
            let (kept,) = typed.call_async(&mut *store, (&state,)).await.expect("keep");
            assert!(kept.is_empty(), "the no-op keep keeps nothing");
        }
        bare.push(t.elapsed() / n);
        let t = Instant::now();
        for _ in 0..n {
            let guard = Guard::arm(sandbox, store, false, "keep");
            let r = guard.run(typed.call_async(&mut *store, (&state,))).await;
            guard.finish(store, r).expect("an answer");
        }
        guarded.push(t.elapsed() / n);
        let t = Instant::now();
        for i in 0..n {
            let guard = Guard::arm(sandbox, &mut echo_store, false, "echo");
            let r = guard.run(echo.call_async(&mut echo_store, (i,))).await;
            let ((back,), _) = guard.finish(&mut echo_store, r).expect("an answer");
            assert_eq!(back, i);
        }
        echoed.push(t.elapsed() / n);
        let t = Instant::now();
        for _ in 0..n {
            let guard = Guard::arm(sandbox, &mut bytes_store, false, "take");
            let r = guard.run(take.call_async(&mut bytes_store, (request.as_slice(),))).await;
            let ((answer,), _) = guard.finish(&mut bytes_store, r).expect("an answer");
            assert!(answer.is_empty());
        }
        bytes.push(t.elapsed() / n);
    }
    Floor {
        typed_bare: super::median(bare),
        typed_guarded: super::median(guarded),
        bytes_guarded: super::median(bytes),
        echo_guarded: super::median(echoed),
    }
}
