//! The machine's mount table, read for one question: where else can a file
//! or folder be seen?
//!
//! A folder bound elsewhere (`mount --bind /srv/packages /usr/local/games`,
//! a container's volume, a second mount of the same disk) is one folder at
//! two paths. A hidden path must be hidden at each of them, or a program
//! shown the other path reads it there. [`aliases`] finds the other paths
//! from `/proc/self/mountinfo`: the mount that holds the path, where the
//! path lies inside that mount's filesystem, and every other mount of the
//! same filesystem whose root lies above that place (the whole hidden path
//! is seen there) or inside it (a part of it, down to one of its files,
//! bound elsewhere). Each alias found is checked to be the very same file
//! (device and inode) as what it shows before it counts.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// One line of `mountinfo`, the fields this needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MountEntry {
    /// The filesystem's device, `MAJOR:MINOR`.
    device: String,
    /// The folder of that filesystem the mount shows.
    root: PathBuf,
    /// Where it is mounted.
    at: PathBuf,
}

/// The entries of a `mountinfo` text; lines that do not parse are passed
/// over.
pub(crate) fn parse(text: &str) -> Vec<MountEntry> {
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split(' ').skip(2);
            let device = fields.next()?.to_owned();
            let root = PathBuf::from(unescape(fields.next()?));
            let at = PathBuf::from(unescape(fields.next()?));
            Some(MountEntry { device, root, at })
        })
        .collect()
}

/// A field of `mountinfo` with its octal escapes (`\040` for a space, and
/// tab, newline and backslash likewise) undone.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let octal = bytes.get(at + 1..at + 4).and_then(|digits| {
            let text = std::str::from_utf8(digits).ok()?;
            u8::from_str_radix(text, 8).ok()
        });
        match (bytes[at], octal) {
            (b'\\', Some(byte)) => {
                out.push(byte);
                at += 4;
            }
            (byte, _) => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// This process's mount table.
pub(crate) fn read() -> Vec<MountEntry> {
    fs::read_to_string("/proc/self/mountinfo")
        .map(|text| parse(&text))
        .unwrap_or_default()
}

/// The other paths at which the mounts of `table` show the canonical path
/// `path` or a part of it, candidates only, each with what it shows: see
/// [`aliases`].
fn candidates(path: &Path, table: &[MountEntry]) -> Vec<(PathBuf, PathBuf)> {
    // The mount that holds the path: the deepest mount point above it, the
    // latest of equals (a mount on top of another comes after it).
    let Some(holder) = table
        .iter()
        .filter(|entry| path.starts_with(&entry.at))
        .max_by_key(|entry| entry.at.components().count())
    else {
        return Vec::new();
    };
    let inside = path.strip_prefix(&holder.at).expect("under its mount");
    let in_filesystem = holder.root.join(inside);
    let mut found: Vec<(PathBuf, PathBuf)> = Vec::new();
    for entry in table {
        if entry.device != holder.device || entry == holder {
            continue;
        }
        let alias = if let Ok(rest) = in_filesystem.strip_prefix(&entry.root) {
            (entry.at.join(rest), path.to_owned())
        } else if let Ok(part) = entry.root.strip_prefix(&in_filesystem) {
            (entry.at.clone(), path.join(part))
        } else {
            continue;
        };
        if alias.0 != path && !found.contains(&alias) {
            found.push(alias);
        }
    }
    found
}

/// The other paths at which this machine's mounts show the canonical path
/// `path` or a part of it: each the very same file or folder (device and
/// inode) as what it shows, and reachable without a symbolic link.
pub(crate) fn aliases(path: &Path, table: &[MountEntry]) -> Vec<PathBuf> {
    let same = |a: &fs::Metadata, b: &fs::Metadata| a.dev() == b.dev() && a.ino() == b.ino();
    candidates(path, table)
        .into_iter()
        .filter(|(alias, shown)| {
            alias.canonicalize().is_ok_and(|real| real == *alias)
                && fs::metadata(alias)
                    .and_then(|seen| Ok(same(&seen, &fs::metadata(shown)?)))
                    .unwrap_or(false)
        })
        .map(|(alias, _)| alias)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "\
22 1 254:0 / / rw,relatime - ext4 /dev/vda rw
30 22 0:25 / /tmp rw - tmpfs tmpfs rw
41 22 254:0 /srv/packages /usr/local/games rw,relatime - ext4 /dev/vda rw
42 22 254:0 /srv /mnt/with\\040space rw,relatime - ext4 /dev/vda rw
43 22 254:1 / /home rw - ext4 /dev/vdb rw
44 22 254:0 /srv/packages/rotation/data/1.ans /usr/local/share/one.ans rw - ext4 /dev/vda rw
";

    #[test]
    fn a_line_gives_its_device_root_and_mount_point_unescaped() {
        let table = parse(TABLE);
        assert_eq!(table.len(), 6);
        assert_eq!(
            table[3],
            MountEntry {
                device: "254:0".into(),
                root: "/srv".into(),
                at: "/mnt/with space".into(),
            }
        );
        assert_eq!(unescape(r"a\011b\134c\012"), "a\tb\\c\n");
        assert_eq!(unescape(r"end\04"), r"end\04");
    }

    #[test]
    fn a_bound_folder_is_seen_at_every_mount_of_its_filesystem_above_it() {
        let table = parse(TABLE);
        let of = |path: &str| -> Vec<PathBuf> {
            candidates(Path::new(path), &table)
                .into_iter()
                .map(|(alias, _)| alias)
                .collect()
        };
        assert_eq!(
            of("/srv/packages/rotation/data"),
            [
                PathBuf::from("/usr/local/games/rotation/data"),
                PathBuf::from("/mnt/with space/packages/rotation/data"),
                PathBuf::from("/usr/local/share/one.ans"),
            ]
        );
        // What a file of it bound elsewhere shows: that file.
        assert_eq!(
            candidates(Path::new("/srv/packages/rotation/data"), &table)[2].1,
            PathBuf::from("/srv/packages/rotation/data/1.ans")
        );
        // From the other side: the bind's path leads back to the original.
        assert_eq!(
            of("/usr/local/games/rotation/data"),
            [
                PathBuf::from("/srv/packages/rotation/data"),
                PathBuf::from("/mnt/with space/packages/rotation/data"),
                PathBuf::from("/usr/local/share/one.ans"),
            ]
        );
        // Another filesystem, another tmpfs: no alias.
        assert_eq!(of("/home/user/data"), Vec::<PathBuf>::new());
        assert_eq!(of("/tmp/data"), Vec::<PathBuf>::new());
        // A path of the root filesystem outside every bind.
        assert_eq!(of("/etc/passwd"), Vec::<PathBuf>::new());
    }

    #[test]
    fn a_mount_stacked_on_another_adds_no_alias_twice_nor_the_path_itself() {
        // 45 is 41 again, mounted on top of it: the same paths show the
        // same folders, so the aliases are the same as without it.
        let stacked =
            format!("{TABLE}45 41 254:0 /srv/packages /usr/local/games rw - ext4 /dev/vda rw\n");
        let (table, stacked) = (parse(TABLE), parse(&stacked));
        for path in [
            "/srv/packages/rotation/data",
            "/usr/local/games/rotation/data",
        ] {
            let path = Path::new(path);
            assert_eq!(
                candidates(path, &stacked),
                candidates(path, &table),
                "{path:?}"
            );
            assert_eq!(candidates(path, &table).len(), 3, "{path:?}");
        }
    }

    #[test]
    fn only_the_same_file_counts() {
        let dir = tempfile::tempdir().unwrap();
        let (data, other) = (dir.path().join("data"), dir.path().join("other"));
        fs::create_dir(&data).unwrap();
        fs::create_dir(&other).unwrap();
        let data = data.canonicalize().unwrap();
        let other = other.canonicalize().unwrap();
        // A table claiming `other` shows `data`: the inodes say it does not.
        let text = format!(
            "1 0 9:9 / / rw - ext4 x rw\n2 1 9:9 {} {} rw - ext4 x rw\n",
            data.display(),
            other.display()
        );
        let table = parse(&text);
        assert_eq!(candidates(&data, &table), [(other, data.clone())]);
        assert_eq!(aliases(&data, &table), Vec::<PathBuf>::new());
    }
}
