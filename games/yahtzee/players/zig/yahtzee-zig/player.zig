//! yahtzee-zig: the strategy every language's Yahtzee sample plays (yahtzee-c's, whose comments say
//! why), in Zig: keep made hands, 4-long straights or the most useful face; score the legal box with the
//! best score over par, asking the host's rule checker. It answers exactly as yahtzee-rust does.
const abi = @import("abi.zig");

/// What a box is worth kept open for later, in tenths of a point (yahtzee-c's table).
const par = [13]c_int{ 21, 53, 86, 122, 157, 192, 217, 131, 226, 295, 327, 169, 220 };

const View = struct {
    dice: [5]u8 = @splat(0),
    counts: [7]usize = @splat(0),
    open: [13]bool = @splat(true),
    max_count: usize = 0,
    run: u8 = 0,
    run_start: u8 = 1,
};

fn readView(st: *const abi.turn_state) ?View {
    if (st.dice.len != 5) return null;
    var v = View{};
    for (st.dice.ptr[0..5], 0..) |d, i| {
        if (d < 1 or d > 6) return null;
        v.dice[i] = d;
        v.counts[d] += 1;
    }
    if (st.mine.boxes.len == 13) {
        for (st.mine.boxes.ptr[0..13], 0..) |b, c| v.open[c] = b.is_some == 0;
    }
    var f: usize = 6;
    while (f >= 1) : (f -= 1) {
        if (v.counts[f] > v.max_count) v.max_count = v.counts[f];
    }
    var len: u8 = 0;
    var face: u8 = 1;
    while (face <= 6) : (face += 1) {
        len = if (v.counts[face] > 0) len + 1 else 0;
        if (len > v.run) {
            v.run = len;
            v.run_start = face - len + 1;
        }
    }
    return v;
}

fn keepAll(v: *const View, out: [*c]u8) c_int {
    for (v.dice, 0..) |d, i| out[i] = d;
    return 5;
}

fn keepRun(v: *const View, len: u8, out: [*c]u8) c_int {
    var i: u8 = 0;
    while (i < len) : (i += 1) out[i] = v.run_start + i;
    return len;
}

fn keepFace(v: *const View, face: usize, n: usize, out: [*c]u8) usize {
    var m = n;
    for (0..v.counts[face]) |_| {
        out[m] = @intCast(face);
        m += 1;
    }
    return m;
}

export fn strategy_keep(st: *const abi.turn_state, out: [*c]u8) c_int {
    const v = readView(st) orelse return 0;
    const straights = v.open[abi.CAT_SMALL_STRAIGHT] or v.open[abi.CAT_LARGE_STRAIGHT];
    var pairs: usize = 0;
    var trips: usize = 0;
    for (1..7) |f| {
        if (v.counts[f] == 2) pairs += 1;
        if (v.counts[f] == 3) trips += 1;
    }
    // Made hands.
    if (v.max_count == 5) return keepAll(&v, out);
    if (v.run == 5 and v.open[abi.CAT_LARGE_STRAIGHT]) return keepAll(&v, out);
    if (v.run >= 4 and v.open[abi.CAT_SMALL_STRAIGHT] and !v.open[abi.CAT_LARGE_STRAIGHT]) return keepAll(&v, out);
    if (trips > 0 and pairs > 0 and v.open[abi.CAT_FULL_HOUSE]) return keepAll(&v, out);
    // Draws: a 4-long straight, two pairs for a full house, a 3-long straight when nothing pairs up.
    if (v.run >= 4 and v.open[abi.CAT_LARGE_STRAIGHT]) return keepRun(&v, 4, out);
    if (pairs == 2 and v.open[abi.CAT_FULL_HOUSE]) {
        var n: usize = 0;
        for (1..7) |f| {
            if (v.counts[f] == 2) n = keepFace(&v, f, n, out);
        }
        return @intCast(n);
    }
    if (v.run >= 3 and v.max_count == 1 and straights) return keepRun(&v, 3, out);
    // Otherwise the face with the most dice, preferring one whose upper box is open, then high faces.
    const of_a_kind = v.open[abi.CAT_THREE_KIND] or v.open[abi.CAT_FOUR_KIND] or v.open[abi.CAT_YAHTZEE];
    var best: usize = 0;
    var best_value: isize = -1;
    for (1..7) |f| {
        if (v.counts[f] == 0) continue;
        var value: isize = @intCast(v.counts[f] * 10 + f);
        if (v.open[f - 1]) value += 4;
        if (of_a_kind) value += 2;
        if (value > best_value) {
            best_value = value;
            best = f;
        }
    }
    return @intCast(keepFace(&v, best, 0, out));
}

export fn strategy_choose(st: *const abi.turn_state) c_int {
    const v = readView(st) orelse return abi.CAT_CHANCE;
    var best: c_int = -1;
    var best_value: c_int = 0;
    var c: c_int = 0;
    while (c < abi.CAT_COUNT) : (c += 1) {
        const i: usize = @intCast(c);
        if (!v.open[i]) continue; // a used box is never allowed
        const score = abi.rules_score(&st.mine, &v.dice, c); // -1: not allowed now
        if (score < 0) continue;
        var value = score * 10 - par[i];
        // Three or more of a face in its upper box keeps the 35-point bonus within reach.
        if (c <= abi.CAT_SIXES and v.counts[i + 1] >= 3 and st.mine.upper_bonus == 0) value += 30;
        if (best < 0 or value > best_value) {
            best = c;
            best_value = value;
        }
    }
    if (best >= 0) return best;
    for (v.open, 0..) |o, i| {
        if (o) return @intCast(i); // never reached: the rules always leave a box
    }
    return abi.CAT_CHANCE;
}
