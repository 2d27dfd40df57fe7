//! yahtzee-zig-loop: loops for ever in its first `keep`; banned for fuel.
const std = @import("std");
const abi = @import("abi.zig");

export fn strategy_keep(state: *const abi.turn_state, out: [*c]u8) c_int {
    _ = state;
    _ = out;
    std.debug.print("yahtzee-zig-loop: thinking (for ever)\n", .{});
    var n: u64 = 0;
    while (true) {
        n +%= 1;
        std.mem.doNotOptimizeAway(n);
    }
}

export fn strategy_choose(state: *const abi.turn_state) c_int {
    _ = state;
    return abi.CAT_CHANCE;
}
