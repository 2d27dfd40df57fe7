//! goofspiel-zig: bids the smallest card worth the pot (the prize and what was carried over to it,
//! at most 13), else its highest card: the prize's own card is always in hand, as each prize comes up once.
const abi = @import("abi.zig");

export fn player_bid(st: *const abi.state) u8 {
    const hand = st.hand.ptr[0..st.hand.len];
    if (hand.len == 0) return 1;
    var pot: u32 = st.prize;
    for (st.carried.ptr[0..st.carried.len]) |c| pot += c;
    const want: u8 = @intCast(@min(pot, 13));
    for (hand) |card| {
        if (card >= want) return card; // the hand is ascending
    }
    return hand[hand.len - 1];
}
