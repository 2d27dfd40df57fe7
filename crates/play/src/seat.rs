//! A player component seated for one game (or one lifecycle call): instantiated from its `InstancePre`
//! on the first call, every export call guarded by the sandbox and made with dynamic values, and never
//! called again after a fault (a trapped instance is poisoned).

use super::fuzz::{Action, Fuzzer};
use arena_core::{Fault, FaultKind};
use arena_sandbox::{Guard, PlayerState, Sandbox};
use std::sync::Arc;
use wasmtime::Store;
use wasmtime::component::types::Type;
use wasmtime::component::{Func, Instance, InstancePre, Val};

pub(super) struct Seat {
    sandbox: Arc<Sandbox>,
    pre: InstancePre<PlayerState>,
    seed: u64,
    live: Option<(Store<PlayerState>, Instance)>,
    /// The exports called so far, each looked up once in the live instance: looking one up by name
    /// (hashing the name, finding the function's code) cost a tenth of a call.
    funcs: Vec<(Box<str>, Func)>,
    /// What it printed, kept when its instance is dropped (a fault, a ban): its owner's to read.
    kept_log: String,
    /// Its last words, kept with the log.
    kept_words: String,
    /// How much of its log [`Seat::take_output`] has handed out.
    shown: usize,
    instantiated: bool,
    /// What its calls have cost so far, towards the game's total, and their time on the clock.
    pub(super) spent: std::time::Duration,
    pub(super) wall: std::time::Duration,
    /// `arena check-game`'s fuzzer, answering some of this seat's requests in its player's place.
    pub(super) fuzzer: Option<Fuzzer>,
    /// Its last call failed because the game's rule checker did (why): not the seat's fault.
    pub(super) host_failed: Option<String>,
    /// Where its samples go when its player is profiled.
    profile: Option<arena_sandbox::ProfileSink>,
    /// Its limits: the sandbox's, with quick code's longer deadlines (see [`Seat::quick`]).
    limits: arena_core::Limits,
}

impl Seat {
    pub(super) fn new(sandbox: Arc<Sandbox>, pre: InstancePre<PlayerState>, seed: u64) -> Seat {
        let limits = *sandbox.limits();
        Seat {
            sandbox,
            pre,
            seed,
            live: None,
            funcs: Vec::new(),
            kept_log: String::new(),
            kept_words: String::new(),
            shown: 0,
            instantiated: false,
            spent: std::time::Duration::ZERO,
            wall: std::time::Duration::ZERO,
            fuzzer: None,
            host_failed: None,
            profile: None,
            limits,
        }
    }

    /// The seat, its deadlines [`arena_sandbox::QUICK_DEADLINES`] times the sandbox's when its player
    /// is quick code (fuel, memory and everything else as for any seat).
    pub(super) fn quick(mut self, quick: bool) -> Seat {
        if quick {
            let l = &mut self.limits;
            (l.timeout, l.first_timeout) =
                (l.timeout * arena_sandbox::QUICK_DEADLINES, l.first_timeout * arena_sandbox::QUICK_DEADLINES);
        }
        self
    }

    /// The seat, its player profiled into `sink` (when there is one).
    pub(super) fn profiled(mut self, sink: Option<arena_sandbox::ProfileSink>) -> Seat {
        self.profile = sink;
        self
    }

    /// Adds what the samples of `store` found to the player's profile.
    fn keep_profile(&self, store: &mut Store<PlayerState>) {
        if let (Some(sink), Some(p)) = (&self.profile, store.data_mut().take_profile()) {
            sink.lock().unwrap_or_else(|e| e.into_inner()).merge(&p);
        }
    }

    /// What the player printed in this game so far.
    pub(super) fn log(&self) -> String {
        self.live.as_ref().map_or_else(|| self.kept_log.clone(), |(s, _)| s.data().log())
    }

    /// The last lines the player printed (past its log's capacity too): shown under its fault.
    pub(super) fn last_words(&self) -> String {
        self.live.as_ref().map_or_else(|| self.kept_words.clone(), |(s, _)| s.data().last_words())
    }

    /// What the player printed since this was last asked (its last call's output, instantiation
    /// included): its owner's to read beside that call.
    pub(super) fn take_output(&mut self) -> String {
        let (text, end) = match &self.live {
            Some((s, _)) => s.data().output_since(self.shown),
            None => {
                let kept = self.kept_log.as_bytes();
                (String::from_utf8_lossy(kept.get(self.shown..).unwrap_or_default()).into_owned(), kept.len())
            }
        };
        self.shown = end;
        text
    }

    fn count(&mut self, (wall, spent): (std::time::Duration, std::time::Duration)) {
        self.wall += wall;
        self.spent += spent;
    }

    /// The seat is banned: its instance is dropped (what it printed is kept), and it is never called
    /// again.
    pub(super) fn drop_instance(&mut self) {
        self.funcs.clear();
        if let Some((mut store, _)) = self.live.take() {
            self.kept_log = store.data().log();
            self.kept_words = store.data().last_words();
            self.keep_profile(&mut store);
        }
    }

    /// Instantiates the player, for the seat's first call (a seat with a live instance is not asked);
    /// returns the fuel instantiation used, and that this is the first call.
    async fn ready(&mut self) -> Result<(u64, bool), Fault> {
        if self.instantiated {
            return Err(Fault::new(FaultKind::Crash, "instantiate", "called again after a fault"));
        }
        self.instantiated = true;
        let mut store = self.sandbox.store(self.seed);
        if self.profile.is_some() {
            store.data_mut().profile();
        }
        let guard = Guard::arm_with(&self.limits, &mut store, true, "instantiate");
        let out = guard.run(Box::pin(self.pre.instantiate_async(&mut store))).await;
        self.count(guard.spent(&store));
        let (instance, fuel) = guard.finish(&mut store, out)?;
        self.live = Some((store, instance));
        Ok((fuel, true))
    }

    /// The seat's answer to request `name` (see [`Seat::call`]): its player's, or when `arena
    /// check-game` fuzzes the seat, maybe the fuzzer's (a random answer of type `result`, or the
    /// player's changed in one place).
    pub(super) async fn answer(
        &mut self,
        name: &str,
        arg: Option<&Val>,
        spread: bool,
        result: Option<&Type>,
    ) -> Result<(Option<Val>, u64), Fault> {
        let action = self.fuzzer.as_mut().map_or(Action::Player, Fuzzer::decide);
        match action {
            Action::Player => self.call(name, arg, spread, result.is_some()).await,
            Action::Random => Ok((self.fuzzer.as_mut().and_then(|f| f.random(result)), 0)),
            Action::Mutate => {
                let (answer, fuel) = self.call(name, arg, spread, result.is_some()).await?;
                let changed = match self.fuzzer.as_mut() {
                    Some(f) => f.mutate(answer, result),
                    None => answer,
                };
                Ok((changed, fuel))
            }
        }
    }

    /// Calls the export `name` with `arg` (a tuple spread over the parameters when `spread`); `returns`
    /// says whether it has a result. A fault drops the instance.
    pub(super) async fn call(
        &mut self,
        name: &str,
        arg: Option<&Val>,
        spread: bool,
        returns: bool,
    ) -> Result<(Option<Val>, u64), Fault> {
        // Instantiated on the first call only: the later ones neither build nor move its future.
        let (setup, first) = if self.live.is_some() { (0, false) } else { Box::pin(self.ready()).await? };
        let Some((store, instance)) = self.live.as_mut() else {
            return Err(Fault::new(FaultKind::Crash, name, "no instance"));
        };
        let func = match self.funcs.iter().find(|(n, _)| **n == *name) {
            Some(&(_, f)) => f,
            None => {
                let Some(f) = instance.get_func(&mut *store, name) else {
                    return Err(Fault::new(FaultKind::Crash, name, format!("exports no `{name}`")));
                };
                self.funcs.push((name.into(), f));
                f
            }
        };
        let guard = Guard::arm_with(&self.limits, store, first, name);
        let params: &[Val] = match arg {
            Some(Val::Tuple(items)) if spread => items,
            Some(arg) => std::slice::from_ref(arg),
            None => &[],
        };
        // The result's slot, on the stack (an export without a result fills none of it).
        let mut result = [Val::Bool(false)];
        // Boxed: the call's future is large, and the seats' calls of a step are moved when joined (a
        // move of it cost more than the allocation).
        let out = guard.run(Box::pin(func.call_async(&mut *store, params, &mut result[..usize::from(returns)]))).await;
        let (wall, spent) = guard.spent(store);
        let r = guard.finish(store, out);
        let host_failed = if r.is_err() { store.data_mut().host_failed.take() } else { None };
        self.count((wall, spent));
        match r {
            Ok(((), fuel)) => {
                let [value] = result;
                Ok((returns.then_some(value), fuel + setup))
            }
            Err(f) => {
                // The game's rule checker failed during the call: the game's fault, not the seat's.
                self.host_failed = host_failed;
                self.drop_instance();
                Err(f)
            }
        }
    }
}

impl Drop for Seat {
    /// A profiled seat's samples reach its player's profile whenever the game ends.
    fn drop(&mut self) {
        if let Some((mut store, _)) = self.live.take() {
            self.keep_profile(&mut store);
        }
    }
}
