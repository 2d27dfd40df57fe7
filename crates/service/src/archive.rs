//! A game package as one file, the `.tar.gz` that `arena publish` sends and `arena fetch-game`
//! receives: packed from a package directory in a fixed order (the same package gives the same bytes),
//! and unpacked from a stranger's upload with bounds on everything before anything is written — the
//! unpacked bytes (a gzip bomb stops at the cap), each file's size, the number of files, the paths
//! (relative, no `..`, inside the package layout) and the kinds of entry (plain files and folders only).

use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

/// What an archive may hold.
#[derive(Debug, Clone, Copy)]
pub struct Caps {
    /// Files (folders not counted).
    pub files: usize,
    /// Bytes of one file.
    pub file_bytes: u64,
    /// Bytes unpacked in all, the tar format's own headers included.
    pub total_bytes: u64,
}

/// The caps a published package is read under: a referee and a few sample players of the largest
/// size a component may have would not fit, a game's worth of them does.
pub const CAPS: Caps = Caps { files: 400, file_bytes: 32 << 20, total_bytes: 96 << 20 };

/// The package layout, as a sentence for refusals.
pub const LAYOUT: &str = "a game package (its layout: game.toml, README.md and *.wasm at the top, wit/**/*.wit \
     (three folders deep at most), players/*.wasm, templates/** (six folders deep at most))";

/// Whether `path` (relative, checked to be plain names) has a place in a package.
fn in_layout(parts: &[&str], is_dir: bool) -> bool {
    let file = parts.last().copied().unwrap_or("");
    match parts {
        [] => false,
        [top] if is_dir => matches!(*top, "wit" | "players" | "templates"),
        [top] => *top == "game.toml" || *top == "README.md" || top.ends_with(".wasm"),
        ["wit", rest @ ..] => rest.len() <= 3 && (is_dir || file.ends_with(".wit")),
        ["players", _] => is_dir || file.ends_with(".wasm"),
        ["templates", rest @ ..] => rest.len() <= 7,
        _ => false,
    }
}

/// The most characters of an archive's path a refusal quotes.
const NAME_QUOTE: usize = 120;

/// A path of an archive as plain names: refused when absolute, with `..`, or with a name that is
/// empty, hidden, over 100 bytes or of other characters than letters, digits, `-`, `_` and `.`.
fn plain_parts(path: &Path) -> Result<Vec<&str>, String> {
    // A name is quoted cut: a stranger's 100 KB path does not come back whole.
    let shown = arena_core::quote_at(&path.display().to_string(), NAME_QUOTE);
    let mut parts = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(n) => {
                let n = n.to_str().ok_or_else(|| format!("`{shown}`: a name that is not UTF-8"))?;
                let ok = !n.is_empty()
                    && n.len() <= 100
                    && !n.starts_with('.')
                    && n.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
                if !ok {
                    return Err(format!(
                        "`{shown}`: every name must be 1 to 100 letters, digits, `-`, `_` and `.`, not starting with `.`"
                    ));
                }
                parts.push(n);
            }
            Component::CurDir => {}
            Component::ParentDir => return Err(format!("`{shown}`: a path with `..` reaches outside the package")),
            Component::RootDir | Component::Prefix(_) => {
                return Err(format!("`{shown}`: an absolute path; paths are relative to the package"));
            }
        }
    }
    Ok(parts)
}

/// Reads through to `inner`, failing once more than `left` bytes have come out: a small archive
/// that unpacks without end is stopped at the cap, not read to its end.
struct Capped<R> {
    inner: R,
    left: u64,
    cap: u64,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            return Err(std::io::Error::other(format!("it unpacks to more than {} bytes", self.cap)));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// Unpacks the `.tar.gz` in `bytes` into the empty directory `into`, refusing (with the entry and the
/// problem) anything past `caps` or outside the package layout. On a refusal, what was written is
/// left for the caller to remove with the directory.
pub fn unpack(bytes: &[u8], into: &Path, caps: Caps) -> Result<Vec<PathBuf>, String> {
    unpack_from(bytes, into, caps, Layout { holds: in_layout, says: LAYOUT })
}

/// Where the files of an archive may go: a test of a path's plain names (and whether it is a folder),
/// and the rule in words for a refusal.
#[derive(Clone, Copy)]
pub struct Layout {
    pub holds: fn(&[&str], bool) -> bool,
    pub says: &'static str,
}

/// [`unpack`] from any reader, for any [`Layout`].
pub fn unpack_from(read: impl Read, into: &Path, caps: Caps, layout: Layout) -> Result<Vec<PathBuf>, String> {
    // Every member of a multi-member gzip stream is read (as `gzip -d` does), the cap counting them all.
    let reader =
        Capped { inner: flate2::read::MultiGzDecoder::new(read), left: caps.total_bytes, cap: caps.total_bytes };
    let mut archive = tar::Archive::new(reader);
    let mut written: Vec<PathBuf> = Vec::new();
    // The one top-level folder the package was packed in, if it was.
    let mut folder: Option<String> = None;
    let unreadable = |e: std::io::Error| format!("not a readable .tar.gz: {e}");
    for entry in archive.entries().map_err(unreadable)? {
        let mut entry = entry.map_err(unreadable)?;
        let path = entry.path().map_err(unreadable)?.into_owned();
        let shown = arena_core::quote_at(&path.display().to_string(), NAME_QUOTE);
        let kind = entry.header().entry_type();
        let is_dir = match kind {
            tar::EntryType::Regular | tar::EntryType::Continuous => false,
            tar::EntryType::Directory => true,
            // Whole-archive metadata (a pax global header): nothing to write.
            tar::EntryType::XGlobalHeader => continue,
            tar::EntryType::Symlink | tar::EntryType::Link => {
                return Err(format!("`{shown}`: a link; a package holds plain files only"));
            }
            other => return Err(format!("`{shown}`: a {other:?} entry; a package holds plain files only")),
        };
        let mut parts = plain_parts(&path)?;
        if parts.is_empty() {
            continue;
        }
        // An archive whose first entry is one folder that the layout does not know, or lies in one,
        // is read as that folder's contents (a package packed with its folder: `tar czf g.tar.gz g/`);
        // then every entry must lie in it.
        if written.is_empty() && folder.is_none() && !(layout.holds)(&parts, is_dir) {
            let whole_folder = parts.len() == 1 && is_dir;
            if whole_folder || (layout.holds)(&parts[1..], is_dir) {
                folder = Some(parts[0].to_string());
            }
        }
        if let Some(f) = &folder {
            if parts[0] != f.as_str() {
                return Err(format!("`{shown}`: outside the archive's one top-level folder `{f}/`"));
            }
            parts.remove(0);
            if parts.is_empty() {
                continue;
            }
        }
        if !(layout.holds)(&parts, is_dir) {
            return Err(format!("`{shown}`: not a place in {}", layout.says));
        }
        if is_dir {
            continue;
        }
        if written.len() >= caps.files {
            return Err(format!("more than {} files; a package may have at most {}", caps.files, caps.files));
        }
        let size = entry.header().size().map_err(unreadable)?;
        if size > caps.file_bytes {
            return Err(format!("`{shown}`: {size} bytes; a file of a package may have at most {}", caps.file_bytes));
        }
        let rel: PathBuf = parts.iter().collect();
        let to = into.join(&rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("`{shown}`: cannot unpack: {e}"))?;
        }
        let mut out = std::fs::OpenOptions::new().write(true).create_new(true).open(&to).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                format!("`{shown}`: the archive holds it twice")
            } else {
                format!("`{shown}`: cannot unpack: {e}")
            }
        })?;
        let copied = std::io::copy(&mut (&mut entry).take(caps.file_bytes + 1), &mut out)
            .map_err(|e| format!("`{shown}`: {}", unreadable(e)))?;
        if copied != size {
            return Err(format!("`{shown}`: {copied} bytes where its header says {size}"));
        }
        out.flush().map_err(|e| format!("`{shown}`: cannot unpack: {e}"))?;
        written.push(rel);
    }
    // The end of the gzip stream is read too: a bomb hidden after the tar's end still stops at the cap.
    let mut rest = archive.into_inner();
    std::io::copy(&mut rest, &mut std::io::sink()).map_err(unreadable)?;
    if written.is_empty() {
        return Err("an empty archive".into());
    }
    written.sort();
    Ok(written)
}

/// The files of the package in `dir` that make it up, relative to it and sorted: its manifest, README,
/// referee and sample players (as its manifest names them), its WIT and its templates.
pub fn package_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let m = arena_play::Manifest::read(dir).map_err(|e| e.to_string())?;
    let mut files: Vec<PathBuf> = vec!["game.toml".into(), m.referee.clone()];
    files.extend(m.players.iter().cloned());
    if dir.join("README.md").is_file() {
        files.push("README.md".into());
    }
    for sub in ["wit", "templates"] {
        if dir.join(sub).is_dir() {
            let under = arena_play::files_under(&dir.join(sub)).map_err(|e| format!("{}/{sub}: {e}", dir.display()))?;
            files.extend(under.into_iter().map(|f| Path::new(sub).join(f)));
        }
    }
    files.sort();
    files.dedup();
    for f in &files {
        let parts = plain_parts(f).map_err(|e| format!("{}: {e}", dir.display()))?;
        if !in_layout(&parts, false) {
            return Err(format!("{}: `{}` has no place in {LAYOUT}", dir.display(), f.display()));
        }
    }
    Ok(files)
}

/// Packs the package in `dir` as a `.tar.gz`: its [`package_files`] in order, each a plain file
/// with fixed metadata, so the same package always packs to the same bytes.
pub fn pack(dir: &Path) -> Result<Vec<u8>, String> {
    pack_files(dir, &package_files(dir)?)
}

/// Packs the starter files of a package for one language (its author's `templates/LANG/`, or those
/// generated from its WIT: the files `arena new` fills in) as a `.tar.gz` of their own.
pub fn pack_templates(dir: &Path, lang: &str) -> Result<Vec<u8>, String> {
    let starter = crate::starter::files(dir, lang)?;
    let files: Vec<(PathBuf, Vec<u8>)> =
        starter.files.into_iter().map(|(path, text)| (PathBuf::from(path), text.into_bytes())).collect();
    pack_entries(dir, files)
}

/// Packs `files` of `dir` (relative paths), in order, each a plain file with fixed metadata.
pub fn pack_files(dir: &Path, files: &[PathBuf]) -> Result<Vec<u8>, String> {
    let mut entries = Vec::new();
    for f in files {
        let path = dir.join(f);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        entries.push((f.clone(), bytes));
    }
    pack_entries(dir, entries)
}

/// Packs (path, bytes) entries, in order, each a plain file with fixed metadata; `dir` names what is
/// packed in errors.
fn pack_entries(dir: &Path, entries: Vec<(PathBuf, Vec<u8>)>) -> Result<Vec<u8>, String> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    for (f, bytes) in entries {
        let path = dir.join(&f);
        let mut header = tar::Header::new_ustar();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(0);
        header.set_entry_type(tar::EntryType::Regular);
        tar.append_data(&mut header, &f, bytes.as_slice())
            .map_err(|e| format!("{}: cannot pack: {e}", path.display()))?;
    }
    let gz = tar.into_inner().map_err(|e| format!("{}: cannot pack: {e}", dir.display()))?;
    gz.finish().map_err(|e| format!("{}: cannot pack: {e}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every refusal of a hostile archive is tested through the API (tests/all/publish.rs); here, each
    // cap at its value and one past it, and the bomb whose bytes are too many to send there.

    /// A .tar.gz of `files` (path, size) of zeros.
    fn zeros(files: &[(String, u64)]) -> Vec<u8> {
        let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast()));
        for (path, size) in files {
            let mut h = tar::Header::new_gnu();
            h.set_size(*size);
            h.set_mode(0o644);
            tar.append_data(&mut h, path, std::io::repeat(0).take(*size)).unwrap();
        }
        tar.into_inner().unwrap().finish().unwrap()
    }

    fn unpacked(bytes: &[u8], caps: Caps) -> Result<usize, String> {
        let dir = tempfile::tempdir().unwrap();
        unpack(bytes, dir.path(), caps).map(|f| f.len())
    }

    #[test]
    fn each_cap_holds_at_its_value_and_refuses_one_past_it() {
        let caps = Caps { files: 10, file_bytes: 4096, total_bytes: 64 << 10 };
        let files = |n: usize| (0..n).map(|i| (format!("templates/f{i}"), 1)).collect::<Vec<_>>();
        assert_eq!(unpacked(&zeros(&files(10)), caps), Ok(10));
        assert!(unpacked(&zeros(&files(11)), caps).unwrap_err().contains("more than 10 files"));
        assert_eq!(unpacked(&zeros(&[("referee.wasm".into(), 4096)]), caps), Ok(1));
        let why = unpacked(&zeros(&[("referee.wasm".into(), 4097)]), caps).unwrap_err();
        assert!(why.contains("4097 bytes") && why.contains("at most 4096"), "{why}");
        // Every byte counts towards the total, the tar format's own headers and padding included.
        // (13 files of 4096 bytes and their headers, and the archive's end: 60,928 bytes; 15: 70,144.)
        let under = (0..13).map(|i| (format!("templates/f{i}"), 4096)).collect::<Vec<_>>();
        assert_eq!(unpacked(&zeros(&under), Caps { files: 100, ..caps }), Ok(13));
        let over = (0..15).map(|i| (format!("templates/f{i}"), 4096)).collect::<Vec<_>>();
        assert!(unpacked(&zeros(&over), Caps { files: 100, ..caps }).unwrap_err().contains("unpacks to more than"));
    }
    #[test]
    fn a_package_packed_in_its_one_folder_is_read_as_its_contents() {
        let caps = Caps { files: 10, file_bytes: 4096, total_bytes: 64 << 10 };
        let dir = tempfile::tempdir().unwrap();
        let files = [("nim/game.toml".to_string(), 3), ("nim/wit/nim.wit".into(), 2), ("nim/referee.wasm".into(), 1)];
        let got = unpack(&zeros(&files), dir.path(), caps).unwrap();
        assert_eq!(got, ["game.toml", "referee.wasm", "wit/nim.wit"].map(PathBuf::from));
        assert!(dir.path().join("wit/nim.wit").is_file());
        // Every entry must be in that folder; a build folder inside it is no place in a package.
        let stray = [("nim/game.toml".to_string(), 3), ("other/referee.wasm".into(), 1)];
        let why = unpacked(&zeros(&stray), caps).unwrap_err();
        assert!(why.contains("outside the archive's one top-level folder `nim/`"), "{why}");
        let built = [("nim/game.toml".to_string(), 3), ("nim/target/debug/x".into(), 1)];
        assert!(unpacked(&zeros(&built), caps).unwrap_err().contains("not a place in a game package"));
    }

    #[test]
    fn a_multi_member_gzip_is_read_whole_and_a_long_name_is_quoted_cut() {
        // A tar stream compressed as two gzip members (as `cat a.gz b.gz` makes): both are read.
        let mut tar = tar::Builder::new(Vec::new());
        for i in 0..3 {
            let mut h = tar::Header::new_gnu();
            h.set_size(10);
            h.set_mode(0o644);
            tar.append_data(&mut h, format!("templates/f{i}"), std::io::repeat(0).take(10)).unwrap();
        }
        let raw = tar.into_inner().unwrap();
        let (a, b) = raw.split_at(512 + 512 + 100);
        let member = |part: &[u8]| {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut gz, part).unwrap();
            gz.finish().unwrap()
        };
        let two = [member(a), member(b)].concat();
        assert_eq!(unpacked(&two, CAPS), Ok(3));
        // A refused name far longer than any rule allows is quoted cut, not whole.
        let why = unpacked(&zeros(&[(format!("templates/{}", "é".repeat(40_000)), 1)]), CAPS).unwrap_err();
        assert!(why.len() < 600 && why.contains("more bytes"), "{} bytes", why.len());
    }

    #[test]
    fn a_gzip_bomb_stops_at_the_cap() {
        // 200 MB of zeros in one file: about 200 KB compressed.
        let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let mut tar = tar::Builder::new(gz);
        let mut h = tar::Header::new_gnu();
        h.set_size(200 << 20);
        h.set_mode(0o644);
        tar.append_data(&mut h, "referee.wasm", std::io::repeat(0).take(200 << 20)).unwrap();
        let bomb = tar.into_inner().unwrap().finish().unwrap();
        assert!(bomb.len() < 1 << 20, "{}", bomb.len());
        let dir = tempfile::tempdir().unwrap();
        let why = unpack(&bomb, dir.path(), Caps { file_bytes: 1 << 30, ..CAPS }).expect_err("refused");
        assert!(why.contains("unpacks to more than"), "{why}");
    }
}
