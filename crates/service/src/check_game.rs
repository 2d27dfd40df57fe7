//! `arena check-game`, the conformance run every game package must pass: its sample players play each
//! other at every seat count it allows (each game twice, with identical records: the second through its
//! typed `step` when it also has the flat one), then each seat in
//! turn is played by a fuzzer answering with random values of the answer's type; the referee must
//! accept or refuse every answer, never trap, loop or overrun a limit, end every game within the step
//! cap, address events only to seats the game has, and never show one seat's private events to
//! another seat or to spectators. The first failing game is reported with what replays it.

use arena_core::{GameOutcome, seed::derive};
use arena_play::{Fuzz, PackageGame, PackagePlayer, RefereeCost};
use futures_util::StreamExt;
use std::collections::HashSet;
use std::sync::Arc;

/// What to run: `seeds` games per seat count (and per fuzzed seat) from `first_seed` on, `parallel`
/// at once; or the one game `only` names (a failure's replay).
#[derive(Debug, Clone)]
pub struct Plan {
    pub seeds: u64,
    pub first_seed: u64,
    pub parallel: usize,
    pub only: Option<Case>,
}

/// One game of the run: its seat count, its seed, and the seat fuzzed (none: sample players only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Case {
    pub seats: usize,
    pub seed: u64,
    pub fuzz: Option<Fuzz>,
}

impl Case {
    /// The flags of `arena check-game` that play this game alone.
    pub fn flags(&self) -> String {
        let fuzz = self.fuzz.map(|f| format!(" --fuzz-seat {} --fuzz-every {}", f.seat, f.every)).unwrap_or_default();
        format!("--seats {} --seed {}{fuzz}", self.seats, self.seed)
    }

    /// The sample players seated: seat `i` gets sample `(i + seed) % samples`, so every sample meets
    /// every seat over the seeds.
    fn seating(&self, samples: &[Arc<PackagePlayer>]) -> Vec<Arc<PackagePlayer>> {
        (0..self.seats).map(|i| samples[(i + self.seed as usize) % samples.len()].clone()).collect()
    }
}

/// How often the fuzzer answers in the player's place, by seed: always, or one request in 3, 10, 30
/// (the player's own answers carry the game to every state before a random one arrives).
const EVERY: [u32; 4] = [1, 3, 10, 30];

/// One game played, and what it cost.
#[derive(Debug, Clone)]
pub struct Played {
    pub case: Case,
    pub cost: RefereeCost,
    /// Answers the referee refused (the fuzzed seat's).
    pub refused: usize,
}

/// The first game that failed the check, and why.
#[derive(Debug, Clone)]
pub struct Failure {
    pub case: Case,
    pub why: String,
}

/// The games of the run, in order: sample players at each seat count, then each seat fuzzed in turn.
pub fn cases(game: &PackageGame, plan: &Plan) -> Vec<Case> {
    if let Some(only) = plan.only {
        return vec![only];
    }
    let seeds = plan.first_seed..plan.first_seed.saturating_add(plan.seeds);
    let mut out = Vec::new();
    for seats in game.package().manifest.seats() {
        out.extend(seeds.clone().map(|seed| Case { seats, seed, fuzz: None }));
    }
    for seats in game.package().manifest.seats() {
        for seat in 0..seats {
            out.extend(seeds.clone().map(|seed| {
                let every = EVERY[(derive(seed, &[seat as u64]) % EVERY.len() as u64) as usize];
                Case { seats, seed, fuzz: Some(Fuzz { seat, every }) }
            }));
        }
    }
    out
}

/// The package's sample players, loaded: a package without one, or with one that does not load, fails.
pub fn samples(game: &PackageGame) -> Result<Vec<Arc<PackagePlayer>>, String> {
    use arena_core::Game;
    let names = game.builtin_names();
    if names.is_empty() {
        return Err("the manifest lists no sample players (`players = [...]`): nothing can play the game".into());
    }
    names
        .iter()
        .map(|n| game.builtin(n).ok_or_else(|| format!("the sample player {n} does not load (see the log above)")))
        .collect()
}

/// What is checked before any game: the package's WIT against its referee, and that the one game a
/// plan names (a failure's replay) is a game the package can have.
pub fn check_package(game: &PackageGame, plan: &Plan) -> Result<(), String> {
    let pkg = game.package();
    arena_play::check_wit(&pkg.dir, pkg).map_err(|e| format!("its WIT: {e}"))?;
    if let Some(case) = plan.only {
        let seats = pkg.manifest.seats();
        if !seats.contains(&case.seats) {
            return Err(format!("{} seats {seats:?} players, not {}", pkg.manifest.name, case.seats));
        }
        if case.fuzz.is_some_and(|f| f.seat >= case.seats) {
            return Err(format!("--fuzz-seat must be a seat of the game: below {}", case.seats));
        }
    }
    Ok(())
}

/// Runs `plan` on `game`, the games in order; stops at the first failure.
pub async fn run(game: Arc<PackageGame>, plan: &Plan) -> Result<Vec<Played>, Failure> {
    let samples = match samples(&game) {
        Ok(s) => Arc::new(s),
        Err(why) => {
            let seats = *game.package().manifest.seats().start();
            return Err(Failure { case: Case { seats, seed: plan.first_seed, fuzz: None }, why });
        }
    };
    let games = cases(&game, plan).into_iter().map(|case| {
        let (game, samples) = (game.clone(), samples.clone());
        tokio::spawn(async move { (case, one(&game, &samples, case).await) })
    });
    let mut games = futures_util::stream::iter(games).buffered(plan.parallel.max(1));
    let mut played = Vec::new();
    while let Some(done) = games.next().await {
        let (case, result) = done.map_err(|e| Failure {
            case: plan.only.unwrap_or(Case { seats: 0, seed: 0, fuzz: None }),
            why: format!("the check itself failed: {e}"),
        })?;
        played.push(result.map_err(|why| Failure { case, why })?);
    }
    Ok(played)
}

/// Plays one case and checks it.
async fn one(game: &PackageGame, samples: &[Arc<PackagePlayer>], case: Case) -> Result<Played, String> {
    let pkg = game.package();
    let players = case.seating(samples);
    let (first, cost) = pkg.play_fuzzed(&players, case.seed, case.fuzz).await;
    conforms(&first, case)?;
    // Played again from the seed, the same game; when the referee's `step` has a flat form, the
    // second game calls the typed one, which must answer the same.
    if case.fuzz.is_none() {
        let (again, _) = pkg.play_typed(&players, case.seed).await;
        let how = if pkg.steps_flat() { ", through its flat `step` and its typed one," } else { "," };
        same_game(&first, &again).map_err(|d| format!("played twice from the same seed{how} the games differ: {d}"))?;
    }
    let refused = first.faults.iter().filter(|(_, f)| f.kind == arena_core::FaultKind::Illegal).count();
    Ok(Played { case, cost, refused })
}

/// What every game must show: no game fault (a referee trap, loop, overrun, a game past the step
/// cap), no innocent seat banned, events only to seats the game has, and no private event shown to
/// anyone else.
fn conforms(o: &GameOutcome, case: Case) -> Result<(), String> {
    if let Some(f) = &o.game_fault {
        // The answers of the last step it was handed (one `step` call takes a step's answers together).
        let answers: Vec<&arena_core::CallLine> = o.log.iter().filter(|c| c.fault.is_none()).collect();
        let step = answers.last().map(|c| c.turn);
        let mut last: Vec<String> = answers
            .iter()
            .rev()
            .take_while(|c| Some(c.turn) == step)
            .map(|c| {
                let answer = arena_core::quote_at(&c.answer.to_string(), 300);
                format!("seat {}'s `{}` in step {}: {answer}", c.seat, c.call, c.turn)
            })
            .collect();
        last.reverse();
        let last = match last.len() {
            0 => String::new(),
            1 => format!(" (the last answer it was handed: {})", last[0]),
            _ => format!(" (the last answers it was handed: {})", last.join("; ")),
        };
        return Err(format!("the referee failed (a game fault): {f}{last}"));
    }
    let fuzzed = case.fuzz.map(|f| f.seat);
    if let Some((seat, f)) = o.faults.iter().find(|(s, _)| Some(*s) != fuzzed) {
        let who = if fuzzed.is_some() { "a seat the fuzzer did not play" } else { "a sample player" };
        return Err(format!("seat {seat}, {who}, was banned: {f}"));
    }
    if o.scores.len() != case.seats {
        return Err(format!("{} scores for {} seats", o.scores.len(), case.seats));
    }
    if let Some(e) =
        o.events.iter().find(|e| e.to.as_ref().is_some_and(|to| to.iter().any(|&s| s as usize >= case.seats)))
    {
        return Err(format!(
            "an event is addressed to {:?}, but the game has {} seats: {:?}",
            e.to, case.seats, e.text
        ));
    }
    private_stays_private(o, case.seats)
}

/// The shortest private event text looked for elsewhere (shorter ones recur by chance: "you pass").
const PRIVATE_CHARS: usize = 24;

/// No event addressed to some seats appears, word for word, in what anyone else is shown: the events
/// they see, the final view or drawing for them. What each viewer is shown is gathered once.
fn private_stays_private(o: &GameOutcome, seats: usize) -> Result<(), String> {
    struct Shown<'a> {
        viewer: Option<usize>,
        /// The events it sees, as a set (a text told to it too is no secret from it)...
        heard: HashSet<&'a str>,
        /// ...and everything it is shown, to look for a private text inside.
        texts: Vec<&'a str>,
    }
    let shown: Vec<Shown> = std::iter::once(None)
        .chain((0..seats).map(Some))
        .map(|viewer| {
            let heard: HashSet<&str> = o.events_for(viewer).map(|e| e.text.as_str()).collect();
            let drawn = match viewer {
                None => [Some(o.view.as_str()), o.svg.as_deref()],
                Some(s) => [o.seat_views.get(s).map(String::as_str), o.seat_svgs.get(s).and_then(|d| d.as_deref())],
            };
            let texts = o.events_for(viewer).map(|e| e.text.as_str()).chain(drawn.into_iter().flatten()).collect();
            Shown { viewer, heard, texts }
        })
        .collect();
    // Each private event once, in order (a text told again to the same seats is the same secret).
    let mut checked: HashSet<(&Option<arena_core::Seats>, &str)> = HashSet::new();
    for e in o.events.iter().filter(|e| e.to.is_some() && e.text.chars().count() >= PRIVATE_CHARS) {
        if !checked.insert((&e.to, e.text.as_str())) {
            continue;
        }
        for s in &shown {
            if e.seen_by(s.viewer) || s.heard.contains(e.text.as_str()) {
                continue;
            }
            if s.texts.iter().any(|text| text.contains(e.text.as_str())) {
                let who = s.viewer.map_or("spectators".to_string(), |v| format!("seat {v}"));
                return Err(format!("the event {:?} for seats {:?} is shown to {who}", e.text, e.to));
            }
        }
    }
    Ok(())
}

/// The first difference between two plays of one game, if any.
fn same_game(a: &GameOutcome, b: &GameOutcome) -> Result<(), String> {
    if let Some(i) = (0..a.log.len().max(b.log.len())).find(|&i| a.log.get(i) != b.log.get(i)) {
        return Err(format!("call {} of the record: {:?} then {:?}", i + 1, a.log.get(i), b.log.get(i)));
    }
    if let Some(i) = (0..a.events.len().max(b.events.len())).find(|&i| a.events.get(i) != b.events.get(i)) {
        return Err(format!("event {}: {:?} then {:?}", i + 1, a.events.get(i), b.events.get(i)));
    }
    let parts = [
        ("scores", a.scores != b.scores),
        ("winners", a.winners != b.winners),
        ("faults", a.faults != b.faults),
        ("view", a.view != b.view || a.seat_views != b.seat_views),
        ("drawing", a.svg != b.svg || a.seat_svgs != b.seat_svgs),
    ];
    match parts.iter().find(|(_, differ)| *differ) {
        Some((what, _)) => Err(format!("the {what} differ")),
        None => Ok(()),
    }
}

/// The figures of a run, per kind of game: (label, games, steps, referee fuel, referee CPU time), the
/// mean and the most of each.
pub struct Figures {
    pub label: String,
    pub games: usize,
    pub steps: (f64, u32),
    pub fuel: (f64, u64),
    pub cpu_ms: (f64, f64),
    pub refused: usize,
}

/// The run's figures: games of sample players at each seat count, and fuzzed games at each.
pub fn figures(played: &[Played]) -> Vec<Figures> {
    let mut groups: Vec<(String, Vec<&Played>)> = Vec::new();
    for p in played {
        let label = match p.case.fuzz {
            None => format!("{} seats, sample players", p.case.seats),
            Some(_) => format!("{} seats, one seat fuzzed", p.case.seats),
        };
        match groups.iter_mut().find(|(l, _)| *l == label) {
            Some((_, g)) => g.push(p),
            None => groups.push((label, vec![p])),
        }
    }
    groups
        .into_iter()
        .map(|(label, g)| {
            let n = g.len() as f64;
            let mean = |f: &dyn Fn(&Played) -> f64| g.iter().map(|p| f(p)).sum::<f64>() / n;
            let cpu = |p: &Played| p.cost.cpu.as_secs_f64() * 1e3;
            Figures {
                label,
                games: g.len(),
                steps: (mean(&|p| f64::from(p.cost.steps)), g.iter().map(|p| p.cost.steps).max().unwrap_or(0)),
                fuel: (mean(&|p| p.cost.fuel as f64), g.iter().map(|p| p.cost.fuel).max().unwrap_or(0)),
                cpu_ms: (mean(&cpu), g.iter().map(|p| cpu(p)).fold(0.0, f64::max)),
                refused: g.iter().map(|p| p.refused).sum(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_core::Event;

    fn event(to: Option<Vec<u32>>, text: &str) -> Event {
        Event { to: to.map(Into::into), text: text.to_string() }
    }

    fn game() -> GameOutcome {
        GameOutcome {
            scores: vec![1, 0],
            events: vec![event(Some(vec![0]), "your hand: 1 2 3 4 5 6 7 8 9 10"), event(None, "seat 0 bids")],
            view: "prize 5".into(),
            seat_views: vec!["your hand: 1 2 3 4 5 6 7 8 9 10".into(), "seat 1's view".into()],
            ..Default::default()
        }
    }

    #[test]
    fn a_private_event_shown_to_anyone_else_is_found() {
        assert_eq!(private_stays_private(&game(), 2), Ok(()), "its own seat may see it");
        let mut o = game();
        o.view = "prize 5; your hand: 1 2 3 4 5 6 7 8 9 10".into();
        assert!(private_stays_private(&o, 2).unwrap_err().contains("shown to spectators"));
        let mut o = game();
        o.seat_svgs = vec![None, Some("<svg><text>your hand: 1 2 3 4 5 6 7 8 9 10</text></svg>".into())];
        assert!(private_stays_private(&o, 2).unwrap_err().contains("shown to seat 1"));
        // The same text told to everyone is no secret.
        let mut o = game();
        o.view = "your hand: 1 2 3 4 5 6 7 8 9 10".into();
        o.events.push(event(None, "your hand: 1 2 3 4 5 6 7 8 9 10"));
        assert_eq!(private_stays_private(&o, 2), Ok(()));
    }

    #[test]
    fn events_to_seats_the_game_lacks_and_innocent_bans_fail() {
        let case = Case { seats: 2, seed: 1, fuzz: Some(Fuzz { seat: 1, every: 1 }) };
        let mut o = game();
        assert_eq!(conforms(&o, case), Ok(()));
        o.events.push(event(Some(vec![2]), "hello"));
        assert!(conforms(&o, case).unwrap_err().contains("has 2 seats"));
        let mut o = game();
        o.faults.push((1, arena_core::Fault::new(arena_core::FaultKind::Illegal, "bid", "no")));
        assert_eq!(conforms(&o, case), Ok(()), "the fuzzed seat may be banned");
        o.faults.push((0, arena_core::Fault::new(arena_core::FaultKind::Crash, "bid", "boom")));
        assert!(conforms(&o, case).unwrap_err().contains("seat 0, a seat the fuzzer did not play, was banned"));
    }

    #[test]
    fn a_referee_failure_names_the_answers_of_the_step_it_failed_on() {
        let case = Case { seats: 2, seed: 1, fuzz: None };
        let mut o = game();
        o.game_fault = Some(arena_core::Fault::new(arena_core::FaultKind::Crash, "step", "trapped"));
        let line = |seat, turn, bid: u8| arena_core::CallLine::new(seat, "bid", turn, bid.into(), 10);
        o.log = vec![line(0, 1, 3), line(1, 1, 4), line(0, 2, 5)];
        let why = conforms(&o, case).unwrap_err();
        assert!(why.ends_with("(the last answer it was handed: seat 0's `bid` in step 2: 5)"), "{why}");
        o.log.push(line(1, 2, 13));
        let why = conforms(&o, case).unwrap_err();
        assert!(
            why.ends_with(
                "(the last answers it was handed: seat 0's `bid` in step 2: 5; seat 1's `bid` in step 2: 13)"
            ),
            "{why}"
        );
    }

    #[test]
    fn two_plays_that_differ_are_told_apart() {
        assert_eq!(same_game(&game(), &game()), Ok(()));
        let mut b = game();
        b.events[1].text = "seat 0 bids 3".into();
        assert!(same_game(&game(), &b).unwrap_err().starts_with("event 2"));
        let mut b = game();
        b.scores = vec![0, 1];
        assert_eq!(same_game(&game(), &b), Err("the scores differ".into()));
    }
}
