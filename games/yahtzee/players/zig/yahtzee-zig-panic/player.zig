//! yahtzee-zig-panic: panics in its first `keep`; banned for a crash, its last words shown.
const std = @import("std");
const abi = @import("abi.zig");

export fn strategy_keep(state: *const abi.turn_state, out: [*c]u8) c_int {
    _ = out;
    std.debug.print("yahtzee-zig-panic: {d} dice and no idea what to keep\n", .{state.dice.len});
    @panic("yahtzee-zig-panic: gave up");
}

export fn strategy_choose(state: *const abi.turn_state) c_int {
    _ = state;
    return abi.CAT_CHANCE;
}
