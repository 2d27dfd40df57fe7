//! One game of a package. The referee runs in its own sandboxed store, under the same limits as a
//! player, and is driven step by step: the seats it asks are called concurrently, and their answers go
//! back to it together in one `step` call, each as the same case of its answer variant, in the order it
//! asked. A player that faults, or whose answer the referee refuses, is banned and reported to the
//! referee; a referee that traps, loops, hogs memory or breaks the protocol ends the game as a game
//! fault, and nobody is banned for it.

use super::answers::{Answers, Asked, Handed, PerStep, Reply, Step, ban, unfollowed};
use super::fuzz::{Fuzz, Fuzzer};
use super::referee::{Referee, option, protocol, text};
use super::seat::Seat;
use super::{Package, PackagePlayer};
use arena_core::GameOutcome;
use arena_core::{CallLine, Finals, MatchSoFar};
use arena_core::{Fault, FaultKind};

mod end;
mod hand;
use arena_sandbox::Guard;
pub use end::SVG_BYTES;
use hand::Hand;
use std::sync::Arc;
use wasmtime::component::Val;

/// What refereeing one game cost: the steps it took (rounds of requests), the `step` calls that handed
/// it answers (one a step unless it takes them one by one), the fuel the referee burnt and its CPU time.
#[derive(Debug, Clone, Copy, Default)]
pub struct RefereeCost {
    pub steps: u32,
    pub handed: u32,
    pub fuel: u64,
    pub cpu: std::time::Duration,
}

/// How a game is played: with a seat fuzzed, keeping `finals` of the last position, its referee's `step`
/// called typed even when it has the flat form, forked from a record at a step.
struct How<'l> {
    fuzz: Option<Fuzz>,
    finals: Finals,
    typed: bool,
    fork: Option<(&'l [CallLine], u32)>,
}

/// The most steps (rounds of requests) one game may take.
pub const MAX_STEPS: usize = 100_000;

impl Package {
    /// Plays one game between `players` (in seat order) from `seed`, in a match `so_far`, keeping the
    /// final drawings and what every seat saw at the end too ([`Finals::All`]).
    pub async fn play(&self, players: &[Arc<PackagePlayer>], seed: u64, so_far: &MatchSoFar) -> GameOutcome {
        let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
        self.play_as(players, &names, seed, so_far, Finals::All).await
    }

    /// [`Package::play`], the players known to the referee by `names` (a tournament's names for them),
    /// keeping `finals` of the last position.
    pub async fn play_as(
        &self,
        players: &[Arc<PackagePlayer>],
        names: &[String],
        seed: u64,
        so_far: &MatchSoFar,
        finals: Finals,
    ) -> GameOutcome {
        self.play_seats(players, names, seed, so_far, How { fuzz: None, finals, typed: false, fork: None }).await.0
    }

    /// [`Package::play`] with one seat fuzzed (see [`Fuzz`]), and what refereeing the game cost: the
    /// conformance run of `arena check-game`.
    pub async fn play_fuzzed(
        &self,
        players: &[Arc<PackagePlayer>],
        seed: u64,
        fuzz: Option<Fuzz>,
    ) -> (GameOutcome, RefereeCost) {
        self.play_checked(players, seed, How { fuzz, finals: Finals::All, typed: false, fork: None }).await
    }

    /// [`Package::play_fuzzed`] without a fuzzer, the referee's `step` called as a typed function
    /// even when it exports the flat form too (`arena check-game` plays both and compares them).
    pub async fn play_typed(&self, players: &[Arc<PackagePlayer>], seed: u64) -> (GameOutcome, RefereeCost) {
        self.play_checked(players, seed, How { fuzz: None, finals: Finals::All, typed: true, fork: None }).await
    }

    /// A game of `arena check-game`'s: the players named as they are, at the start of a match.
    async fn play_checked(
        &self,
        players: &[Arc<PackagePlayer>],
        seed: u64,
        how: How<'_>,
    ) -> (GameOutcome, RefereeCost) {
        let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
        self.play_seats(players, &names, seed, &MatchSoFar::default(), how).await
    }

    /// [`Package::play_as`] forked from `record` (a game of the same seed, names and match, played with
    /// this referee) at step `from` (from 1): the record's answers are handed to the referee up to that
    /// step, exactly as a replay does, while every seat is called with each request to follow the game
    /// in its own state; from step `from` on, the seats play (see `Answers::Forked`). A seat that faults
    /// on a request its record answered plays from there. A fork from step 1 is a game of the seed.
    pub async fn fork(
        &self,
        players: &[Arc<PackagePlayer>],
        names: &[String],
        (seed, so_far): (u64, &MatchSoFar),
        (record, from): (&[CallLine], u32),
        finals: Finals,
    ) -> GameOutcome {
        let how = How { fuzz: None, finals, typed: false, fork: Some((record, from)) };
        self.play_seats(players, names, seed, so_far, how).await.0
    }

    /// Whether the referee's `step` is called in flat form (`arena:game/flat`).
    pub fn steps_flat(&self) -> bool {
        self.flat.is_some()
    }

    async fn play_seats(
        &self,
        players: &[Arc<PackagePlayer>],
        names: &[String],
        seed: u64,
        so_far: &MatchSoFar,
        How { fuzz, finals, typed, fork }: How<'_>,
    ) -> (GameOutcome, RefereeCost) {
        let n = players.len();
        let mut out = GameOutcome { fuel: vec![0; n], ..Default::default() };
        if !self.manifest.seats().contains(&n) || names.len() != n {
            out.game_fault = Some(protocol(
                "start",
                format!(
                    "{} is played by {}, not {n} ({} names)",
                    self.manifest.name,
                    arena_core::seats_text(&self.manifest.seats()),
                    names.len()
                ),
            ));
            return (out, RefereeCost::default());
        }
        let mut seats: Vec<Seat> = players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                Seat::new(self.sandbox.clone(), p.pre.clone(), arena_core::seed::derive(seed, &[i as u64]))
                    .profiled(p.profile.clone())
                    .quick(p.quick)
            })
            .collect();
        if let Some(f) = fuzz
            && let Some(seat) = seats.get_mut(f.seat)
        {
            let limit = usize::try_from(self.sandbox.limits().answer_bytes).unwrap_or(usize::MAX);
            seat.fuzzer = Some(Fuzzer::new(f.every, arena_core::seed::derive(seed, &[f.seat as u64, 0xf022]), limit));
        }
        let answers = match fork {
            Some((log, from)) => Answers::Forked { log: log.iter().peekable(), seats: &mut seats, from, now: 0 },
            None => Answers::Live(&mut seats),
        };
        let (mut out, cost) = self.run(answers, names, seed, so_far, finals, typed).await;
        if !out.faults.is_empty() {
            let faulted = |i: usize| out.faults.iter().any(|(s, _)| *s == i);
            out.last_words = seats
                .iter()
                .enumerate()
                .map(|(i, s)| if faulted(i) { s.last_words() } else { String::new() })
                .collect();
        }
        if finals == Finals::Result {
            out.keep_result_only();
        } else {
            out.logs = seats.iter().map(Seat::log).collect();
        }
        (out, cost)
    }

    /// One game from `seed`, its answers from `answers`: a fresh referee driven to the end (its `step`
    /// called typed when `typed`, else in flat form when it has one); whatever stops it is the game's
    /// fault.
    async fn run(
        &self,
        answers: Answers<'_, '_>,
        names: &[String],
        seed: u64,
        so_far: &MatchSoFar,
        finals: Finals,
        typed: bool,
    ) -> (GameOutcome, RefereeCost) {
        let mut out = GameOutcome { fuel: vec![0; names.len()], ..Default::default() };
        let mut cost = RefereeCost::default();
        match self.referee(seed, names.len()).await {
            Ok(mut referee) => {
                if typed {
                    referee.flat = None;
                }
                let played = match self.drive(&mut referee, answers, names, seed, so_far, &mut out).await {
                    Ok(()) => self.conclude(&mut referee, names.len(), finals, &mut out).await,
                    Err(f) => Err(f),
                };
                // The events the referee kept (one that trapped can tell none; its fault stands).
                let told = referee.take_events().await;
                if let Err(f) = played.and(told) {
                    out.game_fault = Some(f);
                }
                // A game that faulted counts for nobody, whenever the fault came: an outcome the
                // referee gave before failing (in `events`, `view`, a drawing) names no winner.
                out.void_if_faulted();
                out.events = std::mem::take(&mut referee.store.data_mut().events);
                cost = RefereeCost {
                    steps: referee.steps,
                    handed: referee.handed,
                    fuel: referee.fuel,
                    cpu: referee.spent,
                };
                self.shelves.give_back(&mut referee);
            }
            Err(f) => out.game_fault = Some(f),
        }
        (out, cost)
    }

    /// Re-runs the referee on the record of a game (`log`, from [`GameOutcome::log`]) instead of
    /// calling players: the events, the view and the outcome are the referee's own again, so a replay
    /// can never disagree with the rules. A record that does not follow the referee is a game fault. It
    /// shows the game as spectators see it ([`Finals::Board`]).
    pub async fn replay(&self, names: &[String], seed: u64, so_far: &MatchSoFar, log: &[CallLine]) -> GameOutcome {
        self.run(Answers::Recorded(log.iter().peekable()), names, seed, so_far, Finals::Board, false).await.0
    }

    /// Plays `player` in seat `seat` of the game recorded in `log` (from `seed`, its seats named
    /// `names`, in match `so_far`) against the record: every other seat's answers are the record's, and
    /// the seat is called with each of its requests; its first answer that is not the record's stops the
    /// game. `Ok(None)`: it answered as recorded throughout; `Ok(Some(d))`: where it first did not;
    /// `Err`: the record does not replay through this referee.
    pub async fn reproduce(
        &self,
        player: &Arc<PackagePlayer>,
        seat: usize,
        (names, seed, so_far): (&[String], u64, &MatchSoFar),
        log: &[CallLine],
    ) -> Result<Option<super::answers::Divergence>, Fault> {
        let mut seats: Vec<Seat> = (0..names.len())
            .map(|i| {
                Seat::new(self.sandbox.clone(), player.pre.clone(), arena_core::seed::derive(seed, &[i as u64]))
                    .profiled(player.profile.clone())
                    .quick(player.quick)
            })
            .collect();
        let mut diverged = None;
        let answers = Answers::Checked { log: log.iter().peekable(), seats: &mut seats, seat, diverged: &mut diverged };
        let (out, _) = self.run(answers, names, seed, so_far, Finals::Result, false).await;
        match (diverged, out.game_fault) {
            (Some(d), _) => Ok(Some(d)),
            (None, Some(f)) => Err(f),
            (None, None) => Ok(None),
        }
    }

    /// What the referee's `start` is given.
    pub(crate) fn setup(&self, names: &[String], seed: u64, so_far: &MatchSoFar) -> Val {
        let u32s = |v: &[u32]| Val::List(v.iter().map(|&x| Val::U32(x)).collect());
        let match_state = Val::Record(vec![
            ("game".into(), Val::U32(so_far.game.max(1))),
            ("games-in-match".into(), Val::U32(so_far.games_in_match.max(1))),
            ("wins".into(), u32s(&so_far.wins)),
            ("ties".into(), Val::U32(so_far.ties)),
            (
                "earlier".into(),
                Val::List(so_far.earlier.iter().map(|g| Val::List(g.iter().map(|&s| Val::S64(s)).collect())).collect()),
            ),
            ("number".into(), Val::U32(so_far.match_no)),
            ("matches".into(), Val::U32(so_far.matches)),
        ]);
        Val::Record(vec![
            ("names".into(), Val::List(names.iter().map(|s| Val::String(s.clone())).collect())),
            ("seed".into(), Val::U64(seed)),
            ("options".into(), Val::List(self.options.iter().map(|(k, v)| option(k, *v)).collect())),
            ("match-state".into(), match_state),
        ])
    }

    /// A fresh referee for one game of `seats` seats, instantiated in its own store.
    pub(crate) async fn referee(&self, seed: u64, seats: usize) -> Result<Referee, Fault> {
        let sandbox = &*self.sandbox;
        let limits = sandbox.limits().referee();
        let mut store = sandbox.store_with(seed, &limits);
        let guard = Guard::arm_with(&limits, &mut store, true, "instantiate").quoting_output();
        let r = guard.run(self.referee.instantiate_async(&mut store)).await;
        let (instance, _) = guard.finish(&mut store, r)?;
        Ok(Referee {
            limits,
            store,
            instance,
            spent: std::time::Duration::ZERO,
            fuel: 0,
            steps: 0,
            handed: 0,
            outstanding: Vec::new(),
            answers: Vec::new(),
            funcs: Vec::new(),
            events: None,
            flat: self.flat.clone(),
            flat_step: None,
            bytes: Vec::new(),
            spare: Vec::new(),
            shelf: self.shelves.take(),
            longest_next: 0,
            seats,
            recorded: 0,
        })
    }

    async fn drive(
        &self,
        referee: &mut Referee,
        mut answers: Answers<'_, '_>,
        names: &[String],
        seed: u64,
        so_far: &MatchSoFar,
        out: &mut GameOutcome,
    ) -> Result<(), Fault> {
        let n = names.len();
        let mut banned = vec![false; n];
        let setup = self.setup(names, seed, so_far);
        match referee.call("start", &[setup]).await? {
            Val::Result(Ok(Some(next))) => {
                referee.take_next("start", *next)?;
            }
            Val::Result(Err(why)) => return Err(protocol("start", format!("refused to start: {}", text(&why)))),
            _ => return Err(protocol("start", "did not answer result<next, string>")),
        }
        let mut ended = false;
        // A replay shows every step; a fork is shown as a game is.
        let framed = matches!(answers, Answers::Recorded(_));
        if framed {
            out.frames.push(self.frame(referee, 0, vec![], 0).await?);
        }
        for step in 1..=MAX_STEPS as u32 {
            referee.steps = step;
            let (lines, events) = (out.log.len(), referee.store.data().events.len());
            // What the last call said is outstanding, moved out: each step's first `step` or ban (every
            // step has one) says what is outstanding next.
            let requests = std::mem::take(&mut referee.outstanding);
            if requests.is_empty() {
                ended = true;
                break;
            }
            // Who is asked what, in the referee's order; each seat once a step.
            let mut asked: PerStep<Asked<'_>> = PerStep::new();
            for r in &requests {
                let Val::Tuple(t) = r else { return Err(protocol("requests", "a request is not a tuple")) };
                let [Val::U32(seat), Val::Variant(case, payload)] = t.as_slice() else {
                    return Err(protocol("requests", "a request is not (seat, request)"));
                };
                let seat = *seat as usize;
                if seat >= n || banned[seat] || asked.iter().any(|a| a.seat == seat) {
                    return Err(protocol("requests", format!("asked seat {seat}, which cannot be asked now")));
                }
                let Some(c) = self.cases.iter().find(|c| c.name == *case) else {
                    return Err(protocol("requests", format!("asked for `{case}`, which is not a request")));
                };
                asked.push(Asked { seat, case: c, arg: payload.as_deref() });
            }
            // A step that asks several seats keeps what it asked: an answer is applied only while the
            // referee still makes the very request it answers (see `Step`).
            let mut this = Step::new(&requests);
            let replies = answers.answer(asked, step).await?;
            let replaying = answers.replaying();
            // The answers to hand to `step` together, in order: a live step's all at once (a fault
            // between them hands the earlier ones over first), a replay's one by one as it reads them.
            let mut batch: PerStep<Handed<'_>> = PerStep::new();
            let mut game = Hand { referee: &mut *referee, banned: &mut banned, out: &mut *out, step, replaying };
            for (i, case, reply) in replies {
                let reply = match reply {
                    Some(r) => r,
                    None => answers.recorded(i, &case.name, step, case.result.as_ref())?,
                };
                match reply {
                    // A fault is the host's finding on the seat's own call: it stands whatever the
                    // other seats did.
                    Reply::Fault(f, output, request) => {
                        game.hand(&mut answers, &mut this, &mut batch).await?;
                        ban(game.referee, &mut answers, game.banned, game.out, (i, step), f).await?;
                        // One such line a seat at most (a seat is banned at its fault), its request
                        // quoted to a small bound: no more to count towards the record's bound.
                        if let Some(line) = game.out.log.last_mut() {
                            line.output = output;
                            line.request = request;
                        }
                        this.change();
                    }
                    // The game's rule checker failed during the seat's call: the game's fault (the
                    // seat is not judged), and the seat whose call it was is named, so that a player
                    // feeding a known checker bug to turn its losses into no-results is seen.
                    Reply::CheckerFailed(why) => {
                        game.hand(&mut answers, &mut this, &mut batch).await?;
                        game.out.fault_by = Some(i);
                        let reason = format!("during seat {i}'s `{}`: {why}", case.name);
                        return Err(Fault::new(FaultKind::Crash, "rules", reason));
                    }
                    // A record lacks only answers the game dropped: it must drop this one too.
                    Reply::Missing => {
                        if this.asks(game.referee, i) {
                            return Err(unfollowed(i, &case.name));
                        }
                    }
                    Reply::Answer(answer, fuel, micros, output) => {
                        // Dropped: a record holding it was not played by these rules.
                        if !this.asks(game.referee, i) {
                            if replaying {
                                return Err(unfollowed(i, &case.name));
                            }
                            continue;
                        }
                        batch.push(Handed { seat: i, case, answer, fuel, micros, output, counted: false });
                        if replaying {
                            game.hand(&mut answers, &mut this, &mut batch).await?;
                        }
                    }
                }
            }
            game.hand(&mut answers, &mut this, &mut batch).await?;
            // The game as a whole is bounded too: a referee may ask a slow player many times, each call
            // within its limits (a replay re-runs no player, and is not timed).
            let budget = self.sandbox.limits().game_cpu;
            if let Some(spent) = answers.spent()
                && referee.spent + spent > budget
            {
                return Err(Fault::new(
                    FaultKind::Timeout,
                    "game",
                    format!(
                        "the game used more than {} s of CPU time, its players' and referee's together (--game-cpu-s)",
                        budget.as_secs_f64()
                    ),
                ));
            }
            if framed {
                let frame = self.frame(referee, step, out.log[lines..].to_vec(), events).await?;
                out.frames.push(frame);
            }
            // Their values are refilled with the next flat `next`'s.
            drop((batch, this));
            referee.spare = requests;
        }
        if !ended {
            return Err(protocol("requests", format!("the game did not end within {MAX_STEPS} steps")));
        }
        Ok(())
    }
}
