//! The sample Santorini strategies, pure functions of a `PlayerView`: a random player and an
//! alpha-beta minimax player. The sample components export them, and the host can link the very same
//! code natively.

pub mod minimax;
pub mod random;
