//! Whole games against the random player, with 2, 3 and 4 seats: every answer must be legal.

use std::time::{Duration, Instant};

use fish_rules::{Action, Board, Move, Phase, PlayerView, Pos, State};

type Bot = (fn(&PlayerView) -> Pos, fn(&PlayerView) -> Move);

const GREEDY: Bot = (fish_bots::greedy::place, fish_bots::greedy::take_turn);
const RANDOM: Bot = (fish_bots::random::place, fish_bots::random::take_turn);

/// A small referee: asks the seat to act, with the actions since its own last one, until the game is
/// over. Panics on an illegal or non-deterministic answer. Returns the final state and how long each
/// decision of each seat took.
fn play_game(board: Board, bots: &[Bot]) -> (State, Vec<Vec<Duration>>) {
    play_game_with_ban(board, bots, None)
}

/// [`play_game`], banning seat `ban.1` once `ban.0` actions have been made.
fn play_game_with_ban(board: Board, bots: &[Bot], ban: Option<(usize, u8)>) -> (State, Vec<Vec<Duration>>) {
    let mut s = State::new(board, bots.len() as u8).expect("a playable board");
    let mut log: Vec<Action> = Vec::new();
    let mut seen = vec![0usize; bots.len()];
    let mut times = vec![Vec::new(); bots.len()];
    while s.current().is_some() {
        if let Some((at, seat)) = ban
            && at == log.len()
        {
            s = s.remove(seat);
        }
        let Some(seat) = s.current() else {
            break;
        };
        let i = usize::from(seat);
        let view = PlayerView { me: seat, state: s.clone(), actions_since: log[seen[i]..].to_vec() };
        let (place, take_turn) = bots[i];
        let t = Instant::now();
        let action = match s.phase {
            Phase::Placement => Action::Place { seat, pos: place(&view) },
            Phase::Playing => Action::Move { seat, mv: take_turn(&view) },
            Phase::Over => unreachable!(),
        };
        times[i].push(t.elapsed());
        let again = match s.phase {
            Phase::Placement => Action::Place { seat, pos: place(&view) },
            _ => Action::Move { seat, mv: take_turn(&view) },
        };
        assert_eq!(action, again, "same view, same answer");
        s = s.apply(&action).unwrap_or_else(|e| panic!("seat {seat}: {action}: {e}\n{}", s.render()));
        log.push(action);
        seen[i] = log.len();
    }
    (s, times)
}

#[test]
fn greedy_beats_random() {
    let (mut wins, mut greedy_sum, mut random_sum) = (0, 0u32, 0u32);
    for seed in 0..100u64 {
        let board = Board::generate(seed, 5, 5, 2).unwrap();
        // Alternate who plays first.
        let g = (seed % 2) as usize;
        let bots = if g == 0 { [GREEDY, RANDOM] } else { [RANDOM, GREEDY] };
        let (s, _) = play_game(board, &bots);
        assert!(s.is_over());
        wins += u32::from(s.winners() == vec![g as u8]);
        greedy_sum += s.scores()[g];
        random_sum += s.scores()[1 - g];
    }
    let (g_avg, r_avg) = (f64::from(greedy_sum) / 100.0, f64::from(random_sum) / 100.0);
    println!("greedy won {wins}/100 on 5x5; average fish greedy {g_avg:.1}, random {r_avg:.1}");
    assert!(wins > 90, "greedy won only {wins}/100");
}

#[test]
fn greedy_beats_random_on_bigger_boards() {
    let mut wins = 0;
    for seed in 0..20u64 {
        let board = Board::generate(1000 + seed, 8, 8, 6).unwrap();
        let g = (seed % 2) as usize;
        let bots = if g == 0 { [GREEDY, RANDOM] } else { [RANDOM, GREEDY] };
        let (s, _) = play_game(board, &bots);
        wins += u32::from(s.winners() == vec![g as u8]);
    }
    println!("greedy won {wins}/20 on 8x8");
    assert!(wins >= 18, "greedy won only {wins}/20 on 8x8");
}

#[test]
fn three_and_four_player_games() {
    let mut greedy_wins = 0;
    for seed in 0..8u64 {
        let board = Board::generate(seed, 6, 6, 3).unwrap();
        let bots = [RANDOM, GREEDY, RANDOM];
        let (s, _) = play_game(board, &bots);
        assert!(s.is_over());
        assert!(s.players.iter().all(|p| p.penguins.len() == 3));
        greedy_wins += u32::from(s.winners().contains(&1));

        let board = Board::generate(seed, 8, 8, 4).unwrap();
        let bots = if seed % 2 == 0 { [GREEDY, RANDOM, RANDOM, RANDOM] } else { [GREEDY, RANDOM, GREEDY, RANDOM] };
        let (s, _) = play_game(board, &bots);
        assert!(s.is_over());
        assert!(s.players.iter().all(|p| p.penguins.len() == 2));
        greedy_wins += u32::from(s.winners().iter().any(|&w| w == 0 || (seed % 2 == 1 && w == 2)));
    }
    println!("greedy won {greedy_wins}/16 games of 3 and 4 players");
    assert!(greedy_wins >= 12, "greedy won only {greedy_wins}/16");
}

#[test]
fn games_go_on_after_a_ban() {
    // A seat banned during placement, and one in the middle of play: the others play on, legally.
    for (seed, at, seat) in [(1u64, 3, 2u8), (2, 20, 0), (3, 30, 3), (4, 0, 1)] {
        let board = Board::generate(seed, 7, 7, 4).unwrap();
        let bots = [GREEDY, RANDOM, GREEDY, RANDOM];
        let (s, _) = play_game_with_ban(board, &bots, Some((at, seat)));
        assert!(s.is_over());
        assert!(s.players[usize::from(seat)].out);
        assert!(!s.winners().contains(&seat));
        assert!(!s.winners().is_empty());
    }
}

#[test]
fn greedy_against_itself_on_odd_boards() {
    // Narrow, big and holey boards: the search copes with every shape and still answers legally.
    for (seed, rows, cols, holes, n) in [(1, 2, 5, 0, 2), (2, 16, 16, 0, 2), (3, 3, 16, 20, 3), (4, 16, 3, 30, 4)] {
        let board = Board::generate(seed, rows, cols, holes).unwrap();
        let bots = vec![GREEDY; n];
        let (s, times) = play_game(board, &bots);
        let slowest = times.iter().flatten().max().unwrap();
        assert!(s.is_over());
        println!("{rows}x{cols}, {n} greedy players: slowest decision {slowest:?}");
    }
}

/// The cost of greedy decisions on boards from 6x6 to 16x16 (run with
/// `--release -- --ignored --nocapture --test-threads=1`).
#[test]
#[ignore]
fn decision_cost() {
    for (rows, cols) in [(6, 6), (8, 8), (10, 10), (16, 16)] {
        let mut all = Vec::new();
        for seed in 0..10u64 {
            let board = Board::generate(seed, rows, cols, 0).unwrap();
            for bots in [[GREEDY, RANDOM], [GREEDY, GREEDY]] {
                let (_, times) = play_game(board.clone(), &bots);
                all.extend_from_slice(&times[0]);
            }
        }
        all.sort();
        let mean = all.iter().sum::<Duration>() / all.len() as u32;
        let (median, p99, max) = (all[all.len() / 2], all[all.len() * 99 / 100], all[all.len() - 1]);
        println!(
            "{rows}x{cols}: {} greedy decisions, mean {mean:?}, median {median:?}, 99th percentile {p99:?}, max {max:?}",
            all.len()
        );
    }
}
