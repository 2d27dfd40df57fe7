//! Whole games of minimax against the random player, the legality and determinism of both bots, and
//! the cost of a minimax decision.

use santorini_bots::{minimax, random};
use santorini_rules::{Cell, Phase, PlayerView, State, Turn};

/// A player: where to place, and which turn to take, given the game index as salt.
type Bot = (fn(&PlayerView, u64) -> Cell, fn(&PlayerView, u64) -> Turn);

const MINIMAX: Bot = (|v, _| minimax::place(v), |v, _| minimax::take_turn(v));
const RANDOM: Bot = (random::place_salted, random::take_turn_salted);

/// Plays one game; returns the winner and every state visited.
fn play_game(bots: [Bot; 2], salt: u64) -> (u8, Vec<State>) {
    let mut s = State::new();
    let mut seen = vec![s];
    for _ in 0..200 {
        let Some(p) = s.current() else {
            break;
        };
        let view = PlayerView { me: p, state: s };
        let (place, take_turn) = bots[usize::from(p)];
        s = match s.phase {
            Phase::Placement => {
                let c = place(&view, salt);
                s.place(c).unwrap_or_else(|e| panic!("player {p} placed illegally on {c}: {e}\n{}", s.render()))
            }
            _ => {
                let t = take_turn(&view, salt);
                s.play(t).unwrap_or_else(|e| panic!("player {p} played illegally {t:?}: {e}\n{}", s.render()))
            }
        };
        seen.push(s);
    }
    let winner = s.winner().expect("games end within 104 actions");
    (winner, seen)
}

#[test]
fn minimax_beats_random() {
    let mut wins = 0;
    let mut turns = 0;
    for game in 0..100u64 {
        let minimax_first = game % 2 == 0;
        let bots = if minimax_first { [MINIMAX, RANDOM] } else { [RANDOM, MINIMAX] };
        let (winner, seen) = play_game(bots, game);
        wins += u32::from((winner == 0) == minimax_first);
        turns += seen.len() - 5;
    }
    println!("minimax won {wins}/100 against random; {:.1} turns per game", turns as f64 / 100.0);
    assert!(wins > 90, "minimax won only {wins}/100");
}

#[test]
fn random_games_differ_and_minimax_is_deterministic() {
    let (_, a) = play_game([RANDOM, RANDOM], 1);
    let (_, b) = play_game([RANDOM, RANDOM], 2);
    assert_ne!(a, b);
    assert_eq!(play_game([RANDOM, RANDOM], 1).1, a);
    let (w1, m1) = play_game([MINIMAX, MINIMAX], 0);
    let (w2, m2) = play_game([MINIMAX, MINIMAX], 99);
    assert_eq!((w1, &m1), (w2, &m2), "minimax ignores the salt and is deterministic");
}

/// Random turns for the first `salt % 8` turns after the placement, then minimax.
const OPENING: Bot = (random::place_salted, |v, salt| {
    let turns_played = v.state.levels() as u64;
    if turns_played < salt % 8 { random::take_turn_salted(v, salt) } else { minimax::take_turn(v) }
});

/// Middle-game positions (two or more turns after the placement, game not over) from random games,
/// minimax against random, and minimax against itself after a random opening.
fn middle_games() -> Vec<State> {
    let mut out = Vec::new();
    let mut keep = |seen: &[State], every: usize| {
        for s in seen.iter().skip(6).step_by(every) {
            if s.phase == Phase::Playing {
                out.push(*s);
            }
        }
    };
    for game in 0..200u64 {
        keep(&play_game([RANDOM, RANDOM], 1000 + game).1, 1);
    }
    for game in 0..40u64 {
        keep(&play_game([MINIMAX, RANDOM], 2000 + game).1, 1);
        keep(&play_game([RANDOM, MINIMAX], 3000 + game).1, 1);
    }
    for game in 0..80u64 {
        keep(&play_game([OPENING, OPENING], 4000 + game).1, 1);
    }
    out
}

#[test]
fn bots_always_answer_legally() {
    for s in middle_games().into_iter().step_by(5) {
        let view = PlayerView { me: s.turn, state: s };
        for (name, (_, take_turn)) in [("minimax", MINIMAX), ("random", RANDOM)] {
            let t = take_turn(&view, 5);
            assert!(s.is_legal_turn(t), "{name} played {t:?} in\n{}", s.render());
            assert_eq!(t, take_turn(&view, 5), "{name} is not deterministic");
        }
    }
    // And during the placement.
    let mut s = State::new();
    while s.phase == Phase::Placement {
        let view = PlayerView { me: s.turn, state: s };
        assert!(s.is_legal_place(random::place(&view)));
        let c = minimax::place(&view);
        s = s.place(c).unwrap();
    }
}

/// The cost of a minimax decision over many middle-game positions, as `take_turn` makes it (run with
/// `--nocapture` to see it, in release mode for representative times).
#[test]
fn decision_cost() {
    let positions = middle_games();
    let (mut nodes, mut work, mut shallow) = (0, 0, 0);
    let mut worst = (0u64, 0u64, State::new());
    let mut worst_time = std::time::Duration::ZERO;
    let start = std::time::Instant::now();
    for s in &positions {
        let t0 = std::time::Instant::now();
        let view = PlayerView { me: s.turn, state: *s };
        let d = minimax::decide_within(&view, minimax::DEPTH, minimax::WORK_BUDGET).unwrap();
        worst_time = worst_time.max(t0.elapsed());
        assert_eq!(d.turn, minimax::take_turn(&view));
        nodes += d.nodes;
        work += d.work;
        shallow += u32::from(d.depth < minimax::DEPTH && d.score.abs() < minimax::WIN - 100);
        if d.work > worst.1 {
            worst = (d.nodes, d.work, *s);
        }
    }
    let n = positions.len() as u64;
    println!(
        "{n} positions: {} nodes and {} work on average, at most {} nodes and {} work; {shallow} searches cut short \
         by the budget; {:?} per decision on average, at most {:?}; the costliest:\n{}",
        nodes / n,
        work / n,
        worst.0,
        worst.1,
        start.elapsed() / n as u32,
        worst_time,
        worst.2.render()
    );
    assert!(worst.1 <= minimax::WORK_BUDGET + 200);
}

/// The costliest position of `decision_cost`, decided alone: measure it under `valgrind
/// --tool=callgrind --toggle-collect='*measured*'` to count instructions.
#[test]
fn worst_decision() {
    let mut s = State::new();
    for cell in [Cell::new(2, 1), Cell::new(1, 2), Cell::new(3, 3), Cell::new(0, 4)] {
        s = s.place(cell).unwrap();
    }
    s.heights[Cell::new(3, 1).index()] = 1;
    s.heights[Cell::new(4, 4).index()] = 1;
    let d = measured(&s);
    println!("{d:?}");
    assert!(s.is_legal_turn(d.turn));
}

#[inline(never)]
fn measured(s: &State) -> minimax::Decision {
    minimax::decide_within(&PlayerView { me: s.turn, state: *s }, minimax::DEPTH, minimax::WORK_BUDGET).unwrap()
}

/// Every `STEP`th position of `decision_cost` (default 20), or only the `ONLY`th of those, decided once
/// each, printing the work: under `valgrind --tool=callgrind --toggle-collect='*measured*'`, the
/// instructions per unit of work.
#[test]
#[ignore]
fn cost_sample() {
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<usize>().ok());
    let positions: Vec<State> = middle_games().into_iter().step_by(var("STEP").unwrap_or(20)).collect();
    let (mut work, mut nodes) = (0, 0);
    for (i, s) in positions.iter().enumerate() {
        if var("ONLY").is_some_and(|only| only != i) {
            continue;
        }
        let d = measured(s);
        println!("{i}: work {} nodes {} depth {}", d.work, d.nodes, d.depth);
        work += d.work;
        nodes += d.nodes;
    }
    println!("total work {work}, nodes {nodes}");
}
