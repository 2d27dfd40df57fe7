//! The sample Fish strategies, pure functions of a `PlayerView`: the sample components can export them
//! through a guest crate, and the host can link the very same code natively as its baseline.

pub mod greedy;
pub mod random;
