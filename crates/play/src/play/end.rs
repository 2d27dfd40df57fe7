//! How a game ends: its outcome and final views, and a replay's frames and the referee's drawings.

use super::super::Package;
use super::super::referee::{EVENT_BYTES, Referee, protocol, view};
use arena_core::{CallLine, Fault, Finals, Frame, GameOutcome, QUOTE_CHARS};
use wasmtime::component::Val;

impl Package {
    /// What a game that ended keeps of its end: the outcome and the spectators' final view, and the
    /// drawings and each seat's view if `finals` asks for them.
    pub(super) async fn conclude(
        &self,
        referee: &mut Referee,
        n: usize,
        finals: Finals,
        out: &mut GameOutcome,
    ) -> Result<(), Fault> {
        let Val::Option(Some(outcome)) = referee.call("outcome", &[]).await? else {
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
        if finals == Finals::All {
            out.svg = self.svg(referee, None).await?;
            for seat in 0..n {
                out.seat_views.push(view(referee, Some(seat as u32)).await?);
            }
            if self.svg {
                for seat in 0..n {
                    let drawn = self.svg(referee, Some(seat as u32)).await?;
                    out.seat_svgs.push(drawn);
                }
            }
        }
        Ok(())
    }

    /// A replay's frame after `step`: the record's `lines` of the step, the events the referee emitted
    /// from the `events`-th on (taken from it now), its view and its drawing.
    pub(super) async fn frame(
        &self,
        referee: &mut Referee,
        step: u32,
        lines: Vec<CallLine>,
        events: usize,
    ) -> Result<Frame, Fault> {
        referee.take_events().await?;
        let view = view(referee, None).await?;
        let svg = self.svg(referee, None).await?;
        // A frame holds its step's lines and events again: counted again towards the record.
        let events = referee.store.data().events[events..].to_vec();
        let again = events.iter().map(|e| e.text.len() + EVENT_BYTES).sum::<usize>()
            + lines.iter().map(|l| arena_core::LINE_BYTES + l.output.len() + QUOTE_CHARS).sum::<usize>();
        referee.record("view", again)?;
        Ok(Frame { step, lines, events, view, svg })
    }

    /// The referee's drawing for `seat` (`None`: spectators), when it exports `svg`; a drawing over
    /// [`SVG_BYTES`] or that is not an `<svg>` document is the game's fault.
    async fn svg(&self, referee: &mut Referee, seat: Option<u32>) -> Result<Option<String>, Fault> {
        if !self.svg {
            return Ok(None);
        }
        let arg = Val::Option(seat.map(|s| Box::new(Val::U32(s))));
        let Val::Option(drawn) = referee.call("svg", &[arg]).await? else {
            return Err(protocol("svg", "did not return option<string>"));
        };
        match drawn.map(|d| *d) {
            None => Ok(None),
            Some(Val::String(svg)) if svg.len() > SVG_BYTES => {
                Err(protocol("svg", format!("drew {} bytes; a drawing may have at most {SVG_BYTES}", svg.len())))
            }
            Some(Val::String(svg)) if svg.trim_start().starts_with("<svg") => {
                referee.record("svg", svg.len())?;
                Ok(Some(svg))
            }
            Some(_) => Err(protocol("svg", "drew something that is not an <svg> document")),
        }
    }
}

/// The largest drawing a referee may make of a position.
pub const SVG_BYTES: usize = 256 * 1024;
