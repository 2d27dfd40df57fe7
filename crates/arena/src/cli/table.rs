//! Ratings as the command line prints them: the rating system of a game, a rating, and a table of
//! players with their ratings and records.

use arena_service::packages::seats_of;
use arena_service::store::Leader;
use arena_service::tournaments::ratings::{Rating, System};
use std::fmt::Write as _;

pub fn system(game: &str) -> System {
    System::for_seats(seats_of(game).unwrap_or(2..=2))
}

pub fn show(r: &Rating) -> String {
    format!("{:.1} ± {:.1}", r.rating, r.deviation)
}

pub fn table(s: &mut String, rows: &[Leader], ranked: bool) {
    let w = rows.iter().map(|l| l.name.len()).max().unwrap_or(4).max(6);
    let _ = writeln!(
        s,
        "  {:>5}  {:<w$}  {:>7}  {:>15}  {:>5} {:>5} {:>5}  {:>6}  submitted",
        if ranked { "place" } else { "" },
        "player",
        "version",
        "rating",
        "won",
        "lost",
        "tied",
        "faults"
    );
    // Ranked: the places each rating's interval allows (`3–5` where intervals overlap).
    for l in rows {
        let rank = if ranked { arena_service::tournaments::ratings::rank_text(l.rank_range) } else { String::new() };
        let _ = writeln!(
            s,
            "  {rank:>5}  {:<w$}  {:>7}  {:>15}  {:>5} {:>5} {:>5}  {:>6}  {}",
            l.name,
            format!("v{}", l.version),
            show(&l.rating),
            l.games.won,
            l.games.lost,
            l.games.tied,
            l.faults,
            l.submitted_at
        );
    }
}
