//! The metering floor read beside each game: the greedy Yahtzee player's first `keep` natively and in
//! wasm with fuel and epochs (as Arena runs every guest), in alternating rounds. A game's ratio and the
//! floor it is judged against are then taken within the same second on a shared machine, where a floor
//! read once at the start of the bench moved between 1.22x and 2.15x from one run to the next.

use arena_play::values;
use std::path::Path;
use std::time::Instant;
use wasmtime::component::{Func, Val};

pub struct FloorProbe {
    store: wasmtime::Store<()>,
    keep: Func,
    params: [Val; 1],
    results: [Val; 1],
    view: yahtzee_rules::PlayerView,
}

impl FloorProbe {
    /// The greedy player compiled with fuel and epochs, asked `view` natively and `state` (the same
    /// turn) in wasm.
    pub async fn new(greedy: &Path, view: yahtzee_rules::PlayerView, state: &serde_json::Value) -> FloorProbe {
        let (store, keep, params) = greedy_keep(greedy, state, true, true).await;
        FloorProbe { store, keep, params, results: [Val::Bool(false)], view }
    }

    /// One pair of rounds, 40 decisions natively then 40 in wasm: wasm's time over native's.
    async fn pair(&mut self) -> f64 {
        let n = 40;
        let t = Instant::now();
        for _ in 0..n {
            std::hint::black_box(yahtzee_bots::greedy::keep(std::hint::black_box(&self.view)));
        }
        let native = t.elapsed();
        let t = Instant::now();
        for _ in 0..n {
            self.keep.call_async(&mut self.store, &self.params, &mut self.results).await.expect("keep");
        }
        t.elapsed().as_secs_f64() / native.as_secs_f64()
    }

    /// The floor now: the median of nine pairs.
    pub async fn floor(&mut self) -> f64 {
        let mut pairs = Vec::with_capacity(9);
        for _ in 0..9 {
            pairs.push(self.pair().await);
        }
        super::median_f64(pairs)
    }
}

/// The greedy player on an engine of its own, compiled with or without fuel and epochs (the imports its
/// first `keep` never calls trap): its store, its `keep`, and `state` as that `keep`'s argument.
pub async fn greedy_keep(
    greedy: &Path,
    state: &serde_json::Value,
    fuel: bool,
    epochs: bool,
) -> (wasmtime::Store<()>, Func, [Val; 1]) {
    let mut config = wasmtime::Config::new();
    config.wasm_component_model(true).consume_fuel(fuel).epoch_interruption(epochs);
    let engine = wasmtime::Engine::new(&config).expect("engine");
    let component = wasmtime::component::Component::from_file(&engine, greedy).expect("the greedy player");
    let mut linker = wasmtime::component::Linker::<()>::new(&engine);
    linker.define_unknown_imports_as_traps(&component).expect("imports");
    let mut store = wasmtime::Store::new(&engine, ());
    if fuel {
        store.set_fuel(u64::MAX / 2).expect("fuel");
    }
    store.set_epoch_deadline(u64::MAX / 2);
    let instance = linker.instantiate_async(&mut store, &component).await.expect("instantiate");
    let keep = instance.get_func(&mut store, "keep").expect("keep");
    let (_, ty) = keep.ty(&store).params().next().expect("keep takes a turn state");
    let params = [values::from_json(state, &ty).expect("a turn state")];
    (store, keep, params)
}
