//! Client addresses that keep opening connections after being refused are shunned in the kernel: a
//! classic BPF filter on the listening socket drops their packets, so a flood of reconnects costs the
//! server no handshake, accept, close or reset, and the flooder waits on its own SYN retransmission
//! (a second, then two more, …). Clients are counted as the caps count them (an IPv6 address by its
//! /64 network). A shun lasts a second, doubling for an address shunned again soon
//! after (up to a minute). Needs no privilege; where the kernel refuses the filter, refused
//! connections are only closed as they are accepted, as before.

use std::collections::HashMap;
use std::net::IpAddr;
use std::os::fd::RawFd;
use std::time::{Duration, Instant};

use super::limits::{Bucket, Rate, client_key};

/// Refusals (connections past the address's rate or cap) an address may draw, at once and a second
/// on average, before it is shunned: a browser never comes near; a client ignoring refusals does.
pub const REFUSALS_BURST: f64 = 200.0;
pub const REFUSALS_PER_SECOND: f64 = 50.0;
const REFUSALS: Rate = Rate { per_second: REFUSALS_PER_SECOND, burst: REFUSALS_BURST };
/// The first shun's length, and the longest.
pub const SHUN_FIRST: Duration = Duration::from_secs(1);
pub const SHUN_MAX: Duration = Duration::from_secs(64);
/// A shun starting within this long of the last one's end is twice as long as that one.
const REPEAT_WITHIN: Duration = Duration::from_secs(60);
/// Addresses shunned at once, at most (the filter stays far below the kernel's 4,096 instructions);
/// past that, offenders are refused as they are accepted.
pub const MAX_SHUNNED: usize = 256;

/// An address's record: its refusal bucket, and its last shun.
struct Record {
    refusals: Bucket,
    /// How many shuns in a row, each soon after the one before.
    strikes: u32,
    /// When its last shun ended (or ends).
    last_end: Option<Instant>,
}

/// The shunned addresses of one listening socket, and the filter that drops them.
pub struct Shun {
    listener: RawFd,
    until: HashMap<IpAddr, Instant>,
    records: HashMap<IpAddr, Record>,
    /// Whether a filter was ever attached: accepted sockets inherit it, and shed it.
    attached: bool,
    /// Whether the kernel took the filter (false once it refused one).
    working: bool,
}

impl Shun {
    /// Shunning for `listener`, which must outlive this.
    pub fn new(listener: RawFd) -> Shun {
        Shun { listener, until: HashMap::new(), records: HashMap::new(), attached: false, working: true }
    }

    /// Counts a refused connection from `ip`; shuns it once its refusals run out. Whether it was.
    pub fn refused(&mut self, ip: IpAddr, now: Instant) -> bool {
        let ip = client_key(ip);
        if self.records.len() > 10_000 {
            self.records.retain(|_, r| {
                r.refusals.level(REFUSALS, now) < REFUSALS_BURST || r.last_end.is_some_and(|e| now < e + REPEAT_WITHIN)
            });
        }
        let r = self.records.entry(ip).or_insert(Record {
            refusals: Bucket::full(REFUSALS, now),
            strikes: 0,
            last_end: None,
        });
        if r.refusals.take(REFUSALS, now) {
            return false;
        }
        if !self.working || self.until.contains_key(&ip) || self.until.len() >= MAX_SHUNNED {
            return false;
        }
        r.strikes = match r.last_end {
            Some(end) if now < end + REPEAT_WITHIN => r.strikes + 1,
            _ => 0,
        };
        let length = SHUN_FIRST.saturating_mul(1 << r.strikes.min(6)).min(SHUN_MAX);
        r.last_end = Some(now + length);
        self.until.insert(ip, now + length);
        tracing::info!("{ip}: kept opening connections past its refusals, shunned for {}s", length.as_secs());
        self.refilter();
        true
    }

    /// When the next shun ends, if any.
    pub fn next_end(&self) -> Option<Instant> {
        self.until.values().min().copied()
    }

    /// Lifts the shuns ended by `now`.
    pub fn expire(&mut self, now: Instant) {
        let before = self.until.len();
        self.until.retain(|_, end| now < *end);
        if self.until.len() != before {
            self.refilter();
        }
    }

    /// Whether `ip` is shunned now.
    #[cfg(test)]
    pub fn is_shunned(&self, ip: IpAddr) -> bool {
        self.until.contains_key(&client_key(ip))
    }

    /// Takes the filter off a socket just accepted (it inherited the listener's, which would run on
    /// every packet it gets).
    pub fn accepted(&self, socket: RawFd) {
        if self.attached {
            detach(socket);
        }
    }

    /// Attaches a filter dropping the shunned addresses, or none when there are none.
    fn refilter(&mut self) {
        if self.until.is_empty() {
            detach(self.listener);
            return;
        }
        let program = program(self.until.keys());
        let prog = libc::sock_fprog { len: program.len() as u16, filter: program.as_ptr() as *mut libc::sock_filter };
        // SAFETY: `prog` points at `program`, alive for the call; the kernel copies it.
        let status = unsafe {
            libc::setsockopt(
                self.listener,
                libc::SOL_SOCKET,
                libc::SO_ATTACH_FILTER,
                &prog as *const libc::sock_fprog as *const libc::c_void,
                std::mem::size_of::<libc::sock_fprog>() as libc::socklen_t,
            )
        };
        if status != 0 {
            let e = std::io::Error::last_os_error();
            tracing::warn!("the kernel refused the filter for shunned addresses ({e}); refusing them at accept only");
            self.working = false;
            self.until.clear();
            detach(self.listener);
            return;
        }
        self.attached = true;
    }
}

/// Takes any filter off `socket` (none there is no error worth telling).
fn detach(socket: RawFd) {
    let none: libc::c_int = 0;
    // SAFETY: SO_DETACH_FILTER reads nothing from its value; a valid pointer and length are given.
    unsafe {
        libc::setsockopt(
            socket,
            libc::SOL_SOCKET,
            libc::SO_DETACH_FILTER,
            &none as *const libc::c_int as *const libc::c_void,
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
    }
}

// Classic BPF, as the kernel's `linux/filter.h` numbers it (BPF_LD and BPF_W are 0).
const LD_B_ABS: u16 = 0x10 | 0x20; // BPF_LD | BPF_B | BPF_ABS
const LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
const RSH_K: u16 = 0x04 | 0x70; // BPF_ALU | BPF_RSH | BPF_K
const JEQ_K: u16 = 0x05 | 0x10; // BPF_JMP | BPF_JEQ | BPF_K
const JA: u16 = 0x05; // BPF_JMP | BPF_JA
const RET_K: u16 = 0x06; // BPF_RET | BPF_K
/// Offsets from here read the packet's network (IP) header.
const NET: u32 = (-0x100000i32) as u32;
const KEEP: u32 = u32::MAX;
const DROP: u32 = 0;

fn op(code: u16, jt: u8, jf: u8, k: u32) -> libc::sock_filter {
    libc::sock_filter { code, jt, jf, k }
}

/// A program dropping every packet from `shunned` and keeping the rest: an IPv4 source compared in one
/// word, an IPv6 one by its /64 network in two (each address's test skips forward past its own drop,
/// so no jump is longer than four instructions, whatever the number of addresses).
fn program<'a>(shunned: impl Iterator<Item = &'a IpAddr>) -> Vec<libc::sock_filter> {
    let (mut v4, mut v6) = (vec![], vec![]);
    for ip in shunned {
        match ip {
            IpAddr::V4(a) => v4.push(u32::from_be_bytes(a.octets())),
            IpAddr::V6(a) => v6.push((u128::from(*a) >> 64) as u64),
        }
    }
    let mut p = vec![
        op(LD_B_ABS, 0, 0, NET),
        op(RSH_K, 0, 0, 4),
        op(JEQ_K, 1, 0, 4),
        op(JA, 0, 0, 0), // to the IPv6 part, patched below
        op(LD_W_ABS, 0, 0, NET + 12),
    ];
    for a in v4 {
        p.push(op(JEQ_K, 0, 1, a));
        p.push(op(RET_K, 0, 0, DROP));
    }
    p.push(op(RET_K, 0, 0, KEEP));
    p[3].k = (p.len() - 4) as u32;
    // The version number is still in A here.
    p.push(op(JEQ_K, 1, 0, 6));
    p.push(op(RET_K, 0, 0, KEEP));
    for network in v6 {
        // The source address is at 8 in the IPv6 header; its first two words are its /64.
        p.push(op(LD_W_ABS, 0, 0, NET + 8));
        p.push(op(JEQ_K, 0, 3, (network >> 32) as u32));
        p.push(op(LD_W_ABS, 0, 0, NET + 12));
        p.push(op(JEQ_K, 0, 1, network as u32));
        p.push(op(RET_K, 0, 0, DROP));
    }
    p.push(op(RET_K, 0, 0, KEEP));
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    /// Whether a connection from `from` to `to` is made within half a second.
    fn connects(from: &str, to: std::net::SocketAddr) -> bool {
        let from = std::net::SocketAddr::new(from.parse().unwrap(), 0);
        let s = socket2::Socket::new(socket2::Domain::for_address(from), socket2::Type::STREAM, None).unwrap();
        s.bind(&from.into()).unwrap();
        s.connect_timeout(&to.into(), Duration::from_millis(500)).is_ok()
    }

    #[test]
    fn a_shunned_address_cannot_connect_and_others_can_until_the_shun_ends() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let to = listener.local_addr().unwrap();
        let mut shun = Shun::new(listener.as_raw_fd());
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.2".parse().unwrap(), "127.0.0.3".parse().unwrap());
        let t = Instant::now();
        let spared = (0..1000).take_while(|_| !shun.refused(a, t)).count();
        assert_eq!(spared, REFUSALS_BURST as usize, "refusals before the shun");
        assert!(shun.is_shunned(a) && !shun.is_shunned(b));
        assert!(!connects("127.0.0.2", to), "the shunned address's handshake is dropped");
        assert!(connects("127.0.0.3", to), "another address connects");
        assert_eq!(shun.next_end(), Some(t + SHUN_FIRST));
        shun.expire(t + SHUN_FIRST);
        assert!(!shun.is_shunned(a));
        assert!(connects("127.0.0.2", to), "the shun lifted");
    }

    #[test]
    fn a_shun_soon_after_the_last_is_twice_as_long_up_to_the_longest() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let mut shun = Shun::new(listener.as_raw_fd());
        let a: IpAddr = "127.0.0.2".parse().unwrap();
        let mut t = Instant::now();
        let mut lengths = vec![];
        for _ in 0..9 {
            while !shun.refused(a, t) {}
            let end = shun.next_end().unwrap();
            lengths.push((end - t).as_secs());
            shun.expire(end);
            t = end;
        }
        assert_eq!(lengths, [1, 2, 4, 8, 16, 32, 64, 64, 64]);
        // A minute of calm and the next shun is the first's length again.
        t += REPEAT_WITHIN + Duration::from_secs(10);
        while !shun.refused(a, t) {}
        assert_eq!(shun.next_end().unwrap() - t, SHUN_FIRST);
    }

    #[test]
    fn ipv6_addresses_are_shunned_by_their_64_network() {
        let Ok(listener) = std::net::TcpListener::bind("[::1]:0") else {
            return; // no IPv6 loopback here
        };
        let to = listener.local_addr().unwrap();
        let mut shun = Shun::new(listener.as_raw_fd());
        let t = Instant::now();
        // Another /64 is not ::1's, one differing from it in the last word only is.
        let other: IpAddr = "0:0:0:1::1".parse().unwrap();
        while !shun.refused(other, t) {}
        assert!(connects("::1", to), "only the shunned network is dropped");
        let neighbour: IpAddr = "::2".parse().unwrap();
        while !shun.refused(neighbour, t) {}
        assert!(!connects("::1", to), "::1 is in ::2's /64, shunned with it");
    }

    #[test]
    fn a_program_for_many_addresses_stays_within_the_kernels_bounds() {
        let many: Vec<IpAddr> = (0..MAX_SHUNNED as u32)
            .map(|i| if i % 2 == 0 { IpAddr::V4(i.into()) } else { IpAddr::V6((i as u128).into()) })
            .collect();
        let p = program(many.iter());
        assert!(p.len() < 4096, "{} instructions", p.len());
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let mut shun = Shun::new(listener.as_raw_fd());
        shun.until = many.iter().map(|ip| (*ip, Instant::now() + SHUN_FIRST)).collect();
        shun.refilter();
        assert!(shun.working, "the kernel took the filter");
        assert!(connects("127.0.0.3", listener.local_addr().unwrap()));
    }
}
