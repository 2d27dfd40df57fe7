//! The fuzzer `arena check-game` seats in place of a player: it answers requests with random values of
//! the answer's type (edge values first among them: empty and maximal lists, extreme integers, long
//! strings up to the answer limit, every variant case), so a referee meets answers its sample players
//! never give, or with the player's own answer changed in one place (answers just outside the legal
//! ones). Seeded from the game's seed: the same game fuzzes the same way again.

use super::values::size;
use arena_core::seed::mix;
use wasmtime::component::Val;
use wasmtime::component::types::Type;

/// A seat played by the fuzzer: one request in `every` (1: every request) is answered with a random
/// value, the others by the seat's own player, so the random answers meet the game in every state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fuzz {
    pub seat: usize,
    pub every: u32,
}

/// A stream of random numbers: SplitMix64 over a counter.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(mix(seed ^ 0x6675_7a7a))
    }

    pub fn draw(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(1);
        mix(self.0)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.draw() % n }
    }

    fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
}

/// The fuzzer of one seat for one game.
pub(crate) struct Fuzzer {
    every: u32,
    rng: Rng,
    /// The largest answer made, as [`size`] counts it: the limit a player's answer has.
    limit: usize,
}

impl Fuzzer {
    pub(crate) fn new(every: u32, seed: u64, limit: usize) -> Fuzzer {
        Fuzzer { every: every.max(1), rng: Rng::new(seed), limit }
    }

    /// What to do with this request: let the player answer, answer it with a random value, or mutate
    /// the player's answer.
    pub(crate) fn decide(&mut self) -> Action {
        if !self.rng.one_in(u64::from(self.every)) {
            Action::Player
        } else if self.rng.one_in(2) {
            Action::Random
        } else {
            Action::Mutate
        }
    }

    /// A random answer of type `ty` (`None` for an answer without payload).
    pub(crate) fn random(&mut self, ty: Option<&Type>) -> Option<Val> {
        let mut budget = self.limit;
        ty.map(|t| random(t, &mut self.rng, &mut budget, 0))
    }

    /// The player's `answer` with one part of it changed (a field, an item, a payload, a number nudged
    /// by one): answers near the legal ones, which a referee's bounds checks meet.
    pub(crate) fn mutate(&mut self, answer: Option<Val>, ty: Option<&Type>) -> Option<Val> {
        let (Some(mut v), Some(ty)) = (answer, ty) else { return self.random(ty) };
        let mut budget = self.limit.saturating_sub(size(&v));
        mutate(&mut v, ty, &mut self.rng, &mut budget, 0);
        Some(v)
    }
}

/// What the fuzzer does with one request.
pub(crate) enum Action {
    Player,
    Random,
    Mutate,
}

/// Changes one part of `v` (of type `ty`).
fn mutate(v: &mut Val, ty: &Type, rng: &mut Rng, budget: &mut usize, depth: u32) {
    if depth < MAX_DEPTH && !rng.one_in(4) {
        match (&mut *v, ty) {
            (Val::Record(fields), Type::Record(r)) if !fields.is_empty() => {
                let i = rng.below(fields.len() as u64) as usize;
                if let Some(f) = r.fields().nth(i) {
                    return mutate(&mut fields[i].1, &f.ty, rng, budget, depth + 1);
                }
            }
            (Val::Tuple(items), Type::Tuple(t)) if !items.is_empty() => {
                let i = rng.below(items.len() as u64) as usize;
                if let Some(t) = t.types().nth(i) {
                    return mutate(&mut items[i], &t, rng, budget, depth + 1);
                }
            }
            (Val::List(items), Type::List(l)) if !items.is_empty() => {
                let i = rng.below(items.len() as u64) as usize;
                match rng.below(3) {
                    0 => {
                        items.remove(i);
                    }
                    // A copy of an item, while the answer stays within its limit.
                    1 if size(&items[i]) <= *budget => {
                        *budget -= size(&items[i]);
                        items.push(items[i].clone());
                    }
                    _ => mutate(&mut items[i], &l.ty(), rng, budget, depth + 1),
                }
                return;
            }
            (Val::Variant(case, Some(payload)), Type::Variant(t)) => {
                if let Some(ty) = t.cases().find(|c| c.name == *case).and_then(|c| c.ty) {
                    return mutate(payload, &ty, rng, budget, depth + 1);
                }
            }
            (Val::Option(Some(inner)), Type::Option(o)) => return mutate(inner, &o.ty(), rng, budget, depth + 1),
            (Val::Result(Ok(Some(inner))), Type::Result(r)) => {
                if let Some(ty) = r.ok() {
                    return mutate(inner, &ty, rng, budget, depth + 1);
                }
            }
            _ => {}
        }
    }
    *v = match nudged(v, rng) {
        Some(n) => n,
        None => random(ty, rng, budget, depth),
    };
}

/// An integer one more or one less than `v`, half the time (`None`: pick a random value instead).
fn nudged(v: &Val, rng: &mut Rng) -> Option<Val> {
    if rng.one_in(2) {
        return None;
    }
    let up = rng.one_in(2);
    macro_rules! by_one {
        ($v:ident, $n:expr) => {
            Val::$v(if up { $n.wrapping_add(1) } else { $n.wrapping_sub(1) })
        };
    }
    Some(match *v {
        Val::S8(n) => by_one!(S8, n),
        Val::U8(n) => by_one!(U8, n),
        Val::S16(n) => by_one!(S16, n),
        Val::U16(n) => by_one!(U16, n),
        Val::S32(n) => by_one!(S32, n),
        Val::U32(n) => by_one!(U32, n),
        Val::S64(n) => by_one!(S64, n),
        Val::U64(n) => by_one!(U64, n),
        _ => return None,
    })
}

/// The most nested levels generated; deeper values are the smallest of their type.
const MAX_DEPTH: u32 = 12;
/// What one value of any type costs at least, as [`size`] counts it.
const WORD: usize = 8;

/// A random value of `ty`, costing at most about `budget` (as [`size`] counts), which it lowers.
pub fn random(ty: &Type, rng: &mut Rng, budget: &mut usize, depth: u32) -> Val {
    let v = if depth > MAX_DEPTH || *budget < WORD { smallest(ty) } else { pick(ty, rng, budget, depth) };
    *budget = budget.saturating_sub(match &v {
        // A container's contents were charged as they were made.
        Val::List(_) | Val::Record(_) | Val::Tuple(_) | Val::Variant(..) | Val::Option(_) | Val::Result(_) => WORD,
        v => size(v),
    });
    v
}

fn pick(ty: &Type, rng: &mut Rng, budget: &mut usize, depth: u32) -> Val {
    // Edge values one time in two, else anything in range.
    let edge = rng.one_in(2);
    macro_rules! int {
        ($v:ident, $t:ty) => {{
            let edges = [0 as $t, 1 as $t, <$t>::MAX, <$t>::MIN, <$t>::MAX.wrapping_sub(1), (0 as $t).wrapping_sub(1)];
            let small = (rng.below(16)) as $t;
            Val::$v(match (edge, rng.below(3)) {
                (true, _) => edges[rng.below(edges.len() as u64) as usize],
                (false, 0) => small,
                _ => rng.draw() as $t,
            })
        }};
    }
    match ty {
        Type::Bool => Val::Bool(rng.one_in(2)),
        Type::S8 => int!(S8, i8),
        Type::U8 => int!(U8, u8),
        Type::S16 => int!(S16, i16),
        Type::U16 => int!(U16, u16),
        Type::S32 => int!(S32, i32),
        Type::U32 => int!(U32, u32),
        Type::S64 => int!(S64, i64),
        Type::U64 => int!(U64, u64),
        Type::Float32 => Val::Float32(float(rng, edge) as f32),
        Type::Float64 => Val::Float64(float(rng, edge)),
        Type::Char => Val::Char(character(rng, edge)),
        Type::String => {
            let room = budget.saturating_sub(WORD);
            let len = length(rng, edge, room);
            let s: String = if rng.one_in(2) {
                // Long strings of one letter reach the limit cheaply; a last multi-byte one tests cuts.
                let mut s = "x".repeat(len.saturating_sub(4));
                if len >= 4 {
                    s.push('\u{1F3B2}');
                }
                s
            } else {
                let mut s = String::new();
                while s.len() < len {
                    let edge = rng.one_in(4);
                    s.push(character(rng, edge));
                }
                while s.len() > room {
                    s.pop();
                }
                s
            };
            Val::String(s)
        }
        Type::List(l) => {
            let elem = l.ty();
            let each = min_size(&elem).max(1);
            let most = budget.saturating_sub(WORD) / each;
            let len = length(rng, edge, most);
            // Charged item by item; `random` charges one more word for the list itself.
            let mut items = Vec::with_capacity(len);
            for _ in 0..len {
                if *budget < each + WORD {
                    break;
                }
                items.push(random(&elem, rng, budget, depth + 1));
            }
            Val::List(items)
        }
        Type::Tuple(t) => Val::Tuple(t.types().map(|t| random(&t, rng, budget, depth + 1)).collect()),
        Type::Record(r) => {
            Val::Record(r.fields().map(|f| (f.name.to_string(), random(&f.ty, rng, budget, depth + 1))).collect())
        }
        Type::Variant(v) => {
            let cases: Vec<_> = v.cases().collect();
            let c = &cases[rng.below(cases.len() as u64) as usize];
            Val::Variant(c.name.to_string(), c.ty.as_ref().map(|t| Box::new(random(t, rng, budget, depth + 1))))
        }
        Type::Enum(e) => {
            let names: Vec<&str> = e.names().collect();
            Val::Enum(names[rng.below(names.len() as u64) as usize].to_string())
        }
        Type::Option(o) => {
            Val::Option(if rng.one_in(3) { None } else { Some(Box::new(random(&o.ty(), rng, budget, depth + 1))) })
        }
        Type::Result(r) => {
            let side = |t: Option<Type>, rng: &mut Rng, budget: &mut usize| {
                t.map(|t| Box::new(random(&t, rng, budget, depth + 1)))
            };
            if rng.one_in(2) {
                Val::Result(Ok(side(r.ok(), rng, budget)))
            } else {
                Val::Result(Err(side(r.err(), rng, budget)))
            }
        }
        Type::Flags(f) => Val::Flags(f.names().filter(|_| rng.one_in(2)).map(str::to_string).collect()),
        other => smallest(other),
    }
}

/// A length up to `most`: 0, 1, `most` itself, or anything between.
fn length(rng: &mut Rng, edge: bool, most: usize) -> usize {
    let most = most as u64;
    (match (edge, rng.below(3)) {
        (true, 0) => 0,
        (true, 1) => most.min(1),
        (true, _) => most,
        (false, 0) => rng.below(most.min(8) + 1),
        _ => rng.below(most + 1),
    }) as usize
}

fn float(rng: &mut Rng, edge: bool) -> f64 {
    let edges = [0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN_POSITIVE, 1.0, -1.0];
    if edge { edges[rng.below(edges.len() as u64) as usize] } else { f64::from_bits(rng.draw()) }
}

fn character(rng: &mut Rng, edge: bool) -> char {
    let edges = ['\0', '\n', '"', '\\', '<', '\u{7f}', '\u{fffd}', '\u{10ffff}', 'é', '\u{202e}'];
    if edge {
        edges[rng.below(edges.len() as u64) as usize]
    } else {
        char::from_u32(rng.below(0x7f - 0x20) as u32 + 0x20).unwrap_or('?')
    }
}

/// The least a value of `ty` costs, as [`size`] counts it.
fn min_size(ty: &Type) -> usize {
    match ty {
        Type::Record(r) => r.fields().map(|f| min_size(&f.ty)).sum::<usize>().max(WORD),
        Type::Tuple(t) => t.types().map(|t| min_size(&t)).sum::<usize>().max(WORD),
        _ => WORD,
    }
}

/// The smallest value of `ty`: zeros, empty strings and lists, the first case without its payload's
/// contents.
pub fn smallest(ty: &Type) -> Val {
    match ty {
        Type::Bool => Val::Bool(false),
        Type::S8 => Val::S8(0),
        Type::U8 => Val::U8(0),
        Type::S16 => Val::S16(0),
        Type::U16 => Val::U16(0),
        Type::S32 => Val::S32(0),
        Type::U32 => Val::U32(0),
        Type::S64 => Val::S64(0),
        Type::U64 => Val::U64(0),
        Type::Float32 => Val::Float32(0.0),
        Type::Float64 => Val::Float64(0.0),
        Type::Char => Val::Char('a'),
        Type::String => Val::String(String::new()),
        Type::List(_) => Val::List(Vec::new()),
        Type::Tuple(t) => Val::Tuple(t.types().map(|t| smallest(&t)).collect()),
        Type::Record(r) => Val::Record(r.fields().map(|f| (f.name.to_string(), smallest(&f.ty))).collect()),
        Type::Variant(v) => match v.cases().next() {
            Some(c) => Val::Variant(c.name.to_string(), c.ty.as_ref().map(|t| Box::new(smallest(t)))),
            None => Val::Bool(false),
        },
        Type::Enum(e) => Val::Enum(e.names().next().unwrap_or_default().to_string()),
        Type::Option(_) => Val::Option(None),
        Type::Result(r) => Val::Result(Ok(r.ok().map(|t| Box::new(smallest(&t))))),
        Type::Flags(_) => Val::Flags(Vec::new()),
        // No game's answer carries resources or async values; a referee typed so refuses the value.
        _ => Val::Bool(false),
    }
}
