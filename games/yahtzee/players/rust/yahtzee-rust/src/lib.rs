//! yahtzee-rust: the strategy every language's Yahtzee sample plays (yahtzee-c's, whose comments say
//! why), in Rust over the WIT bindings: keep made hands, 4-long straights or the most useful face; score
//! the legal box with the best score over par, asking the host's rule checker. The per-language benchmark
//! measures it against its twins, which answer exactly as it does, seed for seed.
#![cfg(target_arch = "wasm32")]

use yahtzee_guest::CATEGORIES;
use yahtzee_guest::bindings::arena::yahtzee::rules::score;
use yahtzee_guest::wit::{Category, GameInfo, TournamentInfo, TurnState};

/// What a box is worth kept open for later, in tenths of a point (yahtzee-c's table).
const PAR: [i32; 13] = [21, 53, 86, 122, 157, 192, 217, 131, 226, 295, 327, 169, 220];
const ONES: usize = 0;
const SIXES: usize = 5;
const THREE_KIND: usize = 6;
const FOUR_KIND: usize = 7;
const FULL_HOUSE: usize = 8;
const SMALL_STRAIGHT: usize = 9;
const LARGE_STRAIGHT: usize = 10;
const YAHTZEE: usize = 11;
const CHANCE: usize = 12;

struct View {
    dice: [u8; 5],
    counts: [usize; 7],
    open: [bool; 13],
    max_count: usize,
    run: u8,
    run_start: u8,
}

fn view(s: &TurnState) -> Option<View> {
    if s.dice.len() != 5 {
        return None;
    }
    let mut v = View { dice: [0; 5], counts: [0; 7], open: [true; 13], max_count: 0, run: 0, run_start: 1 };
    for (i, &d) in s.dice.iter().enumerate() {
        if !(1..=6).contains(&d) {
            return None;
        }
        v.dice[i] = d;
        v.counts[d as usize] += 1;
    }
    if s.mine.boxes.len() == 13 {
        for (o, b) in v.open.iter_mut().zip(&s.mine.boxes) {
            *o = b.is_none();
        }
    }
    for f in (1..=6).rev() {
        if v.counts[f] > v.max_count {
            v.max_count = v.counts[f];
        }
    }
    let mut len = 0;
    for f in 1..=6u8 {
        len = if v.counts[f as usize] > 0 { len + 1 } else { 0 };
        if len > v.run {
            v.run = len;
            v.run_start = f - len + 1;
        }
    }
    Some(v)
}

fn keep_face(v: &View, face: usize, out: &mut Vec<u8>) {
    out.extend(std::iter::repeat_n(face as u8, v.counts[face]));
}

fn keep(s: &TurnState) -> Vec<u8> {
    let Some(v) = view(s) else { return Vec::new() };
    let straights = v.open[SMALL_STRAIGHT] || v.open[LARGE_STRAIGHT];
    let pairs = (1..=6).filter(|&f| v.counts[f] == 2).count();
    let trips = (1..=6).filter(|&f| v.counts[f] == 3).count();
    // Made hands.
    if v.max_count == 5
        || (v.run == 5 && v.open[LARGE_STRAIGHT])
        || (v.run >= 4 && v.open[SMALL_STRAIGHT] && !v.open[LARGE_STRAIGHT])
        || (trips > 0 && pairs > 0 && v.open[FULL_HOUSE])
    {
        return v.dice.to_vec();
    }
    // Draws: a 4-long straight, two pairs for a full house, a 3-long straight when nothing pairs up.
    if v.run >= 4 && v.open[LARGE_STRAIGHT] {
        return (0..4).map(|i| v.run_start + i).collect();
    }
    let mut out = Vec::with_capacity(5);
    if pairs == 2 && v.open[FULL_HOUSE] {
        (1..=6).filter(|&f| v.counts[f] == 2).for_each(|f| keep_face(&v, f, &mut out));
        return out;
    }
    if v.run >= 3 && v.max_count == 1 && straights {
        return (0..3).map(|i| v.run_start + i).collect();
    }
    // Otherwise the face with the most dice, preferring one whose upper box is open, then high faces.
    let of_a_kind = v.open[THREE_KIND] || v.open[FOUR_KIND] || v.open[YAHTZEE];
    let (mut best, mut best_value) = (0, -1);
    for f in 1..=6 {
        if v.counts[f] == 0 {
            continue;
        }
        let value =
            v.counts[f] as i32 * 10 + f as i32 + if v.open[f - 1] { 4 } else { 0 } + if of_a_kind { 2 } else { 0 };
        if value > best_value {
            (best, best_value) = (f, value);
        }
    }
    keep_face(&v, best, &mut out);
    out
}

fn choose(s: &TurnState) -> usize {
    let Some(v) = view(s) else { return CHANCE };
    let (mut best, mut best_value) = (None, 0);
    for c in ONES..=CHANCE {
        if !v.open[c] {
            continue; // a used box is never allowed
        }
        let Some(points) = score(&s.mine, &v.dice, CATEGORIES[c]) else { continue };
        let mut value = i32::from(points) * 10 - PAR[c];
        // Three or more of a face in its upper box keeps the 35-point bonus within reach.
        if c <= SIXES && v.counts[c + 1] >= 3 && s.mine.upper_bonus == 0 {
            value += 30;
        }
        if best.is_none() || value > best_value {
            (best, best_value) = (Some(c), value);
        }
    }
    best.or_else(|| (ONES..=CHANCE).find(|&c| v.open[c])).unwrap_or(CHANCE)
}

struct Player;

impl yahtzee_guest::bindings::Guest for Player {
    fn tournament_start(_: TournamentInfo) {}
    fn game_start(_: GameInfo) {}
    fn keep(s: TurnState) -> Vec<u8> {
        keep(&s)
    }
    fn choose(s: TurnState) -> Category {
        CATEGORIES[choose(&s)]
    }
    fn tournament_end(_: bool) {}
}

yahtzee_guest::bindings::export!(Player with_types_in yahtzee_guest::bindings);
