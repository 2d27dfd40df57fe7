//! What the misbehaving sample players do wrong, shared by every game's guest glue: spin forever
//! (the `-loop` players) and hoard memory until the cap stops them (the `-hog` players).

/// Never returns: spins without allocating.
pub fn spin() -> ! {
    let mut x: u64 = 1;
    loop {
        x = core::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
}

/// Reserves 1 MiB after 1 MiB without touching it (so it burns little fuel), until the memory cap
/// stops it.
pub fn hoard() -> ! {
    let mut hoard: Vec<Vec<u8>> = Vec::new();
    loop {
        let mut block = Vec::<u8>::with_capacity(1 << 20);
        block.push(7);
        hoard.push(core::hint::black_box(block));
    }
}
