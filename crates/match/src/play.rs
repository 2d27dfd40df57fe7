//! One game of a package. The referee runs in its own sandboxed store, under the same limits as a
//! player, and is driven step by step: the seats it asks are called concurrently, each answer goes back
//! to it as the same case of its answer variant, in the order it asked. A player that faults, or whose
//! answer the referee refuses, is banned and reported to the referee; a referee that traps, loops,
//! hogs memory or breaks the protocol ends the game as a game fault, and nobody is banned for it.

use super::seat::Seat;
use super::{Package, PackagePlayer, VIEW_CHARS, values};
use arena_core::{CallLine, MatchSoFar};
use arena_core::{Event, Limits, quote, quote_at};
use arena_core::{Fault, FaultKind};
use arena_sandbox::{Guard, PlayerState};
use futures_util::future::join_all;
use serde::Serialize;
use std::sync::Arc;
use wasmtime::Store;
use wasmtime::component::{Instance, Val};

/// The most steps (rounds of requests) one game may take.
pub const MAX_STEPS: usize = 100_000;

/// How a game of a package went.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PackageOutcome {
    /// Per seat.
    pub scores: Vec<i64>,
    /// Seats that won.
    pub winners: Vec<usize>,
    /// Players' faults in the order they happened, with the seat that failed.
    pub faults: Vec<(usize, Fault)>,
    /// The referee failed: the game has no result, and nobody is banned for it.
    pub game_fault: Option<Fault>,
    /// What the referee emitted, with its audience.
    pub events: Vec<Event>,
    /// Fuel used per seat.
    pub fuel: Vec<u64>,
    /// What the referee was handed, in order: every answer (as JSON) and every fault, each with the
    /// step (from 1) it belongs to. A replay feeds it to the referee again.
    pub log: Vec<CallLine>,
    /// A replay's course: after each step, what it handed the referee, the events it caused and the
    /// view that followed (empty when the game was played live).
    pub frames: Vec<Frame>,
    /// The referee's view of the final position, for spectators.
    pub view: String,
    /// Its view for each seat, which may show what that seat alone may see.
    pub seat_views: Vec<String>,
    /// What each seat printed (bounded).
    pub logs: Vec<String>,
    /// The referee's drawing of the final position for spectators, if it draws (its `svg` export).
    pub svg: Option<String>,
    /// Its drawing for each seat (empty when it does not draw).
    pub seat_svgs: Vec<Option<String>>,
}

/// One step of a replay: the record's lines of that step, the events they caused, the view after.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Frame {
    pub step: u32,
    pub lines: Vec<CallLine>,
    pub events: Vec<Event>,
    pub view: String,
    /// The referee's drawing after the step, if it draws.
    pub svg: Option<String>,
}

impl PackageOutcome {
    /// The events `seat` may see (`None`: a spectator, who sees public events only).
    pub fn events_for(&self, seat: Option<usize>) -> impl Iterator<Item = &Event> {
        self.events.iter().filter(move |e| e.seen_by(seat))
    }

    /// Every answered call: (seat, call, fuel).
    pub fn calls(&self) -> Vec<(usize, &str, u64)> {
        self.log.iter().filter(|c| c.fault.is_none()).map(|c| (c.seat, c.call.as_ref(), c.fuel)).collect()
    }
}

/// How a seat replied to its request.
enum Reply {
    /// The answer, with its fuel, its time on the clock in microseconds and what the seat printed.
    Answer(Option<Val>, u64, u64, String),
    /// The host found the call at fault (a trap, fuel, time, memory, a malformed answer); what the
    /// seat printed.
    Fault(Fault, String),
    /// A record has no reply here: the live game dropped the answer.
    Missing,
}

/// A seat's reply to a request: (seat, call, the answer's type, the reply; `None` when it is read from
/// a record only as the step reaches it).
type Answered = (usize, String, Option<wasmtime::component::types::Type>, Option<Reply>);

/// A replay's record holds an answer the referee did not take, or lacks one it did.
fn unfollowed(seat: usize, case: &str) -> Fault {
    protocol("replay", format!("the record does not answer seat {seat}'s `{case}` as the game was played"))
}

/// The referee's current requests.
async fn requests(referee: &mut Referee) -> Result<Vec<Val>, Fault> {
    match referee.call("requests", &[], 1).await?.pop() {
        Some(Val::List(l)) => Ok(l),
        _ => Err(protocol("requests", "did not return a list")),
    }
}

/// One step's requests, for the rule that a seat answers only for itself: when a step asks several
/// seats at once and something changes the game before a seat's answer is handled (another seat's
/// ban, or an applied answer that ended the game), that answer is applied only if the referee still
/// makes the very request it answers (same seat, same case, same payload), as its `requests()` says
/// after the change. Otherwise it is dropped: never applied, never judged, not recorded, and the seat
/// is asked again if the game goes on. A fault the host finds stands whatever the others did.
struct Step {
    /// The step's requests as the referee made them (empty when it asked one seat).
    made: Vec<Val>,
    /// What the referee asked at its last look after a change in this step.
    outstanding: Option<Vec<Val>>,
    /// An answer was applied or a seat banned earlier in the step.
    changed: bool,
    /// The reply being handled is the step's last.
    last: bool,
}

impl Step {
    fn new(made: Vec<Val>) -> Step {
        Step { made, outstanding: None, changed: false, last: false }
    }

    /// The request the step made of `seat`, when it asked several seats.
    fn made_of(&self, seat: usize) -> Option<&Val> {
        self.made.iter().find(|r| matches!(r, Val::Tuple(t) if t.first() == Some(&Val::U32(seat as u32))))
    }

    /// Whether the referee still made `seat`'s request at its last look (yes when it has not looked).
    fn asks(&self, seat: usize) -> bool {
        match (&self.outstanding, self.made_of(seat)) {
            (Some(now), Some(request)) => now.contains(request),
            _ => true,
        }
    }

    /// Asks the referee again, then [`Step::asks`].
    async fn still_asks(&mut self, referee: &mut Referee, seat: usize) -> Result<bool, Fault> {
        if self.made.is_empty() {
            return Ok(true);
        }
        self.outstanding = Some(requests(referee).await?);
        Ok(self.asks(seat))
    }

    /// A seat was banned: what the referee still asks is read again if other answers wait.
    async fn banned(&mut self, referee: &mut Referee) -> Result<(), Fault> {
        self.changed = true;
        if !self.made.is_empty() && !self.last {
            self.outstanding = Some(requests(referee).await?);
        }
        Ok(())
    }
}

/// The referee of one game, in its own store, under its own limits.
struct Referee {
    limits: Limits,
    store: Store<PlayerState>,
    instance: Instance,
    /// What its calls have cost so far, towards the game's total.
    spent: std::time::Duration,
}

impl Referee {
    /// Calls the referee's export `name`; a fault here is the game's.
    async fn call(&mut self, name: &'static str, params: &[Val], results: usize) -> Result<Vec<Val>, Fault> {
        let Some(func) = self.instance.get_func(&mut self.store, name) else {
            return Err(protocol(name, "the export is missing"));
        };
        let guard = Guard::arm_with(&self.limits, &mut self.store, false, name).quoting_output();
        let mut out = vec![Val::Bool(false); results];
        let r = guard.run(func.call_async(&mut self.store, params, &mut out)).await;
        self.spent += guard.spent(&self.store).1;
        guard.finish(&mut self.store, r)?;
        Ok(out)
    }
}

/// An option as the setup carries it: (name, value as text).
fn option(name: &str, value: i64) -> Val {
    Val::Tuple(vec![Val::String(name.to_string()), Val::String(value.to_string())])
}

fn protocol(call: &str, why: impl Into<String>) -> Fault {
    Fault::new(FaultKind::Illegal, call, why)
}

fn text(v: &Option<Box<Val>>) -> String {
    match v.as_deref() {
        Some(Val::String(s)) => quote(s),
        _ => String::new(),
    }
}

impl Package {
    /// Plays one game between `players` (in seat order) from `seed`, in a match `so_far`.
    pub async fn play(&self, players: &[Arc<PackagePlayer>], seed: u64, so_far: &MatchSoFar) -> PackageOutcome {
        let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
        self.play_as(players, &names, seed, so_far).await
    }

    /// [`Package::play`], the players known to the referee by `names` (a tournament's names for them).
    pub async fn play_as(
        &self,
        players: &[Arc<PackagePlayer>],
        names: &[String],
        seed: u64,
        so_far: &MatchSoFar,
    ) -> PackageOutcome {
        let n = players.len();
        let mut out = PackageOutcome { fuel: vec![0; n], ..Default::default() };
        if !self.manifest.seats().contains(&n) || names.len() != n {
            out.game_fault = Some(protocol(
                "start",
                format!(
                    "{} seats {:?} players, not {n} ({} names)",
                    self.manifest.name,
                    self.manifest.seats(),
                    names.len()
                ),
            ));
            return out;
        }
        let mut seats: Vec<Seat> = players
            .iter()
            .enumerate()
            .map(|(i, p)| Seat::new(self.sandbox.clone(), p.pre.clone(), arena_core::seed::derive(seed, &[i as u64])))
            .collect();
        let mut out = self.run(Answers::Live(&mut seats), names, seed, so_far).await;
        out.logs = seats.iter().map(Seat::log).collect();
        out
    }

    /// One game from `seed`, its answers from `answers`: a fresh referee driven to the end; whatever
    /// stops it is the game's fault.
    async fn run(&self, answers: Answers<'_, '_>, names: &[String], seed: u64, so_far: &MatchSoFar) -> PackageOutcome {
        let mut out = PackageOutcome { fuel: vec![0; names.len()], ..Default::default() };
        match self.referee(seed).await {
            Ok(mut referee) => {
                if let Err(f) = self.drive(&mut referee, answers, names, seed, so_far, &mut out).await {
                    out.game_fault = Some(f);
                }
                out.events = std::mem::take(&mut referee.store.data_mut().events);
            }
            Err(f) => out.game_fault = Some(f),
        }
        out
    }

    /// Tells `player` that a tournament starts or ends, with the call the referee names for it (none
    /// when the referee does not export `tournament`, or names no call).
    pub async fn lifecycle(&self, player: &PackagePlayer, event: Announcement<'_>, seed: u64) -> Option<Fault> {
        if !self.lifecycle {
            return None;
        }
        let event = match event {
            Announcement::Start { you, players, games_per_match } => Val::Variant(
                "start".into(),
                Some(Box::new(Val::Record(vec![
                    ("you".into(), Val::String(you.to_string())),
                    ("players".into(), Val::List(players.iter().map(|p| Val::String(p.clone())).collect())),
                    ("games-per-match".into(), Val::U32(games_per_match)),
                ]))),
            ),
            Announcement::End { won } => Val::Variant("end".into(), Some(Box::new(Val::Bool(won)))),
        };
        // The referee's failure here is the game's, not the player's: the call is skipped.
        let mut referee = self.referee(seed).await.ok()?;
        let Ok(mut r) = referee.call("tournament", &[event], 1).await else { return None };
        let Some(Val::Option(Some(request))) = r.pop() else { return None };
        let Val::Variant(case, arg) = *request else { return None };
        let c = self.cases.iter().find(|c| c.name == case)?;
        let mut seat = Seat::new(self.sandbox.clone(), player.pre.clone(), seed);
        seat.call(&c.name, arg.map(|a| *a), c.spread(), c.result.is_some()).await.err()
    }

    /// Re-runs the referee on the record of a game (`log`, from [`PackageOutcome::log`]) instead of
    /// calling players: the events, the view and the outcome are the referee's own again, so a replay
    /// can never disagree with the rules. A record that does not follow the referee is a game fault.
    pub async fn replay(&self, names: &[String], seed: u64, so_far: &MatchSoFar, log: &[CallLine]) -> PackageOutcome {
        self.run(Answers::Recorded(log.iter().peekable()), names, seed, so_far).await
    }

    /// Whether the referee starts a game with the options set, for the fewest seats the game takes: a
    /// combination the manifest's ranges let through but the game refuses (a Fish board too small
    /// for its holes) is an error before anything is played, with the referee's reason.
    pub async fn check_options(&self) -> Result<(), String> {
        let n = *self.manifest.seats().start();
        let names: Vec<String> = (0..n).map(|i| format!("seat {i}")).collect();
        let mut referee = self.referee(0).await.map_err(|f| f.to_string())?;
        let setup = self.setup(&names, 0, &MatchSoFar::default());
        match referee.call("start", &[setup], 1).await.map_err(|f| f.to_string())?.first() {
            Some(Val::Result(Err(why))) => Err(text(why)),
            _ => Ok(()),
        }
    }

    /// What the referee's `start` is given.
    fn setup(&self, names: &[String], seed: u64, so_far: &MatchSoFar) -> Val {
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

    /// A fresh referee for one game, instantiated in its own store.
    async fn referee(&self, seed: u64) -> Result<Referee, Fault> {
        let sandbox = &*self.sandbox;
        let limits = sandbox.limits().referee();
        let mut store = sandbox.store_with(seed, &limits);
        let guard = Guard::arm_with(&limits, &mut store, true, "instantiate").quoting_output();
        let r = guard.run(self.referee.instantiate_async(&mut store)).await;
        let (instance, _) = guard.finish(&mut store, r)?;
        Ok(Referee { limits, store, instance, spent: std::time::Duration::ZERO })
    }

    async fn drive(
        &self,
        referee: &mut Referee,
        mut answers: Answers<'_, '_>,
        names: &[String],
        seed: u64,
        so_far: &MatchSoFar,
        out: &mut PackageOutcome,
    ) -> Result<(), Fault> {
        let n = names.len();
        let mut banned = vec![false; n];
        let setup = self.setup(names, seed, so_far);
        if let Some(Val::Result(Err(why))) = referee.call("start", &[setup], 1).await?.first() {
            return Err(protocol("start", format!("refused to start: {}", text(why))));
        }
        let mut ended = false;
        let replaying = matches!(answers, Answers::Recorded(_));
        if replaying {
            out.frames.push(self.frame(referee, 0, vec![], 0).await?);
        }
        for step in 1..=MAX_STEPS as u32 {
            let (lines, events) = (out.log.len(), referee.store.data().events.len());
            let requests = requests(referee).await?;
            if requests.is_empty() {
                ended = true;
                break;
            }
            // Who is asked what, in the referee's order; each seat once a step. A step that asks several
            // seats keeps what it asked: an answer is applied only while the referee still makes the
            // very request it answers (see `Step`).
            let mut this = Step::new(if requests.len() > 1 { requests.clone() } else { Vec::new() });
            let mut asked: Vec<Asked> = Vec::new();
            for r in requests {
                let Val::Tuple(mut t) = r else { return Err(protocol("requests", "a request is not a tuple")) };
                let (Some(Val::Variant(case, payload)), Some(Val::U32(seat))) = (t.pop(), t.pop()) else {
                    return Err(protocol("requests", "a request is not (seat, request)"));
                };
                let seat = seat as usize;
                if seat >= n || banned[seat] || asked.iter().any(|a| a.seat == seat) {
                    return Err(protocol("requests", format!("asked seat {seat}, which cannot be asked now")));
                }
                let Some(c) = self.cases.iter().find(|c| c.name == case) else {
                    return Err(protocol("requests", format!("asked for `{case}`, which is not a request")));
                };
                asked.push(Asked {
                    seat,
                    case,
                    arg: payload.map(|p| *p),
                    spread: c.spread(),
                    result: c.result.clone(),
                });
            }
            let replies = answers.answer(asked).await?;
            let count = replies.len();
            for (k, (i, case, result, reply)) in replies.into_iter().enumerate() {
                this.last = k + 1 == count;
                let reply = match reply {
                    Some(r) => r,
                    None => answers.recorded(i, &case, step, result.as_ref())?,
                };
                match reply {
                    // A fault is the host's finding on the seat's own call: it stands whatever the
                    // other seats did.
                    Reply::Fault(f, output) => {
                        ban(referee, &mut answers, &mut banned, out, (i, step), f).await?;
                        if let Some(line) = out.log.last_mut() {
                            line.output = output;
                        }
                        this.banned(referee).await?;
                    }
                    // A record lacks only answers the game dropped: it must drop this one too.
                    Reply::Missing => {
                        if this.asks(i) && (!this.changed || this.still_asks(referee, i).await?) {
                            return Err(unfollowed(i, &case));
                        }
                    }
                    Reply::Answer(answer, fuel, micros, output) => {
                        // Dropped: a record holding it was not played by these rules.
                        if !this.asks(i) {
                            if replaying {
                                return Err(unfollowed(i, &case));
                            }
                            continue;
                        }
                        let recorded = answer.as_ref().map_or(serde_json::Value::Null, values::to_json);
                        // Recorded before it is handed over: a referee that fails on it leaves it in
                        // the record.
                        out.log.push(CallLine {
                            micros,
                            output,
                            ..CallLine::new(i, case.clone(), step, recorded, fuel)
                        });
                        out.fuel[i] += fuel;
                        let answer = Val::Variant(case.clone(), answer.map(Box::new));
                        let refused = match referee.call("apply", &[Val::U32(i as u32), answer], 1).await?.first() {
                            Some(Val::Result(Err(why))) => Some(text(why)),
                            _ => None,
                        };
                        // Refused after the step changed the game: judged only if the referee still
                        // asks the seat what it answered (a refusal changes nothing); else dropped.
                        if refused.is_some() && this.changed && !this.still_asks(referee, i).await? {
                            if replaying {
                                return Err(unfollowed(i, &case));
                            }
                            out.log.pop();
                            out.fuel[i] -= fuel;
                            continue;
                        }
                        this.changed = true;
                        if let Some(why) = refused {
                            answers.refused(i);
                            ban(referee, &mut answers, &mut banned, out, (i, step), Fault::illegal(case, why)).await?;
                            this.banned(referee).await?;
                        }
                    }
                }
            }
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
            if replaying {
                let frame = self.frame(referee, step, out.log[lines..].to_vec(), events).await?;
                out.frames.push(frame);
            }
        }
        if !ended {
            return Err(protocol("requests", format!("the game did not end within {MAX_STEPS} steps")));
        }
        let Some(Val::Option(Some(outcome))) = referee.call("outcome", &[], 1).await?.pop() else {
            return Err(protocol("outcome", "no outcome when the game ended"));
        };
        let Val::Record(fields) = *outcome else { return Err(protocol("outcome", "not a record")) };
        for (name, v) in fields {
            match (name.as_str(), v) {
                ("scores", Val::List(l)) => {
                    out.scores =
                        l.into_iter().filter_map(|v| if let Val::S64(s) = v { Some(s) } else { None }).collect()
                }
                ("winners", Val::List(l)) => {
                    out.winners = l
                        .into_iter()
                        .filter_map(|v| if let Val::U32(s) = v { Some(s as usize) } else { None })
                        .filter(|&s| s < n)
                        .collect()
                }
                _ => {}
            }
        }
        if out.scores.len() != n {
            return Err(protocol("outcome", format!("{} scores for {n} seats", out.scores.len())));
        }
        out.view = view(referee, None).await?;
        for seat in 0..n {
            out.seat_views.push(view(referee, Some(seat as u32)).await?);
        }
        if self.svg {
            out.svg = self.svg(referee, None).await?;
            for seat in 0..n {
                let drawn = self.svg(referee, Some(seat as u32)).await?;
                out.seat_svgs.push(drawn);
            }
        }
        Ok(())
    }

    /// A replay's frame after `step`: the record's `lines` of the step, the events the referee emitted
    /// from the `events`-th on, its view and its drawing.
    async fn frame(
        &self,
        referee: &mut Referee,
        step: u32,
        lines: Vec<CallLine>,
        events: usize,
    ) -> Result<Frame, Fault> {
        let view = view(referee, None).await?;
        let svg = self.svg(referee, None).await?;
        Ok(Frame { step, lines, events: referee.store.data().events[events..].to_vec(), view, svg })
    }

    /// The referee's drawing for `seat` (`None`: spectators), when it exports `svg`; a drawing over
    /// [`SVG_BYTES`] or that is not an `<svg>` document is the game's fault.
    async fn svg(&self, referee: &mut Referee, seat: Option<u32>) -> Result<Option<String>, Fault> {
        if !self.svg {
            return Ok(None);
        }
        let arg = Val::Option(seat.map(|s| Box::new(Val::U32(s))));
        let Some(Val::Option(drawn)) = referee.call("svg", &[arg], 1).await?.pop() else {
            return Err(protocol("svg", "did not return option<string>"));
        };
        match drawn.map(|d| *d) {
            None => Ok(None),
            Some(Val::String(svg)) if svg.len() > SVG_BYTES => {
                Err(protocol("svg", format!("drew {} bytes; a drawing may have at most {SVG_BYTES}", svg.len())))
            }
            Some(Val::String(svg)) if svg.trim_start().starts_with("<svg") => Ok(Some(svg)),
            Some(_) => Err(protocol("svg", "drew something that is not an <svg> document")),
        }
    }
}

/// The referee's view for `seat` (`None`: spectators), cut to [`VIEW_CHARS`]; empty if it is not text.
async fn view(referee: &mut Referee, seat: Option<u32>) -> Result<String, Fault> {
    let seat = Val::Option(seat.map(|s| Box::new(Val::U32(s))));
    Ok(match referee.call("view", &[seat], 1).await?.pop() {
        Some(Val::String(v)) => quote_at(&v, VIEW_CHARS),
        _ => String::new(),
    })
}

/// The largest drawing a referee may make of a position.
pub const SVG_BYTES: usize = 256 * 1024;

/// One request of a step: the seat, the export it names, its argument, and the answer's type.
struct Asked {
    seat: usize,
    case: String,
    arg: Option<Val>,
    spread: bool,
    result: Option<wasmtime::component::types::Type>,
}

/// A tournament's lifecycle, as a player hears it.
pub enum Announcement<'a> {
    Start { you: &'a str, players: &'a [String], games_per_match: u32 },
    End { won: bool },
}

/// Where a step's answers come from: the players themselves, or the record of a game (a replay).
enum Answers<'s, 'l> {
    Live(&'s mut [Seat]),
    Recorded(std::iter::Peekable<std::slice::Iter<'l, CallLine>>),
}

impl Answers<'_, '_> {
    /// Every asked seat's answer (or fault), in the order the referee asked. Live seats are called
    /// concurrently.
    async fn answer(&mut self, asked: Vec<Asked>) -> Result<Vec<Answered>, Fault> {
        match self {
            Answers::Live(seats) => {
                let n = seats.len();
                let order: Vec<usize> = asked.iter().map(|a| a.seat).collect();
                let mut by_seat: Vec<Option<Asked>> = (0..n).map(|_| None).collect();
                for a in asked {
                    let seat = a.seat;
                    by_seat[seat] = Some(a);
                }
                let calls = seats.iter_mut().zip(by_seat).enumerate().filter_map(|(i, (seat, a))| {
                    let a = a?;
                    Some(async move {
                        // Its time on the clock, instantiation included, as the guard read it.
                        let before = seat.wall;
                        let r = seat.call(&a.case, a.arg, a.spread, a.result.is_some()).await;
                        let micros = (seat.wall - before).as_micros().max(1) as u64;
                        let output = seat.take_output();
                        let reply = match r {
                            Ok((answer, fuel)) => Reply::Answer(answer, fuel, micros, output),
                            Err(f) => Reply::Fault(f, output),
                        };
                        (i, a.case, None, Some(reply))
                    })
                });
                let mut answered: Vec<Answered> = join_all(calls).await;
                answered.sort_by_key(|(i, ..)| order.iter().position(|s| s == i));
                Ok(answered)
            }
            // A record's replies are read as the step reaches each one: a dropped answer has none.
            Answers::Recorded(_) => Ok(asked.into_iter().map(|a| (a.seat, a.case, a.result, None)).collect()),
        }
    }

    /// Seat `seat`'s recorded reply to `case` in `step`: its answer (decoded as `ty`), its fault, or
    /// [`Reply::Missing`] when the record holds none there.
    fn recorded(
        &mut self,
        seat: usize,
        case: &str,
        step: u32,
        ty: Option<&wasmtime::component::types::Type>,
    ) -> Result<Reply, Fault> {
        let Answers::Recorded(log) = self else { return Ok(Reply::Missing) };
        let reply = match log.peek() {
            Some(CallLine { seat: s, turn, call, answer, fuel, fault: None, micros, output })
                if *s == seat && *turn == step && call == case =>
            {
                let value = match ty {
                    Some(ty) => Some(values::from_json(answer, ty).map_err(|e| protocol("replay", e))?),
                    None => None,
                };
                Reply::Answer(value, *fuel, *micros, output.clone())
            }
            Some(CallLine { seat: s, turn, fault: Some(fault), output, .. }) if *s == seat && *turn == step => {
                Reply::Fault(fault.clone(), output.clone())
            }
            _ => return Ok(Reply::Missing),
        };
        log.next();
        Ok(reply)
    }

    /// The referee refused seat `i`'s answer: a record holds that refusal next, as the seat's fault.
    fn refused(&mut self, i: usize) {
        if let Answers::Recorded(log) = self
            && matches!(log.peek(), Some(CallLine { seat, fault: Some(_), .. }) if *seat == i)
        {
            log.next();
        }
    }

    /// What the live seats' calls have cost so far (`None` for a replay).
    fn spent(&self) -> Option<std::time::Duration> {
        match self {
            Answers::Live(seats) => Some(seats.iter().map(|s| s.spent).sum()),
            Answers::Recorded(_) => None,
        }
    }

    /// Seat `i` is banned: a live seat's instance is dropped.
    fn drop_seat(&mut self, i: usize) {
        if let Answers::Live(seats) = self {
            seats[i].drop_instance();
        }
    }
}

/// Bans seat `i` for `fault`, records it, and tells the referee.
async fn ban(
    referee: &mut Referee,
    answers: &mut Answers<'_, '_>,
    banned: &mut [bool],
    out: &mut PackageOutcome,
    (i, step): (usize, u32),
    fault: Fault,
) -> Result<(), Fault> {
    banned[i] = true;
    answers.drop_seat(i);
    let record = Val::Record(vec![
        ("kind".into(), Val::Enum(fault.kind.as_str().into())),
        ("call".into(), Val::String(fault.call.clone())),
        ("reason".into(), Val::String(fault.reason.clone())),
    ]);
    out.log.push(CallLine::failed(i, step, fault.clone()));
    out.faults.push((i, fault));
    referee.call("banned", &[Val::U32(i as u32), record], 0).await?;
    Ok(())
}
