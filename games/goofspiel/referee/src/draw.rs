//! Goofspiel drawn as an SVG document for the replay viewer and `arena play --svg`: the prize turned up
//! and the prizes carried to it, each seat's score, every revealed round (its bids, the winner's
//! marked); and for a seat, its own hand and its own secret bid this round. Spectators and the other
//! seats see neither: the drawing shows no one what the events would not.

use crate::game::Table;
use arena_referee::svg::{escaped, open};
use goofspiel_rules::{ROUNDS, seat_letter};
use std::fmt::Write as _;

const ROW: u32 = 18;
/// Where the rounds' table starts.
const TABLE: u32 = 132;

/// The game as `seat` sees it (`None`: a spectator).
pub fn svg(g: &Table, seat: Option<u32>) -> String {
    let r = &g.rules;
    let n = r.seats();
    let seat = seat.and_then(|s| usize::try_from(s).ok()).filter(|&s| s < n);
    let width = (200 + 52 * n as u32 + 70).max(410);
    let hand_rows = if seat.is_some() { 80 } else { 0 };
    let height = TABLE + (ROUNDS as u32 + 1) * ROW + 16 + hand_rows;
    let mut s = open(width, height);
    let status = match r.prize() {
        Some(_) => format!("round {} of {ROUNDS}", r.round()),
        None => {
            let verdict = match r.winners().unwrap_or_default().as_slice() {
                [] => "nobody wins".to_string(),
                [w] => format!("{} wins", seat_letter(*w)),
                many => {
                    many.iter().map(|&w| seat_letter(w).to_string()).collect::<Vec<_>>().join(", ") + " share the win"
                }
            };
            format!("game over: {verdict}")
        }
    };
    let _ = write!(s, "<text x=\"12\" y=\"20\" font-size=\"15\">Goofspiel, {n} seats: {status}</text>");
    // The prize turned up, and what was carried to it.
    if let Some(prize) = r.prize() {
        let _ = write!(
            s,
            "<g class=\"prize\"><rect x=\"12\" y=\"32\" width=\"60\" height=\"84\" rx=\"6\" fill=\"#fff\" \
             stroke=\"#b8860b\" stroke-width=\"3\"/><text x=\"42\" y=\"84\" font-size=\"30\" \
             text-anchor=\"middle\">{prize}</text><text x=\"42\" y=\"110\" font-size=\"10\" \
             text-anchor=\"middle\" fill=\"#8a6500\">prize</text></g>"
        );
        if !r.carried().is_empty() {
            let carried: Vec<String> = r.carried().iter().map(|c| format!("+{c}")).collect();
            let _ = write!(
                s,
                "<text x=\"12\" y=\"128\" font-size=\"11\" fill=\"#8a6500\">carried: {}</text>",
                carried.join(" ")
            );
        }
    }
    // Each seat, its name and its score (out: struck through).
    for i in 0..n {
        let y = 44 + i as u32 * 14;
        let out = if r.is_playing(i) { "" } else { " text-decoration=\"line-through\" fill=\"#999\"" };
        let me = if seat == Some(i) { " font-weight=\"bold\"" } else { "" };
        let _ = write!(
            s,
            "<text x=\"92\" y=\"{y}\" font-size=\"12\"{out}{me}>{} {}: {}</text>",
            seat_letter(i),
            escaped(&g.names()[i], 18),
            r.scores()[i]
        );
    }
    // The revealed rounds: the prize, each seat's bid (the winner's marked), who took it.
    let col = |i: usize| 150 + 52 * i as u32;
    let head = TABLE + ROW - 4;
    let _ = write!(s, "<text x=\"12\" y=\"{head}\" font-weight=\"bold\">round</text>");
    let _ = write!(s, "<text x=\"70\" y=\"{head}\" font-weight=\"bold\">prize</text>");
    for i in 0..n {
        let _ = write!(s, "<text x=\"{}\" y=\"{head}\" font-weight=\"bold\">{}</text>", col(i), seat_letter(i));
    }
    for (k, round) in r.history().iter().enumerate() {
        let y = TABLE + (k as u32 + 2) * ROW - 4;
        let _ = write!(s, "<text x=\"12\" y=\"{y}\">{}</text>", round.number);
        let _ = write!(s, "<text x=\"70\" y=\"{y}\">{}</text>", round.value());
        for (i, bid) in round.bids.iter().enumerate() {
            let (text, mark) = match bid {
                Some(b) if round.winner == Some(i) => (b.to_string(), " font-weight=\"bold\" fill=\"#1a7f37\""),
                Some(b) => (b.to_string(), ""),
                None => ("out".to_string(), " fill=\"#999\""),
            };
            let _ = write!(s, "<text x=\"{}\" y=\"{y}\"{mark}>{text}</text>", col(i));
        }
        let taken = match round.winner {
            Some(w) => format!("{} takes it", seat_letter(w)),
            None if round.discarded() => "tie: discarded".to_string(),
            None => "tie: carried".to_string(),
        };
        let _ = write!(s, "<text x=\"{}\" y=\"{y}\" font-size=\"11\" fill=\"#555\">{taken}</text>", col(n));
    }
    // A seat's own hand: the cards it still holds dark, the ones played faded, its bid outlined.
    if let Some(me) = seat {
        let top = TABLE + (ROUNDS as u32 + 1) * ROW + 16;
        let hand = r.hand(me);
        let bid = r.bid_of(me);
        let _ =
            write!(s, "<text x=\"12\" y=\"{}\" font-weight=\"bold\">your hand ({})</text>", top + 4, seat_letter(me));
        for card in 1..=ROUNDS as u8 {
            let x = 12 + u32::from(card - 1) * 30;
            let (fill, ink, class) = match (hand.contains(card), bid == Some(card)) {
                (_, true) => ("#ffe9a8", "#222", "card bid"),
                (true, false) => ("#fff", "#222", "card"),
                (false, false) => ("#eee", "#bbb", "card played"),
            };
            let _ = write!(
                s,
                "<g class=\"{class}\"><rect x=\"{x}\" y=\"{}\" width=\"26\" height=\"36\" rx=\"4\" fill=\"{fill}\" \
                 stroke=\"#555\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{ink}\">{card}</text></g>",
                top + 12,
                x + 13,
                top + 35
            );
        }
        if let Some(b) = bid {
            let _ = write!(s, "<text x=\"12\" y=\"{}\" font-size=\"11\">your bid this round: {b}</text>", top + 64);
        }
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        ["<ann>", "bob", "cy"][..n].iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_seat_sees_its_own_hand_and_bid_and_no_one_else_does() {
        let mut g = Table::start(names(3), 5, &[]).unwrap();
        let first = g.rules.hand(0).cards()[4];
        g.apply(0, first).unwrap();
        let mine = svg(&g, Some(0));
        let theirs = svg(&g, Some(1));
        let spectators = svg(&g, None);
        for d in [&mine, &theirs, &spectators] {
            assert!(d.starts_with("<svg") && d.ends_with("</svg>"));
            assert!(d.contains("&lt;ann&gt;") && !d.contains("<ann>"), "names are escaped");
            assert!(d.contains("class=\"prize\""), "the prize is up");
        }
        assert!(mine.contains("your hand (A)") && mine.contains(&format!("your bid this round: {first}")));
        assert_eq!(mine.matches("class=\"card bid\"").count(), 1);
        assert!(theirs.contains("your hand (B)") && !theirs.contains("your bid this round"), "{theirs}");
        assert!(!spectators.contains("your hand") && !spectators.contains("class=\"card"), "{spectators}");
    }

    #[test]
    fn revealed_rounds_show_every_bid_and_the_winner() {
        let mut g = Table::start(names(2), 5, &[]).unwrap();
        let prize = g.rules.prize().unwrap();
        g.apply(0, 13).unwrap();
        g.apply(1, 1).unwrap();
        let d = svg(&g, None);
        assert!(d.contains(">13</text>") && d.contains("A takes it"), "{d}");
        assert!(d.contains(&format!("<text x=\"70\" y=\"{}\">{prize}</text>", TABLE + 2 * ROW - 4)), "{d}");
        let mine = svg(&g, Some(0));
        assert_eq!(mine.matches("class=\"card played\"").count(), 1, "the 13 is played");
    }
}
