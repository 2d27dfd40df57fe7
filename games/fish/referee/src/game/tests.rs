use super::*;
use fish_rules::PlayerView;

fn opts(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// SplitMix64: the tests' only source of chance.
fn next(r: &mut u64) -> u64 {
    *r = r.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *r;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn below(r: &mut u64, n: usize) -> usize {
    (next(r) % n as u64) as usize
}

/// How a scripted player answers a request: mostly a random legal answer, sometimes a random (often
/// illegal) one, sometimes a fault (`Err`).
fn decide(r: &mut u64, req: &Request) -> Result<Answer, String> {
    let roll = below(r, 100);
    match req {
        Request::PlayAs(_) | Request::PlayWith(_) if roll < 4 => Err("trap".into()),
        Request::PlayAs(_) => Ok(Answer::PlayAs),
        Request::PlayWith(_) => Ok(Answer::PlayWith),
        _ if roll < 2 => Err("out of fuel".into()),
        Request::Setup(s) | Request::TakeTurn(s, _) => {
            let (rows, cols) = (s.board.rows as usize + 1, s.board.cols as usize + 1);
            let mut any = || Pos::new(below(r, rows) as u8, below(r, cols) as u8);
            let wild = roll < 5;
            Ok(match req {
                Request::Setup(_) if wild => Answer::Setup(any()),
                Request::Setup(_) => {
                    let l = s.legal_placements();
                    Answer::Setup(if l.is_empty() { any() } else { l[below(r, l.len())] })
                }
                _ if wild => {
                    let from = s.players[usize::from(s.turn)].penguins.first().copied().unwrap_or_else(&mut any);
                    Answer::TakeTurn(Move { from, to: any() })
                }
                _ => {
                    let l = s.legal_moves();
                    Answer::TakeTurn(if l.is_empty() { Move { from: any(), to: any() } } else { l[below(r, l.len())] })
                }
            })
        }
        Request::Start | Request::End(_) => Ok(Answer::Start),
    }
}

/// A game's record: every request in order, then the scores, winners and final board.
#[derive(Debug, PartialEq, Eq)]
struct Record {
    asked: Vec<(usize, Request)>,
    scores: Vec<i64>,
    winners: Vec<u32>,
    board: String,
}

/// The host's built-in Fish referee (`host/src/games/fish/referee.rs`), call for call, with the
/// scripted players of `decide` instead of seats.
fn built_in(n: usize, seed: u64, o: Options, mut rng: u64) -> Record {
    let mut asked = Vec::new();
    let board = Board::generate(seed, o.rows, o.cols, o.holes).unwrap();
    let mut state = State::new(board, n as u8).unwrap();
    let mut failed = vec![false; n];
    let fail = |state: &mut State, failed: &mut Vec<bool>, seat: usize| {
        failed[seat] = true;
        *state = state.remove(seat as u8);
    };
    for i in 0..n {
        let req = Request::PlayAs(i as u8);
        let r = decide(&mut rng, &req);
        asked.push((i, req));
        if r.is_err() {
            fail(&mut state, &mut failed, i);
        }
    }
    for i in 0..n {
        if failed[i] {
            continue;
        }
        let others: Vec<u8> = (0..n as u8).filter(|&o| o as usize != i).collect();
        let req = Request::PlayWith(others);
        let r = decide(&mut rng, &req);
        asked.push((i, req));
        if r.is_err() {
            fail(&mut state, &mut failed, i);
        }
    }
    let mut log: Vec<Action> = vec![];
    let mut seen = vec![0usize; n];
    let mut turn = 0u32;
    let cap = state.board.tiles.len() as u32 + 4 * 6 + 1;
    while let Some(p) = state.current() {
        turn += 1;
        if turn > cap {
            break;
        }
        let i = usize::from(p);
        let view = PlayerView { me: p, state: state.clone(), actions_since: log[seen[i]..].to_vec() };
        seen[i] = log.len();
        let req = if state.phase == Phase::Placement {
            Request::Setup(view.state.clone())
        } else {
            Request::TakeTurn(view.state.clone(), view.actions_since.clone())
        };
        let r = decide(&mut rng, &req);
        asked.push((i, req));
        let result = match r {
            Ok(Answer::Setup(pos)) => state.place(pos).map(|s| (s, Action::Place { seat: p, pos })),
            Ok(Answer::TakeTurn(mv)) => state.play(mv).map(|s| (s, Action::Move { seat: p, mv })),
            _ => {
                fail(&mut state, &mut failed, i);
                continue;
            }
        };
        match result {
            Ok((next, action)) => {
                state = next;
                log.push(action);
            }
            Err(_) => fail(&mut state, &mut failed, i),
        }
    }
    Record {
        asked,
        scores: state.scores().into_iter().map(i64::from).collect(),
        winners: state.winners().into_iter().map(u32::from).collect(),
        board: state.render(),
    }
}

/// Drives the state machine as the host does (`host/src/package/play.rs`), with the same players.
fn driven(n: usize, seed: u64, o: Options, mut rng: u64) -> (Record, Vec<String>) {
    let options =
        opts(&[("rows", &o.rows.to_string()), ("cols", &o.cols.to_string()), ("holes", &o.holes.to_string())]);
    let mut g = Table::start(n, seed, &options).unwrap();
    let mut asked = Vec::new();
    for _ in 0..10_000 {
        let requests = g.requests();
        if requests.is_empty() {
            break;
        }
        assert_eq!(requests.len(), 1, "Fish asks one seat at a time");
        for (seat, req) in requests {
            let r = decide(&mut rng, &req);
            asked.push((seat as usize, req));
            match r {
                Ok(a) => {
                    if let Err(why) = g.apply(seat, a) {
                        assert!(!why.is_empty());
                        g.banned(seat, &format!("illegal in {}: {why}", a.call()));
                    }
                }
                Err(f) => g.banned(seat, &f),
            }
        }
    }
    let (scores, winners) = g.outcome().expect("an outcome once nobody is asked");
    let board = g.view();
    (Record { asked, scores, winners, board }, g.take_events())
}

#[test]
fn plays_exactly_like_the_built_in_referee() {
    let boards = [Options::default(), Options { rows: 3, cols: 4, holes: 3 }, Options { rows: 8, cols: 7, holes: 10 }];
    let mut bans = 0;
    let mut games = 0;
    for seed in 0..150u64 {
        for n in 2..=4 {
            for o in boards {
                let rng = seed * 31 + n as u64;
                let want = built_in(n, seed, o, rng);
                let (got, events) = driven(n, seed, o, rng);
                assert_eq!(got, want, "seed {seed}, {n} players, {o:?}");
                let last = events.last().unwrap();
                assert!(last.starts_with("game over") || last.starts_with("game stopped"), "{last}");
                bans += events.iter().filter(|e| e.contains("is banned")).count();
                games += 1;
            }
        }
    }
    assert!(bans > games / 4, "the players fail often enough to test bans: {bans} in {games} games");
}

#[test]
fn the_board_is_the_built_in_one_from_the_game_seed() {
    for seed in [0, 1, 42, u64::MAX] {
        let g = Table::start(3, seed, &[]).unwrap();
        assert_eq!(g.state().board, Board::generate(seed, 5, 5, 2).unwrap());
        let g = Table::start(2, seed, &opts(&[("rows", "7"), ("cols", "9"), ("holes", "12")])).unwrap();
        assert_eq!(g.state().board, Board::generate(seed, 7, 9, 12).unwrap());
    }
}

#[test]
fn options_and_seats_are_checked() {
    let err = |n: usize, o: &[(&str, &str)]| Table::start(n, 0, &opts(o)).unwrap_err();
    assert_eq!(err(1, &[]), "fish seats 2 to 4 players, not 1");
    assert_eq!(err(5, &[]), "fish seats 2 to 4 players, not 5");
    assert!(err(2, &[("rows", "3"), ("cols", "3"), ("holes", "1")]).starts_with("bad board: the board has 8 tiles"));
    assert!(err(2, &[("holes", "17")]).contains("at most rows x cols - 9 holes"));
    assert_eq!(err(2, &[("rows", "17")]), "option `rows` must be from 2 to 16, not 17");
    assert_eq!(err(2, &[("cols", "1")]), "option `cols` must be from 2 to 16, not 1");
    assert_eq!(err(2, &[("holes", "-1")]), "option `holes` must be from 0 to 255, not -1");
    assert_eq!(err(2, &[("holes", "two")]), "option `holes`: `two` is not a whole number");
    assert!(err(2, &[("size", "4")]).starts_with("fish has no option `size`"));
    assert!(Table::start(4, 0, &opts(&[("rows", "3"), ("cols", "3"), ("holes", "0")])).is_ok());
    assert!(Table::start(2, 0, &opts(&[("rows", "16"), ("cols", "16"), ("holes", "247")])).is_ok());
}

#[test]
fn the_game_starts_with_play_as_then_play_with() {
    let mut g = Table::start(3, 7, &[]).unwrap();
    let mut order = Vec::new();
    while let [(seat, req)] = g.requests().as_slice() {
        if matches!(req, Request::Setup(_)) {
            break;
        }
        order.push((*seat, req.clone()));
        let a = if matches!(req, Request::PlayAs(_)) { Answer::PlayAs } else { Answer::PlayWith };
        g.apply(*seat, a).unwrap();
    }
    assert_eq!(
        order,
        vec![
            (0, Request::PlayAs(0)),
            (1, Request::PlayAs(1)),
            (2, Request::PlayAs(2)),
            (0, Request::PlayWith(vec![1, 2])),
            (1, Request::PlayWith(vec![0, 2])),
            (2, Request::PlayWith(vec![0, 1])),
        ]
    );
    assert_eq!(g.requests(), vec![(0, Request::Setup(g.state().clone()))]);
}

/// A game past `play-as` and `play-with`, with seat 0 to place.
fn placing(n: usize, seed: u64) -> Table {
    let mut g = Table::start(n, seed, &[]).unwrap();
    for a in [Answer::PlayAs, Answer::PlayWith] {
        for s in 0..n as u32 {
            g.apply(s, a).unwrap();
        }
    }
    g
}

/// The one request of the moment.
fn one(g: &Table) -> Option<(u32, Request)> {
    let mut r = g.requests();
    assert!(r.len() <= 1);
    r.pop()
}

/// Places every penguin on the first free tile.
fn place_all(g: &mut Table) {
    while let [(seat, Request::Setup(s))] = g.requests().as_slice() {
        g.apply(*seat, Answer::Setup(s.legal_placements()[0])).unwrap();
    }
}

#[test]
fn a_seat_failing_before_the_turns_is_never_asked_again() {
    let mut g = Table::start(3, 1, &[]).unwrap();
    g.apply(0, Answer::PlayAs).unwrap();
    g.banned(1, "crash in play-as: trap");
    assert_eq!(g.requests(), vec![(2, Request::PlayAs(2))]);
    g.apply(2, Answer::PlayAs).unwrap();
    assert_eq!(g.requests(), vec![(0, Request::PlayWith(vec![1, 2]))], "banned seats are still named");
    g.apply(0, Answer::PlayWith).unwrap();
    assert_eq!(g.requests(), vec![(2, Request::PlayWith(vec![0, 1]))]);
    g.apply(2, Answer::PlayWith).unwrap();
    let mut seats = Vec::new();
    while let [(seat, req)] = g.requests().as_slice() {
        seats.push(*seat);
        let a = match req {
            Request::Setup(s) => Answer::Setup(s.legal_placements()[0]),
            Request::TakeTurn(s, _) => Answer::TakeTurn(s.legal_moves()[0]),
            _ => unreachable!(),
        };
        g.apply(*seat, a).unwrap();
    }
    assert!(!seats.contains(&1) && seats.contains(&0) && seats.contains(&2));
    let (scores, winners) = g.outcome().unwrap();
    assert_eq!(scores[1], 0);
    assert!(!winners.contains(&1));
    assert!(g.view().contains("B 0 fish (out)"));
    // Every seat failing: nobody wins, and the game is over at once.
    let mut g = Table::start(2, 1, &[]).unwrap();
    g.banned(0, "crash in play-as: trap");
    g.banned(1, "timeout in play-as: slow");
    assert!(g.requests().is_empty());
    assert_eq!(g.outcome(), Some((vec![0, 0], vec![])));
    assert_eq!(g.take_events().last().unwrap(), "game over: A 0 fish (out), B 0 fish (out); nobody wins");
}

#[test]
fn refused_answers_change_nothing_and_the_ban_removes_the_penguins() {
    let mut g = placing(2, 3);
    let before = g.state().clone();
    let hole = before.board.positions().find(|&p| before.board.get(p) == Some(0)).unwrap();
    assert_eq!(g.apply(1, Answer::Setup(Pos::new(0, 0))).unwrap_err(), "seat 1 was not asked: seat 0 is asked `setup`");
    assert_eq!(
        g.apply(0, Answer::TakeTurn(Move { from: hole, to: hole })).unwrap_err(),
        "seat 0 was asked `setup`, not `take-turn`"
    );
    assert_eq!(g.apply(0, Answer::PlayAs).unwrap_err(), "seat 0 was asked `setup`, not `play-as`");
    assert_eq!(g.apply(0, Answer::Setup(hole)).unwrap_err(), format!("{hole} is a hole"));
    assert_eq!(g.apply(0, Answer::Setup(Pos::new(9, 0))).unwrap_err(), "(9,0) is off the board");
    assert_eq!(g.apply(7, Answer::End).unwrap_err(), "seat 7 was not asked: seat 0 is asked `setup`");
    assert_eq!(g.state(), &before);
    // The host bans a refused seat: play goes on without it.
    g.apply(0, Answer::Setup(Pos::new(0, 0))).unwrap_or_else(|_| g.apply(0, Answer::Setup(Pos::new(0, 1))).unwrap());
    let taken = g.state().players[0].penguins[0];
    g.apply(1, Answer::Setup(taken)).unwrap_err();
    g.banned(1, "illegal in setup: taken");
    assert!(g.state().players[1].out);
    let events = g.take_events();
    assert!(
        events.iter().any(|e| e == "B is banned (illegal in setup: taken); its penguins leave the board"),
        "{events:?}"
    );
    let mut seats = Vec::new();
    while let [(seat, req)] = g.requests().as_slice() {
        seats.push(*seat);
        let a = match req {
            Request::Setup(s) => Answer::Setup(s.legal_placements()[0]),
            Request::TakeTurn(s, _) => Answer::TakeTurn(s.legal_moves()[0]),
            _ => unreachable!(),
        };
        g.apply(*seat, a).unwrap();
    }
    assert!(seats.iter().all(|&s| s == 0) && seats.len() >= 3);
    assert_eq!(g.outcome().unwrap().1, vec![0]);
    // After the game: nothing is asked, and answers are refused.
    assert!(g.requests().is_empty());
    assert!(g.apply(0, Answer::Setup(Pos::new(0, 0))).unwrap_err().starts_with("the game is over"));
    g.banned(9, "nonsense");
    assert_eq!(g.outcome().unwrap().1, vec![0]);
}

#[test]
fn a_ban_mid_game_takes_the_penguins_off_and_the_others_play_on() {
    let mut g = placing(3, 11);
    place_all(&mut g);
    assert_eq!(g.state().phase, Phase::Playing);
    let Some((seat, Request::TakeTurn(s, _))) = one(&g) else { panic!("a move is asked") };
    let mv = s.legal_moves()[0];
    g.apply(seat, Answer::TakeTurn(mv)).unwrap();
    let (next, _) = one(&g).unwrap();
    let before = g.state().clone();
    g.banned(next, "fuel in take-turn: out of fuel");
    assert_eq!(g.state(), &before.remove(next as u8));
    assert!(g.state().players[next as usize].penguins.is_empty());
    for p in &before.players[next as usize].penguins {
        assert_eq!(g.state().board.get(*p), before.board.get(*p), "its tiles keep their fish");
    }
    while let [(seat, Request::TakeTurn(s, _))] = g.requests().as_slice() {
        assert_ne!(*seat, next);
        g.apply(*seat, Answer::TakeTurn(s.legal_moves()[0])).unwrap();
    }
    assert!(g.is_over());
    let (scores, winners) = g.outcome().unwrap();
    assert_eq!(scores, g.state().scores().into_iter().map(i64::from).collect::<Vec<_>>());
    assert_eq!(winners, g.state().winners().into_iter().map(u32::from).collect::<Vec<_>>());
    assert!(!winners.contains(&next));
    assert_eq!(g.view(), g.state().render());
}

#[test]
fn a_turn_brings_every_action_since_the_seats_last_request() {
    let mut g = placing(2, 5);
    place_all(&mut g);
    let mut moves = Vec::new();
    let mut checked = 0;
    while let [(seat, Request::TakeTurn(s, since))] = g.requests().as_slice() {
        let mv = s.legal_moves()[0];
        if moves.len() >= 2 {
            // Alternating seats: the seat's own last move, then the other's.
            let last: Vec<Action> = moves[moves.len() - 2..].to_vec();
            if last.iter().map(Action::seat).collect::<Vec<_>>() == [*seat as u8, 1 - *seat as u8] {
                assert_eq!(since, &last);
                checked += 1;
            }
        }
        moves.push(Action::Move { seat: *seat as u8, mv });
        g.apply(*seat, Answer::TakeTurn(mv)).unwrap();
    }
    assert!(checked > 0);
    // The first move hears of every placement since the seat's last placement, its own included.
    let mut g = placing(2, 5);
    let mut placed = Vec::new();
    while let [(seat, Request::Setup(s))] = g.requests().as_slice() {
        let pos = s.legal_placements()[0];
        placed.push(Action::Place { seat: *seat as u8, pos });
        g.apply(*seat, Answer::Setup(pos)).unwrap();
    }
    let Some((0, Request::TakeTurn(_, since))) = one(&g) else { panic!("A moves first") };
    assert_eq!(since, placed[placed.len() - 2..].to_vec());
}

#[test]
fn events_tell_the_game() {
    let mut g = placing(2, 2);
    let first = g.take_events();
    assert_eq!(first, vec!["a 5 x 5 board with 2 holes; 2 players with 4 penguins each: A red, B white"]);
    place_all(&mut g);
    let events = g.take_events();
    assert_eq!(events[0], "A places a penguin on (0,0)");
    assert!(events.last().unwrap().ends_with("moves first"), "{events:?}");
    let Some((seat, Request::TakeTurn(s, _))) = one(&g) else { panic!("a move is asked") };
    let mv = s.legal_moves()[0];
    let fish = s.board.get(mv.from).unwrap();
    g.apply(seat, Answer::TakeTurn(mv)).unwrap();
    let who = seat_letter(seat as u8);
    assert_eq!(g.take_events(), vec![format!("{who} moves {} to {} and takes {fish} fish", mv.from, mv.to)]);
}

#[test]
fn nonsense_in_any_order_never_panics() {
    let mut r = 99u64;
    for round in 0..400 {
        let n = 2 + round % 3;
        let mut g = Table::start(n, round as u64, &[]).unwrap();
        for _ in 0..300 {
            let seat = below(&mut r, 6) as u32;
            let pos = Pos::new(below(&mut r, 256) as u8, below(&mut r, 256) as u8);
            let to = Pos::new(below(&mut r, 8) as u8, below(&mut r, 8) as u8);
            match below(&mut r, 10) {
                0 => g.banned(seat, "x"),
                1 => {
                    let _ = g.apply(seat, Answer::PlayAs);
                }
                2 => {
                    let _ = g.apply(seat, Answer::PlayWith);
                }
                3 => {
                    let _ = g.apply(seat, [Answer::Start, Answer::End][below(&mut r, 2)]);
                }
                4 | 5 => {
                    let _ = g.apply(seat, Answer::Setup(pos));
                }
                _ => {
                    let _ = g.apply(seat, Answer::TakeTurn(Move { from: to, to: pos }));
                }
            }
            let _ = g.requests();
            let _ = g.outcome();
            let _ = g.view();
        }
    }
}

#[test]
fn tournaments_start_and_end_as_before() {
    assert_eq!(tournament(None), Request::Start);
    assert_eq!(tournament(Some(true)), Request::End(true));
    assert_eq!(tournament(Some(false)), Request::End(false));
}

/// The rule checker's view of a state, as a player would send it.
fn parts(s: &State) -> (u8, u8, Vec<u8>, Vec<Seat>, u8, Phase) {
    (s.board.rows, s.board.cols, s.board.tiles.clone(), s.players.clone(), s.turn, s.phase)
}

fn check(p: (u8, u8, Vec<u8>, Vec<Seat>, u8, Phase)) -> Option<State> {
    checked_state(p.0, p.1, p.2, p.3, p.4, p.5)
}

#[test]
fn the_rule_checker_agrees_with_the_rules_and_refuses_nonsense() {
    // As the host's test (host/src/games/fish/bindings.rs).
    let s = State::new(Board::generate(3, 5, 5, 2).unwrap(), 2).unwrap();
    assert_eq!(legal_placements(check(parts(&s))), s.legal_placements());
    assert!(legal_moves(check(parts(&s))).is_empty(), "no moves while placing");
    let mut playing = s.clone();
    while playing.phase == Phase::Placement {
        let at = playing.legal_placements()[0];
        playing = playing.place(at).unwrap();
    }
    let moves = playing.legal_moves();
    assert!(!moves.is_empty());
    assert_eq!(legal_moves(check(parts(&playing))), moves);
    assert!(legal_placements(check(parts(&playing))).is_empty());
    let mut broken = parts(&playing);
    broken.2.truncate(3);
    assert!(legal_moves(check(broken)).is_empty());
    // Every other kind of malformed state is refused too, never a panic.
    let mut p = parts(&playing);
    p.2[0] = 6;
    assert_eq!(check(p), None, "too many fish");
    let mut p = parts(&playing);
    p.0 = 17;
    assert_eq!(check(p), None, "too many rows");
    let mut p = parts(&playing);
    p.3.truncate(1);
    assert_eq!(check(p), None, "one seat");
    let mut p = parts(&playing);
    p.3.extend([Seat::default(), Seat::default(), Seat::default()]);
    assert_eq!(check(p), None, "five seats");
    let mut p = parts(&playing);
    p.4 = 2;
    assert_eq!(check(p), None, "the turn of a seat not in the game");
    let mut p = parts(&playing);
    p.3[0].penguins.push(Pos::new(5, 0));
    assert_eq!(check(p), None, "a penguin off the board");
    let mut p = parts(&playing);
    p.5 = Phase::Over;
    assert!(legal_moves(check(p.clone())).is_empty() && legal_placements(check(p)).is_empty());
    // Odd but well-formed states are answered without panicking.
    let mut p = parts(&playing);
    let dup = p.3[0].penguins[0];
    p.3[1].penguins = vec![dup; 50];
    p.3[0].out = true;
    let _ = legal_moves(check(p.clone()));
    p.5 = Phase::Placement;
    let _ = legal_placements(check(p));
}

#[test]
fn the_drawing_has_a_hex_a_tile_and_a_disc_a_penguin() {
    let mut g = placing(3, 5);
    // Three penguins placed.
    for _ in 0..3 {
        let Some((seat, Request::Setup(state))) = one(&g) else { panic!("a placement is asked") };
        g.apply(seat, Answer::Setup(state.legal_placements()[0])).unwrap();
    }
    let svg = g.svg();
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    let board = &g.state().board;
    assert_eq!(svg.matches("<polygon").count(), usize::from(board.rows) * usize::from(board.cols));
    let penguins: usize = g.state().players.iter().map(|p| p.penguins.len()).sum();
    assert_eq!((svg.matches("<circle").count(), penguins), (3, 3));
}
