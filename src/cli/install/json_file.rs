//! A JSON settings file, read strictly and written safely: a file that is not a JSON
//! object is refused before anything changes; a write goes to a temporary file in the same
//! directory that is then renamed over the original (atomic), after a backup copy of the
//! original (the newest [`KEEP_BACKUPS`] are kept); a file changed by someone else
//! meanwhile is not overwritten. A symlinked settings file is written through to its
//! target. A read-only file and a symlink to nothing are refused: someone made them so,
//! and replacing them would undo that silently.

use std::fs::OpenOptions;
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// How many backups of one settings file are kept (the newest).
pub const KEEP_BACKUPS: usize = 3;

/// What a backup's name holds after the settings file's name.
const BACKUP_INFIX: &str = ".heredoc-guard-backup-";

/// A settings file as read: where it really is, its bytes, and its object.
pub struct JsonFile {
    /// The path asked for, for messages.
    pub shown: PathBuf,
    /// The file written (symlinks resolved).
    pub real: PathBuf,
    /// The bytes read; `None` when there was no file.
    pub original: Option<Vec<u8>>,
    pub doc: Map<String, Value>,
    /// Where the path's symlink points, when it points at nothing.
    pub dangling: Option<PathBuf>,
}

impl JsonFile {
    /// Reads `path`; a missing file is an empty object.
    pub fn load(path: &Path) -> Result<JsonFile, String> {
        let real = match std::fs::canonicalize(path) {
            Ok(real) => real,
            Err(_) => path.to_path_buf(),
        };
        let dangling = match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() && !path.exists() => {
                Some(std::fs::read_link(path).unwrap_or_default())
            }
            _ => None,
        };
        let original = match std::fs::read(&real) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let doc = match &original {
            None => Map::new(),
            Some(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => Map::new(),
            Some(bytes) => match serde_json::from_slice::<Value>(bytes) {
                Ok(Value::Object(map)) => map,
                Ok(_) => {
                    return Err(format!(
                        "{} is JSON but not an object; nothing was changed. Fix the file (it must hold one {{...}} object), then run this again.",
                        path.display()
                    ));
                }
                Err(e) => {
                    return Err(format!(
                        "{} is not valid JSON (line {}, column {}: {e}); nothing was changed. Fix the file or move it aside, then run this again.",
                        path.display(),
                        e.line(),
                        e.column()
                    ));
                }
            },
        };
        Ok(JsonFile {
            shown: path.to_path_buf(),
            real,
            original,
            doc,
            dangling,
        })
    }

    /// Refuses a file this must not replace: a symlink to nothing, a read-only file.
    fn check_writable(&self) -> Result<(), String> {
        if let Some(target) = &self.dangling {
            return Err(format!(
                "{} is a symlink to {}, which does not exist; nothing was changed. Create that file (or remove the link), then run this again.",
                self.shown.display(),
                target.display()
            ));
        }
        if let Some(mode) = self.mode()
            && mode & 0o222 == 0
        {
            return Err(format!(
                "{} is read-only (mode {mode:04o}); nothing was changed. If it is yours to change, make it writable (chmod u+w {}), then run this again.",
                self.shown.display(),
                self.real.display()
            ));
        }
        Ok(())
    }

    /// Writes `doc` (pretty, with a final newline) in place of the file. Returns the
    /// backup's path when there was a file before.
    pub fn save(&self, doc: &Map<String, Value>) -> Result<Option<PathBuf>, String> {
        self.save_with_mode(doc, 0o600)
    }

    /// [`JsonFile::save`], creating a new file with mode `new_mode` (an existing file keeps
    /// its own): 0644 for a system file every user's agent reads.
    pub fn save_with_mode(
        &self,
        doc: &Map<String, Value>,
        new_mode: u32,
    ) -> Result<Option<PathBuf>, String> {
        let mut text = serde_json::to_string_pretty(doc)
            .map_err(|e| format!("cannot serialize {}: {e}", self.shown.display()))?;
        text.push('\n');
        self.check_writable()?;
        let dir = self.dir();
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        self.check_unchanged()?;
        let backup = self.backup()?;
        let mode = self.mode().unwrap_or(new_mode);
        let tmp = dir.join(format!(
            ".{}.heredoc-guard-{}.tmp",
            self.file_name(),
            std::process::id()
        ));
        let result = (|| {
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(mode)
                .open(&tmp)
                .map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
            file.set_permissions(std::fs::Permissions::from_mode(mode))
                .map_err(|e| format!("cannot set the mode of {}: {e}", tmp.display()))?;
            file.write_all(text.as_bytes())
                .and_then(|()| file.sync_all())
                .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
            std::fs::rename(&tmp, &self.real)
                .map_err(|e| format!("cannot replace {}: {e}", self.real.display()))
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result.map(|()| backup)
    }

    /// Removes the file (after a backup), for an uninstall that leaves nothing in it.
    pub fn remove(&self) -> Result<Option<PathBuf>, String> {
        self.check_writable()?;
        self.check_unchanged()?;
        let backup = self.backup()?;
        match std::fs::remove_file(&self.real) {
            Ok(()) => Ok(backup),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(backup),
            Err(e) => Err(format!("cannot remove {}: {e}", self.real.display())),
        }
    }

    fn dir(&self) -> PathBuf {
        self.real
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    }

    fn file_name(&self) -> String {
        self.real.file_name().map_or_else(
            || "settings".to_owned(),
            |n| n.to_string_lossy().into_owned(),
        )
    }

    fn mode(&self) -> Option<u32> {
        self.original.as_ref()?;
        std::fs::metadata(&self.real)
            .ok()
            .map(|m| m.permissions().mode() & 0o7777)
    }

    /// Refuses to write over a file that changed since it was read.
    fn check_unchanged(&self) -> Result<(), String> {
        let now = match std::fs::read(&self.real) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(format!("cannot read {}: {e}", self.shown.display())),
        };
        if now != self.original {
            return Err(format!(
                "{} changed while heredoc-guard was working on it; nothing was written. Run this again.",
                self.shown.display()
            ));
        }
        Ok(())
    }

    /// Copies the original next to it as `<name>.heredoc-guard-backup-<UTC time>`, then
    /// removes all but the newest [`KEEP_BACKUPS`].
    fn backup(&self) -> Result<Option<PathBuf>, String> {
        let Some(bytes) = &self.original else {
            return Ok(None);
        };
        let stamp = crate::utc::stamp(crate::utc::now_millis());
        let path = self
            .dir()
            .join(format!("{}{BACKUP_INFIX}{stamp}", self.file_name()));
        let mode = self.mode().unwrap_or(0o600);
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&path)
            .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
            .map_err(|e| format!("cannot write the backup {}: {e}", path.display()))?;
        let all = self.backups();
        for old in all.iter().take(all.len().saturating_sub(KEEP_BACKUPS)) {
            let _ = std::fs::remove_file(old);
        }
        Ok(Some(path))
    }

    /// The backups of this file, oldest first.
    pub fn backups(&self) -> Vec<PathBuf> {
        let prefix = format!("{}{BACKUP_INFIX}", self.file_name());
        let mut found: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(self.dir())
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
            .filter_map(|e| {
                let m = e.metadata().ok().filter(std::fs::Metadata::is_file)?;
                Some((m.modified().ok()?, e.path()))
            })
            .collect();
        found.sort();
        found.into_iter().map(|(_, p)| p).collect()
    }
}
