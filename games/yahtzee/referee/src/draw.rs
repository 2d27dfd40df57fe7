//! Yahtzee drawn as an SVG document for the replay viewer and `arena play --svg`: the dice of the seat
//! to move (the ones it held raised and outlined) and both score cards side by side, the column of the
//! seat to move shaded. Nothing in Yahtzee is hidden, so every seat and spectators see the same.

use crate::game::Table;
use arena_referee::svg::{escaped, open};
use std::fmt::Write as _;
use yahtzee_rules::Category;

const WIDTH: u32 = 400;
const DIE: u32 = 48;
const ROW: u32 = 22;
/// Where the score cards start.
const TABLE: u32 = 118;

/// The pips of a die showing `value`, as offsets in a 48-pixel square.
fn pips(value: u8) -> &'static [(u32, u32)] {
    const L: u32 = 13;
    const M: u32 = 24;
    const H: u32 = 35;
    match value {
        1 => &[(M, M)],
        2 => &[(L, L), (H, H)],
        3 => &[(L, L), (M, M), (H, H)],
        4 => &[(L, L), (H, L), (L, H), (H, H)],
        5 => &[(L, L), (H, L), (M, M), (L, H), (H, H)],
        6 => &[(L, L), (H, L), (L, M), (H, M), (L, H), (H, H)],
        _ => &[],
    }
}

/// The game as an SVG document.
pub fn svg(g: &Table) -> String {
    let (turn, seat, dice, held, rolls_left) = g.table();
    let names = g.names();
    let cards = g.cards();
    let rows = Category::ALL.len() as u32 + 4;
    let height = TABLE + rows * ROW + 12;
    let mut s = open(WIDTH, height);
    let status = if g.is_over() {
        let [a, b] = [0, 1].map(|s| cards[s].total());
        format!("game over: {a} to {b}")
    } else if turn == 0 {
        "the game is about to start".to_string()
    } else {
        let left = if rolls_left == 1 { "1 re-roll left".to_string() } else { format!("{rolls_left} re-rolls left") };
        format!("turn {turn} of 13: {} to move, {left}", escaped(&names[seat], 20))
    };
    let _ = write!(s, "<text x=\"12\" y=\"20\" font-size=\"15\">{status}</text>");
    if turn > 0 {
        for (i, &value) in dice.iter().enumerate() {
            let is_held = i < held;
            let x = 12 + i as u32 * (DIE + 14);
            // A held die sits higher, outlined in gold.
            let y = if is_held { 32 } else { 40 };
            let (fill, stroke, width) = if is_held { ("#ffe9a8", "#b8860b", 3) } else { ("#ffffff", "#333333", 1) };
            let _ = write!(
                s,
                "<g class=\"die{}\"><rect x=\"{x}\" y=\"{y}\" width=\"{DIE}\" height=\"{DIE}\" rx=\"8\" \
                 fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"/>",
                if is_held { " held" } else { "" }
            );
            for (px, py) in pips(value) {
                let _ = write!(s, "<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"#222\"/>", x + px, y + py);
            }
            s.push_str("</g>");
            if is_held {
                let _ = write!(s, "<text x=\"{}\" y=\"100\" font-size=\"11\" fill=\"#8a6500\">held</text>", x + 12);
            }
        }
    }
    // The score cards: box, then a column per seat (the seat to move shaded while the game goes on).
    let col = |i: u32| 170 + i * 110;
    if !g.is_over() && turn > 0 {
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"104\" height=\"{}\" fill=\"#e8f0fb\"/>",
            col(seat as u32) - 4,
            TABLE,
            rows * ROW
        );
    }
    let mut row = 0;
    let mut line = |s: &mut String, label: &str, cells: [String; 2], bold: bool| {
        let y = TABLE + row * ROW + 16;
        let weight = if bold { " font-weight=\"bold\"" } else { "" };
        let _ = write!(s, "<text x=\"12\" y=\"{y}\"{weight}>{label}</text>");
        for (i, c) in cells.iter().enumerate() {
            let _ = write!(s, "<text x=\"{}\" y=\"{y}\"{weight}>{c}</text>", col(i as u32));
        }
        let _ = write!(s, "<line x1=\"8\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#ddd\"/>", WIDTH - 8, y + 6, y + 6);
        row += 1;
    };
    line(&mut s, "box", [0, 1].map(|i| escaped(&names[i], 14)), true);
    for c in Category::ALL {
        line(&mut s, c.name(), [0, 1].map(|i| cards[i].get(c).map_or("·".to_string(), |v| v.to_string())), false);
    }
    line(&mut s, "upper bonus", [0, 1].map(|i| cards[i].upper_bonus().to_string()), false);
    line(&mut s, "yahtzee bonus", [0, 1].map(|i| cards[i].yahtzee_bonus.to_string()), false);
    line(&mut s, "total", [0, 1].map(|i| cards[i].total().to_string()), true);
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Move;

    #[test]
    fn the_drawing_shows_both_cards_and_the_dice_with_the_held_ones_marked() {
        let names = ["<alice>".to_string(), "bob & co".to_string()];
        let mut g = Table::new(names, 7, &mut |_| {});
        let before = svg(&g);
        assert!(before.starts_with("<svg") && before.ends_with("</svg>"));
        assert!(before.contains("about to start") && !before.contains("class=\"die"), "{before}");
        // The names are escaped: a player's name cannot break the document.
        assert!(before.contains("&lt;alice&gt;") && before.contains("bob &amp; co") && !before.contains("<alice>"));
        g.apply(0, Move::GameStart, &mut |_| {}).unwrap();
        g.apply(1, Move::GameStart, &mut |_| {}).unwrap();
        let rolled = svg(&g);
        assert_eq!(rolled.matches("class=\"die\"").count(), 5, "five dice, none held: {rolled}");
        let (_, _, dice, _, _) = g.table();
        let keep = [dice[0], dice[3]];
        g.apply(0, Move::Keep(&keep), &mut |_| {}).unwrap();
        let kept = svg(&g);
        assert_eq!(kept.matches("class=\"die held\"").count(), 2, "{kept}");
        assert_eq!(kept.matches("class=\"die\"").count(), 3);
        assert!(kept.contains("1 re-roll left"));
        for c in Category::ALL {
            assert!(kept.contains(&format!(">{}<", c.name())), "the box {c} is drawn");
        }
    }
}
