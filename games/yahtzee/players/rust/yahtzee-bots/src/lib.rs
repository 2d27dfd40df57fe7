//! The sample Yahtzee strategies, pure functions of a `PlayerView`: the sample components export them
//! through `yahtzee-guest`, and the host links the very same code natively as its speed baseline.

pub mod greedy;
pub mod random;
