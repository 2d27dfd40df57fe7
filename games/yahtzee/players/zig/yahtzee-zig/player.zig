//! yahtzee-zig: keeps the dice of its most frequent face (the higher face on a tie), and scores in the
//! box the host's rule checker rates best, tens of points ahead of the upper boxes kept for the bonus.
const abi = @import("abi.zig");

fn counts(state: *const abi.turn_state) [7]u8 {
    var c: [7]u8 = @splat(0);
    for (state.dice.ptr[0..state.dice.len]) |d| {
        if (d >= 1 and d <= 6) c[d] += 1;
    }
    return c;
}

export fn strategy_keep(state: *const abi.turn_state, out: [*c]u8) c_int {
    const c = counts(state);
    var best: u8 = 6;
    var face: u8 = 6;
    while (face >= 1) : (face -= 1) {
        if (c[face] > c[best]) best = face;
    }
    var n: usize = 0;
    for (0..c[best]) |_| {
        out[n] = best;
        n += 1;
    }
    return @intCast(n);
}

export fn strategy_choose(state: *const abi.turn_state) c_int {
    const dice = state.dice.ptr;
    var best: c_int = abi.CAT_CHANCE;
    var best_value: c_int = -1000;
    var box: c_int = 0;
    while (box < abi.CAT_COUNT) : (box += 1) {
        const score = abi.rules_score(&state.mine, dice, box);
        if (score < 0) continue;
        // An upper box is worth a little more than its score (the bonus); chance is the last resort.
        var value = score * 10;
        if (box <= abi.CAT_SIXES) value += 25;
        if (box == abi.CAT_CHANCE) value -= 150;
        if (value > best_value) {
            best_value = value;
            best = box;
        }
    }
    return best;
}
