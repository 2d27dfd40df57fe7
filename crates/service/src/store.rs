//! The results store as the front ends reach it: the handle and the rows it answers with, from
//! `arena-store`, so that no front end depends on the store's crate. A read or write that is one store
//! call is made on the handle; anything of more than one step (a tournament recorded and run, a
//! ladder begun, a submission, a publication, a competition's final) is a service function.

pub use arena_store::{
    Board, Candidate, Competition, DESCRIPTION_CHARS, FailureRow, ForkOf, GameAt, GameFaultAt, GameVersion, Invite,
    Kind, Leader, Listing, MAX_INVITE_SECS, MAX_PAGE, MAX_USES, NewCompetition, Owner, PlayerStats, PublishedGame,
    Record, RecordIn, Result, Session, Status, Store, StoreError, StoredSettings, TITLE_CHARS, TournamentLock,
    TournamentRow, User, Version, check_name, secret, stamp,
};
