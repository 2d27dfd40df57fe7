//! The service layer's calls, tested on the crate itself: what both front ends rely on. A tournament of
//! registered players is checked once, with the same words for the command line and the web; a
//! submission is stored after its validation game or refused with nothing left behind; a stored
//! tournament is played to its end with every game in the store; a ladder, or another referee, is
//! refused where a tournament would go on. The calls that play use the shipped Nim package and its
//! sample players, built by `make players`.

use arena_core::{Game, Limits};
use arena_service::store::{Kind, Status, Store, StoredSettings};
use arena_service::submit::{Refused, Submission, submit};
use arena_service::tournaments::{
    Format, NewTournament, Ran, Settings, create, play_stored_at, registered_entrants, resumable, same_referee,
};
use arena_service::venue::Venue;
use std::path::PathBuf;
use std::sync::Arc;

/// The target directory this test binary was built into (`target/debug/deps/calls-…`, three up).
fn target() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    exe.ancestors().nth(3).expect("target/<profile>/deps/<test>").to_path_buf()
}

/// A file `make players` built: a package (`packages/nim`) or a sample player (`players/nim-cheat.wasm`).
fn built(path: &str) -> PathBuf {
    let p = target().join(path);
    assert!(p.exists(), "{} is missing: run `make players` first", p.display());
    p
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

/// The Nim package as a game, in a sandbox of the default limits.
async fn nim() -> Arc<arena_service::packages::PackageGame> {
    let sandbox = Arc::new(arena_service::engine::Sandbox::new(Limits::default()).unwrap());
    Arc::new(arena_service::packages::open(sandbox, &built("packages/nim"), &[]).await.unwrap())
}

#[test]
fn a_tournament_of_registered_players_needs_two_and_fits_its_format_in_the_same_words_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let nim = ("nim", 2..=2);
    let refused =
        |store: &Store, format, max| registered_entrants(store, nim.clone(), format, max).unwrap().unwrap_err();
    assert_eq!(
        refused(&store, (Format::RoundRobin, 1), None),
        "0 player(s) registered for nim; a tournament needs at least 2"
    );
    let add = |store: &mut Store, name: &str, bytes: &[u8]| {
        store.add_version("nim", name, bytes, &arena_core::sha256_hex(bytes)).unwrap().version
    };
    add(&mut store, "ada", b"ada 1");
    // A player of another game does not count.
    store.add_version("pennies", "bob", b"bob", &arena_core::sha256_hex(b"bob")).unwrap();
    assert_eq!(
        refused(&store, (Format::RoundRobin, 1), None),
        "1 player(s) registered for nim; a tournament needs at least 2"
    );
    add(&mut store, "bea", b"bea 1");
    add(&mut store, "cy", b"cy 1");
    let ada2 = add(&mut store, "ada", b"ada 2");
    let all = registered_entrants(&store, nim.clone(), (Format::RoundRobin, 3), None).unwrap().unwrap();
    assert_eq!(all.len(), 3);
    let ada = all.iter().find(|v| v.name == "ada").unwrap();
    assert_eq!(
        (ada.version, &ada.hash),
        (ada2.version, &arena_core::sha256_hex(b"ada 2")),
        "a player enters its latest version"
    );
    assert_eq!(registered_entrants(&store, nim.clone(), (Format::RoundRobin, 3), Some(2)).unwrap().unwrap().len(), 2);
    assert_eq!(
        refused(&store, (Format::RoundRobin, 3), Some(1)),
        "1 player(s) registered for nim; a tournament needs at least 2"
    );
    // The format's own rules, in check_settings' words.
    assert_eq!(
        refused(&store, (Format::Knockout, 2), None),
        "a knockout's games per match must be odd (best of k), got 2"
    );
    assert!(refused(&store, (Format::RoundRobin, 0), None).contains("games per match"));
}

#[test]
fn a_submission_is_stored_after_its_validation_game_or_refused_with_nothing_stored() {
    let dir = tempfile::tempdir().unwrap();
    runtime().block_on(async {
        let game = nim().await;
        let file = |name: &str| {
            let path = built(&format!("players/{name}.wasm"));
            (bytes::Bytes::from(std::fs::read(&path).unwrap()), path.display().to_string())
        };
        let (bytes, label) = file("nim-cheat");
        let s = Submission { name: "cheater", bytes, label: &label, seed: 3 };
        match submit(game.clone(), dir.path(), s, None).await {
            Err(e @ Refused::Validation { .. }) => {
                let said = e.to_string();
                assert!(
                    said.contains("failed its validation game against builtin:nim-optimal (seed 3): illegal")
                        && said.contains("; nothing was stored"),
                    "{said}"
                );
            }
            Err(e) => panic!("refused for another reason: {e}"),
            Ok(_) => panic!("a cheater was stored"),
        }
        let store = Store::open(dir.path()).unwrap();
        assert!(store.players(Some("nim")).unwrap().is_empty(), "the refused submission left a player behind");
        let (bytes, label) = file("nim-optimal");
        let s = Submission { name: "Not A Name!", bytes: bytes.clone(), label: &label, seed: 3 };
        assert!(matches!(submit(game.clone(), dir.path(), s, None).await, Err(Refused::Name(_))));
        let s = Submission { name: "ada", bytes: bytes.clone(), label: &label, seed: 3 };
        let first = submit(game.clone(), dir.path(), s, None).await.unwrap();
        assert!(first.new_player && !first.unchanged && first.version.version == 1);
        assert_eq!(first.validation.opponent, "builtin:nim-optimal");
        // The same file again stores nothing new.
        let s = Submission { name: "ada", bytes, label: &label, seed: 3 };
        let again = submit(game, dir.path(), s, None).await.unwrap();
        assert!(again.unchanged && again.version.version == 1);
    });
}

#[test]
fn a_stored_tournament_plays_to_its_end_and_only_a_tournament_with_its_own_referee_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    runtime().block_on(async {
        let game = nim().await;
        let bytes = std::fs::read(built("players/nim-optimal.wasm")).unwrap();
        for name in ["ada", "bea", "cy"] {
            let s = Submission { name, bytes: bytes.clone().into(), label: "nim-optimal.wasm", seed: 1 };
            submit(game.clone(), dir.path(), s, None).await.unwrap();
        }
        let mut store = Store::open(dir.path()).unwrap();
        let versions =
            registered_entrants(&store, ("nim", game.seats()), (Format::RoundRobin, 2), None).unwrap().unwrap();
        let new = |kind| NewTournament {
            kind,
            games_per_match: 2,
            seed: 7,
            versions: &versions,
            limits: Limits::default(),
            rated: true,
            by: None,
        };
        let (id, lock) = create(&mut store, &*game, new(Kind::Tournament(Format::RoundRobin))).unwrap();
        let settings = Settings::new(Format::RoundRobin, 2, 7);
        let at = (game.clone(), built("packages/nim"), Limits::default());
        let ran = play_stored_at(
            &Venue::Here,
            (at.0, &at.1, at.2),
            &mut store,
            id,
            &versions,
            settings,
            std::future::pending(),
        )
        .await
        .unwrap();
        drop(lock);
        let Ran::Finished(result) = ran else { panic!("the tournament was interrupted") };
        let row = store.tournament(id).unwrap().unwrap();
        assert_eq!(row.status, Status::Finished);
        // Three players, every pair a series of two: six games, each in the store.
        assert_eq!(row.games, 6);
        assert_eq!(store.tournament_games(id).unwrap().len(), 6);
        assert_eq!(row.winner.as_deref(), result.ranking.first().and_then(|r| r.first()).map(String::as_str));
        // What a resume reads back is what was stored.
        let (again, s) = resumable(&store, dir.path(), id).unwrap();
        assert_eq!((s.format, s.games_per_match, s.seed), (Format::RoundRobin, 2, 7));
        same_referee(&again, &*game).unwrap();
        let mut other = again.clone();
        other.settings = StoredSettings { referee: Some("0".repeat(64)), ..other.settings };
        let e = same_referee(&other, &*game).unwrap_err().to_string();
        assert!(e.contains("resuming would change the rules mid-tournament"), "{e}");
        // A ladder goes on as a ladder, never as a tournament.
        let (ladder, _lock) = create(&mut store, &*game, new(Kind::Ladder)).unwrap();
        let e = resumable(&store, dir.path(), ladder).err().expect("a ladder resumed as a tournament").to_string();
        assert!(e.contains(&format!("tournament {ladder} is the ladder of nim")), "{e}");
        let e = resumable(&store, dir.path(), 999).err().expect("a tournament that is not there").to_string();
        assert!(e.ends_with("there is no tournament 999"), "{e}");
    });
}
