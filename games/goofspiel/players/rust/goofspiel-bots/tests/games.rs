//! Whole games of Goofspiel, refereed by a few lines of rules: the smart player bids legally and beats
//! the random one in most games.

use goofspiel_bots::random::splitmix64;
use goofspiel_bots::{CARDS, Round, View, random, smart};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bot {
    Smart,
    Random,
}

/// Plays one game from `seed`, the seats in `bots`' order; returns the scores.
fn play(bots: &[Bot], seed: u64) -> Vec<u32> {
    let n = bots.len();
    // The prize deck, shuffled (Fisher-Yates).
    let mut deck: Vec<u8> = (1..=CARDS).collect();
    let mut r = seed;
    for i in (1..deck.len()).rev() {
        r = splitmix64(r);
        deck.swap(i, (r % (i as u64 + 1)) as usize);
    }
    let mut hands: Vec<Vec<u8>> = vec![(1..=CARDS).collect(); n];
    let mut scores = vec![0u32; n];
    let mut history: Vec<Round> = Vec::new();
    let mut carried: Vec<u8> = Vec::new();
    for (round, &prize) in deck.iter().enumerate() {
        let bids: Vec<u8> = (0..n)
            .map(|seat| {
                let view = View {
                    you: seat as u32,
                    seats: n as u32,
                    round: round as u32 + 1,
                    prize,
                    carried: carried.clone(),
                    hand: hands[seat].clone(),
                    scores: scores.clone(),
                    playing: vec![true; n],
                    history: history.clone(),
                };
                let b = match bots[seat] {
                    Bot::Smart => {
                        let b = smart::bid(&view);
                        assert_eq!(b, smart::bid(&view), "same view, same bid");
                        b
                    }
                    Bot::Random => {
                        r = splitmix64(r);
                        random::bid(&view, r)
                    }
                };
                let at = hands[seat].iter().position(|&c| c == b);
                let at = at.unwrap_or_else(|| panic!("seat {seat} bid {b}, not in {:?}", hands[seat]));
                hands[seat].remove(at);
                b
            })
            .collect();
        let top = *bids.iter().max().unwrap();
        let winner =
            (bids.iter().filter(|&&b| b == top).count() == 1).then(|| bids.iter().position(|&b| b == top).unwrap());
        history.push(Round {
            prize,
            carried: carried.clone(),
            bids: bids.iter().map(|&b| Some(b)).collect(),
            winner: winner.map(|w| w as u32),
        });
        if let Some(w) = winner {
            scores[w] += u32::from(prize) + carried.iter().map(|&c| u32::from(c)).sum::<u32>();
            carried.clear();
        } else {
            carried.push(prize);
        }
    }
    assert!(hands.iter().all(Vec::is_empty));
    scores
}

#[test]
fn smart_beats_random() {
    let games = 400u64;
    let (mut wins, mut losses, mut smart_sum, mut random_sum) = (0, 0, 0, 0);
    for seed in 0..games {
        // Alternate the seats.
        let s = (seed % 2) as usize;
        let bots = if s == 0 { [Bot::Smart, Bot::Random] } else { [Bot::Random, Bot::Smart] };
        let scores = play(&bots, seed);
        wins += u32::from(scores[s] > scores[1 - s]);
        losses += u32::from(scores[s] < scores[1 - s]);
        smart_sum += scores[s];
        random_sum += scores[1 - s];
    }
    println!(
        "smart against random: {wins} won, {losses} lost of {games}; {:.1} points a game against {:.1}",
        f64::from(smart_sum) / games as f64,
        f64::from(random_sum) / games as f64
    );
    assert!(wins >= 320, "smart won only {wins}/{games}");
}

#[test]
fn smart_wins_most_games_of_four() {
    let mut wins = 0;
    for seed in 0..400u64 {
        let mut bots = [Bot::Random; 4];
        let s = (seed % 4) as usize;
        bots[s] = Bot::Smart;
        let scores = play(&bots, 1_000 + seed);
        wins += u32::from(scores.iter().enumerate().all(|(i, &p)| i == s || p < scores[s]));
    }
    println!("smart won {wins}/400 games against three random players");
    assert!(wins >= 200, "smart won only {wins}/400");
}

#[test]
fn smart_against_itself_is_legal() {
    for n in 2..=6 {
        for seed in 0..20 {
            let scores = play(&vec![Bot::Smart; n], seed);
            assert!(scores.iter().sum::<u32>() <= 91);
        }
    }
}
