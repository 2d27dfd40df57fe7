//! Whole games against the random player, and legality of both bots over many random views.

use yahtzee_rules::{Category, GameScore, MatchView, PlayerView, Roll, Scorecard, TurnDice, keep_is_valid};

type Bot = (fn(&PlayerView) -> Vec<u8>, fn(&PlayerView) -> Category);

const GREEDY: Bot = (yahtzee_bots::greedy::keep, yahtzee_bots::greedy::choose);
const RANDOM: Bot = (yahtzee_bots::random::keep, yahtzee_bots::random::choose);

/// One game: both players get the same dice each turn; returns the two totals.
fn play_game(seed: u64, game: u32, bots: [Bot; 2]) -> [u16; 2] {
    let mut cards = [Scorecard::default(), Scorecard::default()];
    for t in 1..=13u8 {
        let turn = TurnDice::draw(seed, t);
        let start = cards.clone();
        for p in 0..2 {
            let (keep, choose) = bots[p];
            let mut view = PlayerView {
                turn: t,
                dice: [0; 5],
                rolls_left: 2,
                mine: start[p].clone(),
                theirs: start[1 - p].clone(),
                opponent: format!("player-{}", 1 - p),
                match_view: MatchView { game, games_in_match: 100, ..MatchView::default() },
            };
            let mut roll = Roll::first(&turn);
            while roll.rolls_left > 0 {
                view.dice = roll.dice;
                view.rolls_left = roll.rolls_left;
                let k = keep(&view);
                roll = roll.reroll(&turn, &k).expect("legal keepers");
            }
            view.dice = roll.dice;
            view.rolls_left = 0;
            let c = choose(&view);
            cards[p] = cards[p].play(&roll.dice, c).expect("legal box");
        }
    }
    assert!(cards.iter().all(Scorecard::is_full));
    [cards[0].total(), cards[1].total()]
}

#[test]
fn greedy_beats_random() {
    let (mut wins, mut greedy_sum, mut random_sum) = (0, 0u32, 0u32);
    for seed in 0..100u64 {
        // Alternate who plays first; it makes no difference to the dice.
        let [g, r] = if seed % 2 == 0 {
            play_game(seed, seed as u32 + 1, [GREEDY, RANDOM])
        } else {
            let [r, g] = play_game(seed, seed as u32 + 1, [RANDOM, GREEDY]);
            [g, r]
        };
        wins += u32::from(g > r);
        greedy_sum += u32::from(g);
        random_sum += u32::from(r);
    }
    let (g_avg, r_avg) = (f64::from(greedy_sum) / 100.0, f64::from(random_sum) / 100.0);
    println!("greedy won {wins}/100; average greedy {g_avg:.1}, random {r_avg:.1}");
    assert!(wins > 90, "greedy won only {wins}/100");
    assert!(g_avg > 180.0, "greedy average {g_avg}");
}

#[test]
fn same_view_same_answer() {
    let [a1, b1] = play_game(7, 1, [GREEDY, GREEDY]);
    let [a2, b2] = play_game(7, 1, [GREEDY, GREEDY]);
    assert_eq!((a1, b1), (a2, b2));
    assert_eq!(a1, b1, "same dice, same strategy, same score");
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A random card (boxes open or holding a value, yahtzee box open / 0 / 50) and random dice with
/// plenty of Yahtzees, so every branch of the joker rule comes up; `None` for a full card.
fn random_view(rng: &mut u64) -> Option<PlayerView> {
    let mut card = Scorecard::default();
    for b in card.boxes.iter_mut() {
        let r = splitmix64(rng);
        if r % 100 < 55 {
            *b = Some((r >> 8) as u16 % 31);
        }
    }
    card.boxes[Category::Yahtzee.index()] = match splitmix64(rng) % 3 {
        0 => None,
        1 => Some(0),
        _ => Some(50),
    };
    if card.get(Category::Yahtzee) == Some(50) {
        card.yahtzee_bonus = (splitmix64(rng) % 3) as u16 * 100;
    }
    if card.is_full() {
        return None;
    }
    let mut dice = [0u8; 5];
    for d in dice.iter_mut() {
        *d = (splitmix64(rng) % 6) as u8 + 1;
    }
    if splitmix64(rng).is_multiple_of(4) {
        dice = [dice[0]; 5];
    }
    Some(PlayerView {
        turn: 14 - card.open_boxes().len() as u8,
        dice,
        rolls_left: (splitmix64(rng) % 3) as u8,
        mine: card,
        theirs: Scorecard::default(),
        opponent: "other".into(),
        match_view: MatchView {
            game: (splitmix64(rng) % 5) as u32 + 1,
            games_in_match: 5,
            earlier: vec![GameScore { mine: 200, theirs: 150 }],
            ..MatchView::default()
        },
    })
}

#[test]
fn bots_always_answer_legally() {
    let mut rng = 12345u64;
    let mut checked = 0;
    while checked < 1500 {
        let Some(view) = random_view(&mut rng) else {
            continue;
        };
        checked += 1;
        let legal = view.mine.legal_boxes(&view.dice);
        for (name, (keep, choose)) in [("greedy", GREEDY), ("random", RANDOM)] {
            let k = keep(&view);
            assert!(keep_is_valid(&k, &view.dice), "{name} kept {k:?} of {view:?}");
            assert_eq!(k, keep(&view), "{name} keep is not deterministic");
            let c = choose(&view);
            assert!(legal.contains(&c), "{name} chose {c:?} for {view:?}");
            assert_eq!(c, choose(&view), "{name} choose is not deterministic");
            assert!(view.mine.play(&view.dice, c).is_ok());
        }
    }
}
