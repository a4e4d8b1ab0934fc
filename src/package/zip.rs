//! The package as one zip archive, as DOMjudge and Kattis import a problem:
//! its files at the archive's root (`problem.yaml`, `data/…`), stored
//! uncompressed.
//!
//! The format is PKWARE's APPNOTE (version 2.0 features only): for each
//! file a local header and its bytes, then the central directory and its
//! end record. Every archive of the same package is the same bytes: the
//! files in the package's order, each dated 1980-01-01 00:00 (the format's
//! first date), its mode 0644. A package is a few hundred kilobytes, far
//! below the 4 GiB and 65,535 files where the format needs its 64-bit
//! extension, which this writer refuses rather than writes wrong.

use super::PackageFile;

/// A package beyond what a zip archive holds without its 64-bit extension.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("the package is too large for a zip archive (4 GiB or 65,535 files)")]
pub struct ZipTooLarge;

/// `files` as a zip archive, in memory.
///
/// # Errors
///
/// [`ZipTooLarge`] for a package too large for the format without its
/// 64-bit extension.
pub fn zip(files: &[PackageFile]) -> Result<Vec<u8>, ZipTooLarge> {
    let mut out = Vec::new();
    let count = below_u16_max(files.len())?;
    let mut central = Vec::new();
    let mut offset = 0u32;
    for file in files {
        let name = file.path.as_bytes();
        let name_length = below_u16_max(name.len())?;
        let size = below_u32_max(file.contents.len() as u64)?;
        let crc = crc32(&file.contents);
        // The fields both headers share, from "version needed" on.
        let mut shared = Vec::with_capacity(26);
        shared.extend_from_slice(&20u16.to_le_bytes()); // version needed: 2.0
        shared.extend_from_slice(&0u16.to_le_bytes()); // flags
        shared.extend_from_slice(&0u16.to_le_bytes()); // method: stored
        shared.extend_from_slice(&0u16.to_le_bytes()); // time 00:00
        shared.extend_from_slice(&DOS_DATE_1980_01_01.to_le_bytes());
        shared.extend_from_slice(&crc.to_le_bytes());
        shared.extend_from_slice(&size.to_le_bytes()); // compressed
        shared.extend_from_slice(&size.to_le_bytes()); // uncompressed
        shared.extend_from_slice(&name_length.to_le_bytes());
        shared.extend_from_slice(&0u16.to_le_bytes()); // extra field length
        out.extend_from_slice(&LOCAL_HEADER.to_le_bytes());
        out.extend_from_slice(&shared);
        out.extend_from_slice(name);
        out.extend_from_slice(&file.contents);

        central.extend_from_slice(&CENTRAL_HEADER.to_le_bytes());
        central.extend_from_slice(&MADE_BY_UNIX.to_le_bytes());
        central.extend_from_slice(&shared);
        central.extend_from_slice(&0u16.to_le_bytes()); // comment length
        central.extend_from_slice(&0u16.to_le_bytes()); // disk number
        central.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
        central.extend_from_slice(&(FILE_MODE << 16).to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name);
        let entry = 30 + u64::from(name_length) + u64::from(size);
        offset = below_u32_max(u64::from(offset) + entry)?;
    }
    let central_size = below_u32_max(central.len() as u64)?;
    out.extend_from_slice(&central);
    out.extend_from_slice(&END_OF_CENTRAL_DIRECTORY.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes()); // this disk
    out.extend_from_slice(&0u16.to_le_bytes()); // the disk the directory starts on
    out.extend_from_slice(&count.to_le_bytes()); // entries on this disk
    out.extend_from_slice(&count.to_le_bytes()); // entries in all
    out.extend_from_slice(&central_size.to_le_bytes());
    out.extend_from_slice(&offset.to_le_bytes()); // where the directory starts
    out.extend_from_slice(&0u16.to_le_bytes()); // comment length
    Ok(out)
}

/// `value` as a 16-bit field: below 0xFFFF, which marks a field whose
/// value is in the 64-bit extension (APPNOTE 4.4.1.4).
fn below_u16_max(value: usize) -> Result<u16, ZipTooLarge> {
    u16::try_from(value)
        .ok()
        .filter(|&field| field != u16::MAX)
        .ok_or(ZipTooLarge)
}

/// `value` as a 32-bit field: below 0xFFFF_FFFF, as [`below_u16_max`].
fn below_u32_max(value: u64) -> Result<u32, ZipTooLarge> {
    u32::try_from(value)
        .ok()
        .filter(|&field| field != u32::MAX)
        .ok_or(ZipTooLarge)
}

const LOCAL_HEADER: u32 = 0x0403_4b50;
const CENTRAL_HEADER: u32 = 0x0201_4b50;
const END_OF_CENTRAL_DIRECTORY: u32 = 0x0605_4b50;
/// "Made by": Unix (3, so that the mode is read), version 2.0.
const MADE_BY_UNIX: u16 = (3 << 8) | 20;
/// A regular file, readable by all, writable by its owner.
const FILE_MODE: u32 = 0o100_644;
/// 1980-01-01 in MS-DOS form: (year - 1980) << 9 | month << 5 | day.
const DOS_DATE_1980_01_01: u16 = (1 << 5) | 1;

/// The CRC-32 of `bytes` (ISO-HDLC, the polynomial 0xEDB88320 reflected,
/// as zip, gzip and PNG use it), a bit at a time: a package is small.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        // The check value of every CRC-32/ISO-HDLC implementation.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn an_archive_is_its_files_then_their_directory() {
        let files = [
            PackageFile {
                path: "problem.yaml".to_owned(),
                contents: b"name: x\n".to_vec(),
            },
            PackageFile {
                path: "data/sample/1.in".to_owned(),
                contents: Vec::new(),
            },
        ];
        let zip = zip(&files).unwrap();
        assert_eq!(&zip[..4], b"PK\x03\x04");
        // Two local entries (30 bytes of header each, the names, the
        // contents), two directory entries (46 bytes each, the names), the
        // end record (22 bytes).
        let names = "problem.yaml".len() + "data/sample/1.in".len();
        assert_eq!(zip.len(), 2 * 30 + names + 8 + 2 * 46 + names + 22);
        let end = &zip[zip.len() - 22..];
        assert_eq!(&end[..4], b"PK\x05\x06");
        assert_eq!(u16::from_le_bytes([end[10], end[11]]), 2);
        let directory_at = u32::from_le_bytes(end[16..20].try_into().unwrap()) as usize;
        assert_eq!(&zip[directory_at..directory_at + 4], b"PK\x01\x02");
        // The same files give the same bytes.
        assert_eq!(super::zip(&files).unwrap(), zip);
    }

    /// A little-endian field of `bytes` at `at`.
    fn field<const N: usize>(bytes: &[u8], at: usize) -> u64 {
        let mut value = [0u8; 8];
        value[..N].copy_from_slice(&bytes[at..at + N]);
        u64::from_le_bytes(value)
    }

    #[test]
    fn every_field_is_what_the_appnote_says_and_each_entry_leads_to_its_file() {
        // Read back by the format's own rules (APPNOTE 4.3.7, 4.3.12,
        // 4.3.16): the end record names the directory, each directory entry
        // its local header, and each local header its name and bytes.
        let files = [
            PackageFile {
                path: "problem.yaml".to_owned(),
                contents: b"name: The Rotation Game\n".to_vec(),
            },
            PackageFile {
                path: "data/secret/01-solved.in".to_owned(),
                contents: vec![b'1'; 1000],
            },
            PackageFile {
                path: "data/secret/01-solved.ans".to_owned(),
                contents: b"No moves needed\n1\n".to_vec(),
            },
        ];
        let zip = zip(&files).unwrap();
        let end = zip.len() - 22;
        assert_eq!(field::<4>(&zip, end), 0x0605_4b50);
        assert_eq!(field::<2>(&zip, end + 4), 0, "this disk");
        assert_eq!(field::<2>(&zip, end + 6), 0, "the directory's disk");
        assert_eq!(field::<2>(&zip, end + 8), 3, "entries on this disk");
        assert_eq!(field::<2>(&zip, end + 10), 3, "entries");
        assert_eq!(field::<2>(&zip, end + 20), 0, "comment length");
        let directory_size = field::<4>(&zip, end + 12) as usize;
        let mut entry = field::<4>(&zip, end + 16) as usize;
        assert_eq!(
            entry + directory_size,
            end,
            "the directory ends at the end record"
        );
        let mut local_end = 0;
        for file in &files {
            let name = file.path.as_bytes();
            let size = file.contents.len() as u64;
            assert_eq!(field::<4>(&zip, entry), 0x0201_4b50);
            assert_eq!(field::<2>(&zip, entry + 4), 0x0314, "made by: Unix, 2.0");
            // The fields the directory entry shares with the local header.
            let shared = [
                (2, 20, "version needed"),
                (2, 0, "flags"),
                (2, 0, "method: stored"),
                (2, 0, "time: 00:00"),
                (2, 0x0021, "date: 1980-01-01"),
                (4, u64::from(crc32(&file.contents)), "CRC-32"),
                (4, size, "compressed size"),
                (4, size, "size"),
                (2, name.len() as u64, "name length"),
                (2, 0, "extra field length"),
            ];
            let local = field::<4>(&zip, entry + 42) as usize;
            assert_eq!(
                local, local_end,
                "{}: the local header follows the last file",
                file.path
            );
            assert_eq!(field::<4>(&zip, local), 0x0403_4b50);
            let (mut in_directory, mut in_local) = (entry + 6, local + 4);
            for (width, value, what) in shared {
                let read = |at| match width {
                    2 => field::<2>(&zip, at),
                    _ => field::<4>(&zip, at),
                };
                assert_eq!(
                    read(in_directory),
                    value,
                    "{}: {what} in the directory",
                    file.path
                );
                assert_eq!(
                    read(in_local),
                    value,
                    "{}: {what} in the local header",
                    file.path
                );
                in_directory += width;
                in_local += width;
            }
            assert_eq!(field::<2>(&zip, entry + 32), 0, "comment length");
            assert_eq!(field::<2>(&zip, entry + 34), 0, "disk");
            assert_eq!(field::<2>(&zip, entry + 36), 0, "internal attributes");
            assert_eq!(field::<4>(&zip, entry + 38), 0o100_644 << 16, "mode 0644");
            assert_eq!(&zip[entry + 46..entry + 46 + name.len()], name);
            assert_eq!(&zip[local + 30..local + 30 + name.len()], name);
            let contents = local + 30 + name.len();
            local_end = contents + file.contents.len();
            assert_eq!(&zip[contents..local_end], file.contents);
            entry += 46 + name.len();
        }
        assert_eq!(entry, end, "three entries fill the directory");
        assert_eq!(
            local_end,
            field::<4>(&zip, end + 16) as usize,
            "the directory follows the files"
        );
    }

    #[test]
    fn more_files_than_the_format_counts_are_refused() {
        let file = |index: usize| PackageFile {
            path: index.to_string(),
            contents: Vec::new(),
        };
        // 0xFFFF in a count says the count is in the 64-bit extension.
        let most: Vec<PackageFile> = (0..0xFFFE).map(file).collect();
        assert!(zip(&most).is_ok());
        let one_more: Vec<PackageFile> = (0..0xFFFF).map(file).collect();
        assert_eq!(zip(&one_more), Err(ZipTooLarge));
        assert_eq!(below_u32_max(0xFFFF_FFFE), Ok(0xFFFF_FFFE));
        assert_eq!(below_u32_max(0xFFFF_FFFF), Err(ZipTooLarge));
        assert_eq!(below_u32_max(1 << 32), Err(ZipTooLarge));
        assert_eq!(below_u16_max(0x1_0000), Err(ZipTooLarge));
    }
}
