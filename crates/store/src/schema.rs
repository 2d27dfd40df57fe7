//! The database schema as a list of migrations, the missing ones applied in order in one transaction;
//! `PRAGMA user_version` counts those applied. A database from a newer Arena is refused untouched.

use rusqlite::Connection;

pub enum MigrateError {
    Sql(rusqlite::Error),
    Newer { found: i64, known: i64 },
}

impl From<rusqlite::Error> for MigrateError {
    fn from(e: rusqlite::Error) -> Self {
        MigrateError::Sql(e)
    }
}

/// Migration `i` brings the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: players and their versions, tournaments, their entrants, games, matches, faults.
    "
    CREATE TABLE players (
        id            INTEGER PRIMARY KEY,
        game          TEXT NOT NULL,
        name          TEXT NOT NULL,
        registered_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        UNIQUE (game, name)
    );
    CREATE TABLE versions (
        id           INTEGER PRIMARY KEY,
        player_id    INTEGER NOT NULL REFERENCES players (id),
        version      INTEGER NOT NULL,
        hash         TEXT NOT NULL,
        size         INTEGER NOT NULL,
        submitted_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        UNIQUE (player_id, version)
    );
    CREATE TABLE tournaments (
        id              INTEGER PRIMARY KEY,
        game            TEXT NOT NULL,
        format          TEXT NOT NULL,
        games_per_match INTEGER NOT NULL,
        seed            INTEGER NOT NULL,
        settings        TEXT NOT NULL,
        status          TEXT NOT NULL CHECK (status IN ('running', 'finished')),
        started_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        finished_at     TEXT,
        winner          TEXT,
        result          TEXT
    );
    CREATE TABLE entrants (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        slot          INTEGER NOT NULL,
        version_id    INTEGER NOT NULL REFERENCES versions (id),
        name          TEXT NOT NULL,
        PRIMARY KEY (tournament_id, slot)
    );
    CREATE TABLE lifecycle (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        call          TEXT NOT NULL,
        slot          INTEGER NOT NULL,
        fault         TEXT,
        PRIMARY KEY (tournament_id, call, slot)
    );
    CREATE TABLE games (
        id            INTEGER PRIMARY KEY,
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        key           TEXT NOT NULL,
        round         INTEGER NOT NULL,
        match_no      INTEGER NOT NULL,
        number        INTEGER NOT NULL,
        seed          INTEGER NOT NULL,
        finished_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        record        TEXT NOT NULL,
        replay        TEXT NOT NULL,
        UNIQUE (tournament_id, key)
    );
    CREATE TABLE game_players (
        game_id    INTEGER NOT NULL REFERENCES games (id),
        seat       INTEGER NOT NULL,
        player_id  INTEGER NOT NULL REFERENCES players (id),
        version_id INTEGER NOT NULL REFERENCES versions (id),
        score      INTEGER NOT NULL,
        place      INTEGER NOT NULL,
        result     TEXT NOT NULL CHECK (result IN ('won', 'lost', 'tied')),
        fuel       INTEGER NOT NULL,
        calls      INTEGER NOT NULL,
        faulted    INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX game_players_by_player ON game_players (player_id);
    CREATE TABLE matches (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        round         INTEGER NOT NULL,
        match_no      INTEGER NOT NULL,
        record        TEXT NOT NULL,
        PRIMARY KEY (tournament_id, round, match_no)
    );
    CREATE TABLE faults (
        id            INTEGER PRIMARY KEY,
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        player_id     INTEGER NOT NULL REFERENCES players (id),
        game_id       INTEGER REFERENCES games (id),
        kind          TEXT NOT NULL,
        call          TEXT NOT NULL,
        reason        TEXT NOT NULL
    );
    CREATE INDEX faults_by_player ON faults (player_id);
    ",
    // 2: accounts of the web arena (a token's and a session's sha256 only, never the secret), the
    // account owning a player name, and unrated tournaments (scrimmages).
    "
    CREATE TABLE users (
        id         INTEGER PRIMARY KEY,
        name       TEXT NOT NULL UNIQUE,
        token_hash TEXT NOT NULL UNIQUE,
        admin      INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
    );
    CREATE TABLE sessions (
        hash       TEXT PRIMARY KEY,
        user_id    INTEGER NOT NULL REFERENCES users (id),
        csrf       TEXT NOT NULL,
        expires_at INTEGER NOT NULL
    );
    ALTER TABLE players ADD COLUMN owner INTEGER REFERENCES users (id);
    ALTER TABLE tournaments ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE tournaments ADD COLUMN started_by INTEGER REFERENCES users (id);
    ",
    // 3: a game that ended in a game fault (its referee failed) says so, so that no rating, record or
    // standing counts it; games stored before are marked from their records.
    "
    ALTER TABLE games ADD COLUMN game_fault TEXT;
    UPDATE games SET game_fault = json_extract(record, '$.game_fault') WHERE json_extract(record, '$.game_fault') IS NOT NULL;
    ",
    // 4: pages by cursor: a tournament's games and a player's games, each one index range; and the
    // games that ended in a game fault, found without reading every game (their column comes after
    // the records and replays, so a scan walks every replay).
    "
    CREATE INDEX games_by_tournament ON games (tournament_id, id);
    CREATE INDEX game_players_by_player_game ON game_players (player_id, game_id);
    CREATE INDEX games_faulted ON games (tournament_id, id) WHERE game_fault IS NOT NULL;
    ",
    // 5: games published to the web arena: a name belongs to the account that first published it;
    // each version is a referee (its package kept under packages/<referee sha256>/); the operator
    // lists, hides or removes a game; a game whose referee keeps failing is suspended, saying why.
    "
    CREATE TABLE published (
        id         INTEGER PRIMARY KEY,
        name       TEXT NOT NULL UNIQUE,
        owner      INTEGER NOT NULL REFERENCES users (id),
        status     TEXT NOT NULL DEFAULT 'listed' CHECK (status IN ('listed', 'hidden', 'removed')),
        suspended  TEXT,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
    );
    CREATE TABLE published_versions (
        id           INTEGER PRIMARY KEY,
        game_id      INTEGER NOT NULL REFERENCES published (id),
        version      INTEGER NOT NULL,
        referee      TEXT NOT NULL,
        size         INTEGER NOT NULL,
        published_by INTEGER NOT NULL REFERENCES users (id),
        published_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        at_unix      INTEGER NOT NULL DEFAULT (unixepoch()),
        UNIQUE (game_id, version)
    );
    CREATE INDEX published_versions_by_user ON published_versions (published_by, at_unix);
    ",
    // 6: accounts without a shell: invitations (only a code's sha256 is kept), disabled accounts.
    "
    ALTER TABLE users ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE invites (
        id         INTEGER PRIMARY KEY,
        code_hash  TEXT NOT NULL UNIQUE,
        admin      INTEGER NOT NULL DEFAULT 0,
        uses_left  INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        created_by INTEGER REFERENCES users (id),
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
    );
    ",
    // 7: competitions: a game's submissions until a deadline (its ladder running), then a final of
    // every player's last version before it, recorded once (`final_id`, set with the final).
    "
    CREATE TABLE competitions (
        id              INTEGER PRIMARY KEY,
        game            TEXT NOT NULL,
        title           TEXT NOT NULL,
        description     TEXT NOT NULL,
        deadline        INTEGER NOT NULL,
        format          TEXT NOT NULL,
        games_per_match INTEGER NOT NULL,
        seed            INTEGER NOT NULL,
        final_id        INTEGER REFERENCES tournaments (id),
        created_by      INTEGER REFERENCES users (id),
        created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
    );
    CREATE INDEX competitions_by_game ON competitions (game, deadline);
    ",
    // 8: the order games are rated in, kept as they become final, so that ratings are updated game by
    // game instead of recomputed from every stored game: a tournament's games and bans (start bans,
    // its games by round, match and number, end bans) when it finishes; a ladder's games as each is
    // recorded. `rateable` is every rated game and ban with its place in its tournament's order (games
    // with a game fault left out through their index, as a test of every row would read every replay).
    "
    CREATE TABLE rating_order (
        seq           INTEGER PRIMARY KEY,
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        game_id       INTEGER REFERENCES games (id),
        slot          INTEGER,
        call          TEXT
    );
    CREATE INDEX rating_order_by_tournament ON rating_order (tournament_id);
    CREATE VIEW rateable AS
        SELECT t.id AS tid, t.game AS game, t.status AS status, t.format AS format, NULL AS gid,
               l.slot AS slot, l.call AS call, CASE WHEN l.call = 'tournament-end' THEN 2 ELSE 0 END AS phase,
               l.slot AS a, 0 AS b, 0 AS c, 0 AS d
          FROM lifecycle l JOIN tournaments t ON t.id = l.tournament_id
         WHERE l.fault IS NOT NULL AND t.rated = 1
        UNION ALL
        SELECT t.id, t.game, t.status, t.format, g.id, NULL, NULL, 1,
               CASE WHEN t.format = 'ladder' THEN g.id ELSE g.round END,
               CASE WHEN t.format = 'ladder' THEN 0 ELSE g.match_no END,
               CASE WHEN t.format = 'ladder' THEN 0 ELSE g.number END, g.id
          FROM games g JOIN tournaments t ON t.id = g.tournament_id
         WHERE t.rated = 1
           AND g.id NOT IN (SELECT f.id FROM games f INDEXED BY games_faulted WHERE f.game_fault IS NOT NULL);
    INSERT INTO rating_order (tournament_id, game_id, slot, call)
        SELECT tid, gid, slot, call FROM rateable WHERE status = 'finished' OR format = 'ladder'
         ORDER BY tid, phase, a, b, c, d;
    ",
    // 9: a game that faulted counts for nobody, whenever the fault came: games stored with a fault
    // after their outcome (a referee failing in `events` or `view` once the game had ended) kept the
    // winner the referee named; their records name none now, and their seats are no wins or ties.
    "
    UPDATE games SET record = json_set(record, '$.winner', json('null'), '$.winners', json('[]'))
     WHERE game_fault IS NOT NULL
       AND (json_extract(record, '$.winner') IS NOT NULL OR json_array_length(record, '$.winners') > 0);
    UPDATE game_players SET result = 'lost'
     WHERE result <> 'lost' AND game_id IN (SELECT id FROM games INDEXED BY games_faulted WHERE game_fault IS NOT NULL);
    ",
    // 10: a version of a published game is a new referee: each version names the referee of the one
    // before it, which its own must differ from, a constraint of the store (concurrent publishes of one
    // package made two versions before). Going back to an earlier version's referee is a new version.
    "
    ALTER TABLE published_versions ADD COLUMN follows TEXT CHECK (follows IS NULL OR follows <> referee);
    ",
    // 11: a player's fault keeps the last lines it printed (its panic message, its traceback), shown to
    // its owner beside the fault, and the step of its game it came in (the failure links to it); empty
    // and unknown for faults stored before.
    "
    ALTER TABLE faults ADD COLUMN last_words TEXT NOT NULL DEFAULT '';
    ALTER TABLE faults ADD COLUMN step INTEGER;
    ",
    // 12: a version its owner offers as a sparring partner: anyone may download its component.
    "
    ALTER TABLE versions ADD COLUMN sparring INTEGER NOT NULL DEFAULT 0;
    ",
    // 13: candidate versions, judged against the version in use before they become versions at all.
    "
    CREATE TABLE candidates (
        id           INTEGER PRIMARY KEY,
        player_id    INTEGER NOT NULL REFERENCES players (id),
        against      INTEGER NOT NULL REFERENCES versions (id),
        hash         TEXT NOT NULL,
        size         INTEGER NOT NULL,
        submitted_by INTEGER REFERENCES users (id),
        submitted_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        seed         INTEGER NOT NULL,
        elo0         REAL NOT NULL,
        elo1         REAL NOT NULL,
        alpha        REAL NOT NULL,
        beta         REAL NOT NULL,
        cap          INTEGER NOT NULL,
        pairs        INTEGER NOT NULL DEFAULT 0,
        wins         INTEGER NOT NULL DEFAULT 0,
        draws        INTEGER NOT NULL DEFAULT 0,
        losses       INTEGER NOT NULL DEFAULT 0,
        void         INTEGER NOT NULL DEFAULT 0,
        status       TEXT NOT NULL DEFAULT 'testing'
                     CHECK (status IN ('testing', 'accepted', 'rejected', 'undecided', 'superseded')),
        decided_at   TEXT,
        version_id   INTEGER REFERENCES versions (id)
    );
    CREATE INDEX candidates_of_player ON candidates (player_id, id);
    ",
    // 14: a competition's final played until its top places are decided: how many, the most games,
    // and the legs played after the first (the first is `final_id`).
    "
    ALTER TABLE competitions ADD COLUMN decide INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE competitions ADD COLUMN final_games INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE final_legs (
        competition_id INTEGER NOT NULL REFERENCES competitions (id),
        leg            INTEGER NOT NULL,
        tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
        PRIMARY KEY (competition_id, leg)
    );
    ",
];

/// The schema version this Arena writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

/// Applies the migrations the database lacks; refuses a database newer than this Arena.
pub fn migrate(conn: &mut Connection) -> Result<(), MigrateError> {
    // Reading first: an up-to-date store is not written to (so a read-only one can still be read).
    let found: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found > VERSION {
        return Err(MigrateError::Newer { found, known: VERSION });
    }
    if found == VERSION {
        return Ok(());
    }
    // IMMEDIATE: two processes opening a new store at once migrate one after the other.
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let found: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found > VERSION {
        return Err(MigrateError::Newer { found, known: VERSION });
    }
    if found == VERSION {
        return Ok(());
    }
    for sql in &MIGRATIONS[found as usize..] {
        tx.execute_batch(sql)?;
    }
    tx.pragma_update(None, "user_version", VERSION)?;
    tx.commit()?;
    Ok(())
}
