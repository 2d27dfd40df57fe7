//! Handing a step's answers to the referee: in order, each recorded first, refused ones banned, and
//! those whose request the referee no longer makes dropped; through its typed `step` or its flat one.

use super::super::answers::{Answers, Handed, PerStep, Step, ban, refill_answer, take_answer, unfollowed};
use super::super::referee::{Referee, Took, protocol};
use super::super::values;
use arena_core::{CallLine, Fault, GameOutcome};
use wasmtime::component::Val;

/// What handing a step's answers to the referee works on: the referee, who is banned, the game's
/// record, the step, and whether the answers come from a record.
pub(super) struct Hand<'g> {
    pub(super) referee: &'g mut Referee,
    pub(super) banned: &'g mut Vec<bool>,
    pub(super) out: &'g mut GameOutcome,
    pub(super) step: u32,
    pub(super) replaying: bool,
}

impl Hand<'_> {
    /// Hands `batch` to the referee's `step`, in order, until it has taken them all: each answer is
    /// recorded before it is handed over (a referee that fails on it leaves it in the record); a
    /// refused one bans its seat; after a change, the answers whose request the referee no longer
    /// makes are dropped (see `Step`), and the rest are handed over again.
    pub(super) async fn hand(
        &mut self,
        answers: &mut Answers<'_, '_>,
        this: &mut Step<'_>,
        batch: &mut PerStep<Handed<'_>>,
    ) -> Result<(), Fault> {
        while !batch.is_empty() {
            if this.changed {
                if self.replaying
                    && let Some(h) = batch.iter().find(|h| !this.asks(self.referee, h.seat))
                {
                    return Err(unfollowed(h.seat, &h.case.name));
                }
                batch.retain(|h| this.asks(self.referee, h.seat));
                if batch.is_empty() {
                    break;
                }
            }
            let start = self.out.log.len();
            for h in batch.iter_mut() {
                let recorded = h.answer.as_ref().map_or(serde_json::Value::Null, values::to_json);
                let (line, bytes) = CallLine::measured(h.seat, h.case.name.clone(), self.step, recorded, h.fuel);
                let output = std::mem::take(&mut h.output);
                // An answer handed over again after a change was counted when first recorded.
                if !h.counted {
                    self.referee.record("step", bytes + output.len())?;
                    h.counted = true;
                }
                self.out.log.push(CallLine { micros: h.micros, output, ..line });
                self.out.fuel[h.seat] += h.fuel;
            }
            self.referee.handed += 1;
            let took = if self.referee.flat.is_some() { self.flat(batch)?.await? } else { self.typed(batch).await? };
            let k = took.taken as usize;
            if k == 0 || k > batch.len() {
                return Err(protocol("step", format!("took {k} of the {} answers it was handed", batch.len())));
            }
            // The answers it did not take leave the record until they are handed over again.
            for h in batch.iter_mut().skip(k) {
                self.out.fuel[h.seat] -= h.fuel;
            }
            for (h, line) in batch.iter_mut().skip(k).zip(self.out.log.drain(start + k..)) {
                h.output = line.output;
            }
            let last = batch.drain(..k).next_back().map(|h| (h.seat, h.case.name.as_str()));
            this.change();
            if let (Some(why), Some((seat, case))) = (took.refused, last) {
                answers.refused(seat);
                // Boxed: a refusal is rare, and its future would make every step's larger.
                Box::pin(ban(
                    self.referee,
                    answers,
                    self.banned,
                    self.out,
                    (seat, self.step),
                    Fault::illegal(case, why),
                ))
                .await?;
            }
        }
        Ok(())
    }

    /// Hands `batch` to the referee's typed `step`; the answers it does not take are handed back to
    /// `batch`.
    async fn typed(&mut self, batch: &mut PerStep<Handed<'_>>) -> Result<Took, Fault> {
        // The values of the last step's answers, refilled in place (their tuples, case names and
        // boxes are allocated once a game, not once an answer).
        let mut items = std::mem::take(&mut self.referee.answers);
        items.truncate(batch.len());
        for (j, h) in batch.iter_mut().enumerate() {
            refill_answer(&mut items, j, h.seat as u32, &h.case.name, h.answer.take());
        }
        let params = [Val::List(items)];
        let next = self.referee.call("step", &params).await?;
        let took = self.referee.take_next("step", next)?;
        let [Val::List(mut items)] = params else { return Err(protocol("step", "its answers were not a list")) };
        for (h, item) in batch.iter_mut().zip(items.iter_mut()).skip(took.taken as usize) {
            h.answer = take_answer(item);
        }
        self.referee.answers = items;
        Ok(took)
    }

    /// Writes `batch` in flat form (see [`crate::flat`]) for the referee's flat `step`, and the future
    /// that calls it; the answers stay in `batch`.
    fn flat(&mut self, batch: &PerStep<Handed<'_>>) -> Result<impl Future<Output = Result<Took, Fault>>, Fault> {
        let bytes = &mut self.referee.bytes;
        bytes.clear();
        crate::flat::varint(bytes, batch.len() as u64);
        for h in batch.iter() {
            crate::flat::varint(bytes, h.seat as u64);
            crate::flat::varint(bytes, u64::from(h.case.answer_index));
            match (&h.answer, &h.case.answer_shape) {
                (Some(v), Some(ty)) => crate::flat::write(v, ty, bytes)
                    .map_err(|e| protocol("step", format!("seat {}'s answer has no flat form: {e}", h.seat)))?,
                (None, None) => {}
                _ => return Err(protocol("step", format!("seat {}'s answer does not fit its case", h.seat))),
            }
        }
        Ok(self.referee.step_flat())
    }
}
