//! Where a player's fuel goes (`--profile`): while a profiled player's wasm runs, the epoch callback
//! samples its stack on every tick (functions named by the component's name section, where it has one).
//! When the call ends, the fuel it burnt is shared among its samples, evenly: samples come at even
//! intervals of its running time. (The fuel left cannot be read at a sample: inside the epoch check,
//! wasmtime has not written the running code's count back.) A call no sample caught, shorter than a
//! tick, is counted apart, not guessed at.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A player's samples: per stack (outermost frame first, `;` between frames), the fuel charged to it
/// and how many samples found it.
#[derive(Debug, Default, Clone)]
pub struct Profile {
    stacks: HashMap<String, (u64, u64)>,
    /// Fuel spent in calls no sample caught.
    pub unsampled_fuel: u64,
    /// The call under way: the fuel it started with, and its samples per stack.
    call_fuel: u64,
    pending: Vec<(String, u64)>,
}

/// A profile shared by every game of one player: each game's seats add theirs when they end.
pub type ProfileSink = Arc<Mutex<Profile>>;

/// One function's share: fuel spent in it (self) and under it (total, itself included), and samples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionFuel {
    pub function: String,
    pub self_fuel: u64,
    pub total_fuel: u64,
    pub samples: u64,
}

impl Profile {
    /// A call starts with `fuel`.
    pub(crate) fn arm(&mut self, fuel: u64) {
        self.call_fuel = fuel;
        self.pending.clear();
    }

    /// A sample: the stack now.
    pub(crate) fn sample(&mut self, stack: String) {
        match self.pending.iter_mut().find(|(s, _)| *s == stack) {
            Some((_, n)) => *n += 1,
            None => self.pending.push((stack, 1)),
        }
    }

    /// The call ends with `fuel_left`: what it spent is shared among its samples (the remainder of
    /// the division to the most sampled stack), or counted apart when none caught it.
    pub(crate) fn end(&mut self, fuel_left: u64) {
        let spent = self.call_fuel.saturating_sub(fuel_left);
        self.call_fuel = fuel_left;
        let n: u64 = self.pending.iter().map(|(_, k)| k).sum();
        if n == 0 {
            self.unsampled_fuel += spent;
            return;
        }
        self.pending.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let share = |k: u64| (u128::from(spent) * u128::from(k) / u128::from(n)) as u64;
        let remainder = spent - self.pending.iter().map(|(_, k)| share(*k)).sum::<u64>();
        for (i, (stack, k)) in std::mem::take(&mut self.pending).into_iter().enumerate() {
            let e = self.stacks.entry(stack).or_default();
            e.0 += share(k) + if i == 0 { remainder } else { 0 };
            e.1 += k;
        }
    }

    /// Adds `other`'s samples to these.
    pub fn merge(&mut self, other: &Profile) {
        for (stack, (fuel, n)) in &other.stacks {
            let e = self.stacks.entry(stack.clone()).or_default();
            e.0 += fuel;
            e.1 += n;
        }
        self.unsampled_fuel += other.unsampled_fuel;
    }

    /// The fuel the samples charged, and how many there were.
    pub fn sampled(&self) -> (u64, u64) {
        self.stacks.values().fold((0, 0), |(f, n), (fuel, k)| (f + fuel, n + k))
    }

    /// The stacks as "folded" lines (`outer;…;inner FUEL`), heaviest first: what flame-graph tools
    /// (inferno, speedscope, flamegraph.pl) read, and a person too.
    pub fn folded(&self) -> String {
        let mut rows: Vec<(&String, &(u64, u64))> = self.stacks.iter().collect();
        rows.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
        let mut out = String::new();
        for (stack, (fuel, _)) in rows {
            out.push_str(&format!("{stack} {fuel}\n"));
        }
        if self.unsampled_fuel > 0 {
            out.push_str(&format!("[calls_too_short_for_a_sample] {}\n", self.unsampled_fuel));
        }
        out
    }

    /// Each function's fuel, the costliest (by self fuel) first.
    pub fn functions(&self) -> Vec<FunctionFuel> {
        let mut by: HashMap<&str, FunctionFuel> = HashMap::new();
        for (stack, (fuel, n)) in &self.stacks {
            let frames: Vec<&str> = stack.split(';').collect();
            for (i, f) in frames.iter().enumerate() {
                let e = by.entry(f).or_insert_with(|| FunctionFuel {
                    function: f.to_string(),
                    self_fuel: 0,
                    total_fuel: 0,
                    samples: 0,
                });
                // A recursive function is counted once per stack in its total.
                if !frames[..i].contains(f) {
                    e.total_fuel += fuel;
                    e.samples += n;
                }
                if i + 1 == frames.len() {
                    e.self_fuel += fuel;
                }
            }
        }
        let mut rows: Vec<FunctionFuel> = by.into_values().collect();
        rows.sort_by(|a, b| {
            b.self_fuel.cmp(&a.self_fuel).then(b.total_fuel.cmp(&a.total_fuel)).then(a.function.cmp(&b.function))
        });
        rows
    }
}

/// The stack of the wasm running in `store` now, outermost first, `;` between frames.
pub(crate) fn stack(store: impl wasmtime::AsContext) -> String {
    let trace = wasmtime::WasmBacktrace::capture(store);
    let mut frames: Vec<String> = trace
        .frames()
        .iter()
        .map(|f| match f.func_name() {
            Some(name) => name.to_string(),
            None => format!("{}!func[{}]", f.module().name().unwrap_or("module"), f.func_index()),
        })
        .map(|s| s.replace([';', ' ', '\n'], "_"))
        .collect();
    frames.reverse();
    if frames.is_empty() {
        return "[outside wasm]".into();
    }
    frames.join(";")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_calls_fuel_is_shared_among_its_samples_and_functions_add_up_self_and_total() {
        let mut p = Profile::default();
        p.arm(1000);
        for _ in 0..3 {
            p.sample("main;hot".into());
        }
        p.sample("main;cold".into());
        p.end(600);
        // A call no sample caught.
        p.arm(600);
        p.end(550);
        assert_eq!(p.sampled(), (400, 4));
        assert_eq!(p.unsampled_fuel, 50);
        let f = p.functions();
        assert_eq!((f[0].function.as_str(), f[0].self_fuel, f[0].total_fuel), ("hot", 300, 300));
        let main = f.iter().find(|r| r.function == "main").unwrap();
        assert_eq!((main.self_fuel, main.total_fuel, main.samples), (0, 400, 4));
        assert!(p.folded().starts_with("main;hot 300\nmain;cold 100\n"), "{}", p.folded());
        let mut q = Profile::default();
        q.merge(&p);
        q.merge(&p);
        assert_eq!(q.sampled(), (800, 8));
    }
}
