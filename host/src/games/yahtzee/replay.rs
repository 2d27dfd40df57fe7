//! A Yahtzee game re-enacted from its calls: each turn's shared dice, every roll, keep and choice with
//! its fuel, and both score cards after the turn.

use super::referee;
use crate::games::replay::{ReplayInput, answer, call_line, fault_line};
use std::fmt::Write as _;
use yahtzee_rules::{Category, Roll, Scorecard, TurnDice};

#[derive(serde::Deserialize)]
struct Choice {
    #[serde(rename = "box")]
    category: String,
}

pub fn render(r: &ReplayInput<'_>) -> Result<String, String> {
    let mut out = String::new();
    let names: [String; 2] = [0, 1].map(|i| r.players.get(i).cloned().unwrap_or_default());
    let mut cards: [Scorecard; 2] = Default::default();
    let mut rolls: [Option<Roll>; 2] = [None, None];
    let mut turn = 0u32;
    let mut dice = TurnDice::draw(r.seed, 1);
    let dice_text = |d: &[u8]| d.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
    for c in r.calls {
        if c.turn != turn && c.turn > 0 {
            if turn > 0 {
                let _ = writeln!(out, "\n{}", referee::render(&names, &cards));
            }
            turn = c.turn;
            dice = TurnDice::draw(r.seed, u8::try_from(turn).map_err(|_| format!("turn {turn} is out of range"))?);
            rolls = [Some(Roll::first(&dice)), Some(Roll::first(&dice))];
            let _ = writeln!(out, "\nTurn {turn}: the 15 dice are {}", dice_text(&dice.values));
        }
        let seat = c.seat.min(1);
        match c.call.as_ref() {
            "keep" => {
                // An answer too long to keep was recorded cut, as text: it was refused.
                let Ok(keep) = answer::<Vec<u8>>(c) else {
                    call_line(&mut out, r, c, &c.answer.to_string());
                    let _ = writeln!(out, "  refused: not a list of dice");
                    continue;
                };
                let roll = rolls[seat].as_ref().ok_or_else(|| format!("`keep` outside a turn at turn {}", c.turn))?;
                let shown = format!("{} keeps [{}]", dice_text(&roll.dice), dice_text(&keep));
                call_line(&mut out, r, c, &shown);
                match roll.reroll(&dice, &keep) {
                    Ok(next) => rolls[seat] = Some(next),
                    Err(e) => {
                        let _ = writeln!(out, "  refused: {e}");
                    }
                }
            }
            "choose" => {
                let choice: Choice = answer(c)?;
                let roll = rolls[seat].as_ref().ok_or_else(|| format!("`choose` outside a turn at turn {}", c.turn))?;
                let category = Category::ALL.into_iter().find(|k| k.name() == choice.category);
                let shown = format!("{} into {}", dice_text(&roll.dice), choice.category);
                call_line(&mut out, r, c, &shown);
                match category.map(|k| (k, cards[seat].play(&roll.dice, k))) {
                    Some((k, Ok(card))) => {
                        let got = card.get(k).unwrap_or(0);
                        cards[seat] = card;
                        let _ = writeln!(out, "  {:<20} scores {got}", "");
                    }
                    Some((_, Err(e))) => {
                        let _ = writeln!(out, "  refused: {e}");
                    }
                    None => {
                        let _ = writeln!(out, "  refused: no box is called `{}`", choice.category);
                    }
                }
            }
            _ => call_line(&mut out, r, c, &c.answer.to_string()),
        }
    }
    for (seat, f) in r.faults {
        fault_line(&mut out, r, *seat, f);
    }
    let _ = writeln!(out, "\n{}", referee::render(&names, &cards));
    Ok(out)
}
