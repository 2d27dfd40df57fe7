//! Backups of a results store while it serves: `arena backup` copies the database at one moment
//! (SQLite's online backup) and then the files that copy names (submitted components, kept game
//! packages: files are written before the rows that name them and never changed, so the copy's files
//! are all there), packed as one `.tar.gz`; `arena restore` unpacks one with bounds into a new data
//! directory, checks it (SQLite's integrity check, every component and package there with the sha256
//! its name says) and only then puts it in place.

use crate::archive::{self, Caps, Layout};
use arena_core::{DataDir, sha256_hex};
use arena_store::{NamedFiles, Store};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a backup holds.
#[derive(Debug, Clone)]
pub struct Taken {
    pub file: PathBuf,
    pub bytes: u64,
    pub named: NamedFiles,
}

/// Writes a backup of the store in `data` to the new file `to`.
pub fn backup(data: &Path, to: &Path) -> anyhow::Result<Taken> {
    use anyhow::Context;
    if to.exists() {
        anyhow::bail!("{}: exists already; choose a new file (nothing was written)", to.display());
    }
    if !DataDir::new(data).database().is_file() {
        anyhow::bail!("{}: no results store here (no arena.db)", data.display());
    }
    let store = Store::open_to_read(data)?;
    let parent = to.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let scratch = tempfile::Builder::new()
        .prefix(".arena-backup-")
        .tempdir_in(parent)
        .with_context(|| format!("{}: cannot write beside it", to.display()))?;
    let db = scratch.path().join("arena.db");
    store.backup_to(&db)?;
    let named = Store::open_to_read(scratch.path())?.named_files()?;
    let layout = DataDir::new(data);
    let partial = scratch.path().join("backup.tar.gz");
    let file = std::fs::File::create(&partial).with_context(|| format!("{}: cannot write", partial.display()))?;
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(file, flate2::Compression::fast()));
    tar.follow_symlinks(false);
    let add = |tar: &mut tar::Builder<_>, from: &Path, name: &Path| -> anyhow::Result<()> {
        tar.append_path_with_name(from, name).with_context(|| format!("{}: cannot back up", from.display()))
    };
    add(&mut tar, &db, Path::new("arena.db"))?;
    for hash in &named.components {
        add(&mut tar, &layout.component(hash), &Path::new("components").join(format!("{hash}.wasm")))?;
    }
    for hash in &named.packages {
        let dir = layout.package(hash);
        // A tournament stored before packages were kept names a referee with no copy: nothing to add.
        if !dir.is_dir() {
            continue;
        }
        for f in arena_play::files_under(&dir).with_context(|| format!("{}: cannot read", dir.display()))? {
            add(&mut tar, &dir.join(&f), &Path::new("packages").join(hash).join(&f))?;
        }
    }
    let mut gz = tar.into_inner().context("finishing the backup")?;
    gz.flush().context("finishing the backup")?;
    gz.finish().context("finishing the backup")?.sync_all().context("finishing the backup")?;
    std::fs::rename(&partial, to).with_context(|| format!("{}: cannot write", to.display()))?;
    let bytes = std::fs::metadata(to).map(|m| m.len()).unwrap_or(0);
    Ok(Taken { file: to.to_path_buf(), bytes, named })
}

/// Where a backup's files may go.
fn in_backup(parts: &[&str], is_dir: bool) -> bool {
    match parts {
        ["arena.db"] => !is_dir,
        ["components"] | ["packages"] => is_dir,
        ["components", f] => is_dir || f.ends_with(".wasm"),
        ["packages", _, rest @ ..] => rest.len() <= 8,
        _ => false,
    }
}

/// What a backup may unpack to: as many files and bytes as a large arena holds, and no more.
const BACKUP_CAPS: Caps = Caps { files: 1_000_000, file_bytes: 1 << 36, total_bytes: 1 << 40 };

/// Restores the backup `file` into `data`, which must hold no store (a new or empty directory).
/// Nothing is put in place unless the whole backup checks out.
pub fn restore(file: &Path, data: &Path) -> anyhow::Result<NamedFiles> {
    use anyhow::{Context, bail};
    if data.exists() && std::fs::read_dir(data).map(|mut d| d.next().is_some()).unwrap_or(true) {
        bail!("{}: not empty; restore into a new directory (nothing was changed)", data.display());
    }
    std::fs::create_dir_all(data).with_context(|| format!("{}: cannot create", data.display()))?;
    let scratch = tempfile::Builder::new().prefix(".restore-").tempdir_in(data)?;
    let read = std::fs::File::open(file).with_context(|| format!("{}: cannot read", file.display()))?;
    let layout = Layout { holds: in_backup, says: "an Arena backup (arena.db, components/*.wasm, packages/…)" };
    archive::unpack_from(std::io::BufReader::new(read), scratch.path(), BACKUP_CAPS, layout)
        .map_err(|e| anyhow::anyhow!("{}: {e}; nothing was restored", file.display()))?;
    let bad = |why: String| anyhow::anyhow!("{}: {why}; nothing was restored", file.display());
    if !scratch.path().join("arena.db").is_file() {
        return Err(bad("no arena.db in it: not an Arena backup".into()));
    }
    let named = {
        let store = Store::open_to_read(scratch.path()).map_err(|e| bad(e.to_string()))?;
        let integrity = store.integrity().map_err(|e| bad(e.to_string()))?;
        if integrity != "ok" {
            return Err(bad(format!("its database fails SQLite's integrity check: {integrity}")));
        }
        store.named_files().map_err(|e| bad(e.to_string()))?
    };
    let copy = DataDir::new(scratch.path());
    for hash in &named.components {
        let path = copy.component(hash);
        let bytes = std::fs::read(&path).map_err(|_| bad(format!("the component {hash} it names is missing")))?;
        if sha256_hex(&bytes) != *hash {
            return Err(bad(format!("the component {hash} it holds has other bytes (sha256 {})", sha256_hex(&bytes))));
        }
    }
    for hash in &named.packages {
        let dir = copy.package(hash);
        if !dir.is_dir() {
            continue;
        }
        let m = arena_play::Manifest::read(&dir).map_err(|e| bad(e.to_string()))?;
        let referee = std::fs::read(dir.join(&m.referee)).map_err(|e| bad(format!("package {hash}: {e}")))?;
        if sha256_hex(&referee) != *hash {
            return Err(bad(format!("the package {hash} it holds has another referee")));
        }
    }
    for entry in std::fs::read_dir(scratch.path())? {
        let from = entry?.path();
        let to = data.join(from.file_name().unwrap_or_default());
        std::fs::rename(&from, &to).with_context(|| format!("{}: cannot put in place", to.display()))?;
    }
    // The store's own folders, and its schema brought up to date.
    Store::open(data)?;
    Ok(named)
}
