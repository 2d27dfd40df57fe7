//! goofspiel-zig-loop: loops for ever in its first bid; banned for fuel.
const std = @import("std");
const abi = @import("abi.zig");

export fn player_bid(st: *const abi.state) u8 {
    _ = st;
    std.debug.print("goofspiel-zig-loop: thinking (for ever)\n", .{});
    var n: u64 = 0;
    while (true) {
        n +%= 1;
        std.mem.doNotOptimizeAway(n);
    }
}
