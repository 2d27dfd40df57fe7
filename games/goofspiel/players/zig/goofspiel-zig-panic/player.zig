//! goofspiel-zig-panic: panics in its first bid; banned for a crash, its last words shown.
const std = @import("std");
const abi = @import("abi.zig");

export fn player_bid(st: *const abi.state) u8 {
    std.debug.print("goofspiel-zig-panic: {d} cards and none worth bidding\n", .{st.hand.len});
    @panic("goofspiel-zig-panic: gave up");
}
