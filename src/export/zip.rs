//! Zip archives as the judges take them, written by hand: every entry stored as it is
//! (no compression: the judges' data is small, and stored bytes are read back exactly),
//! its CRC-32 computed here, then the central directory and the end record. The same
//! entries always give the same bytes: every entry is dated 1980-01-01 00:00, the
//! earliest date the format knows. The end record's comment says who wrote the archive,
//! so that a later run knows the file for one of its own ([`comment_of`]).

use std::fmt;

/// The CRC-32 of the zip format (IEEE 802.3, reflected, polynomial `0xEDB88320`), one
/// byte at a time from a table made at compile time.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc = CRC_TABLE[((crc ^ u32::from(b)) & 0xff) as usize] ^ (crc >> 8);
    }
    !crc
}

/// The CRC of every byte value.
const CRC_TABLE: [u32; 256] = crc_table();

const fn crc_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 == 1 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[n] = c;
        n += 1;
    }
    table
}

/// The record signatures.
const LOCAL: u32 = 0x0403_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const END: u32 = 0x0605_4b50;
/// Version 1.0 of the format is enough to read stored entries.
const NEEDED: u16 = 10;
/// Made by: Unix (3), format version 2.0, so that the permissions below count.
const MADE_BY: u16 = 3 << 8 | 20;
/// A regular file readable by all, writable by its owner (`0o100644`), in the high half.
const FILE_ATTRIBUTES: u32 = 0o100_644 << 16;
/// 1980-01-01 as the format writes a date: years since 1980, month, day.
const DATE: u16 = 1 << 5 | 1;
/// The length of the end record without its comment.
const END_LEN: usize = 22;

/// Why an archive cannot be made: it would go past what the format holds without its
/// 64-bit extension, which some judges do not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipError(String);

impl fmt::Display for ZipError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ZipError {}

/// An archive being made, in memory.
#[derive(Debug, Default)]
pub struct Zip {
    bytes: Vec<u8>,
    central: Vec<u8>,
    entries: u16,
}

fn u16_le(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn u32_le(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// `n` as a field of `width` bits' worth, or the error naming `what`.
fn fits<T: TryFrom<usize>>(n: usize, what: &str) -> Result<T, ZipError> {
    T::try_from(n).map_err(|_| ZipError(format!("{what} ({n}) is past what a zip file holds")))
}

impl Zip {
    /// An empty archive.
    pub fn new() -> Zip {
        Zip::default()
    }

    /// Adds the file `name` (a relative path with `/` between folders) holding `data`.
    pub fn add(&mut self, name: &str, data: &[u8]) -> Result<(), ZipError> {
        let offset: u32 = fits(self.bytes.len(), "the archive's size")?;
        let size: u32 = fits(data.len(), "a file's size")?;
        let name_len: u16 = fits(name.len(), "a name's length")?;
        self.entries = self
            .entries
            .checked_add(1)
            .filter(|&n| n < u16::MAX)
            .ok_or_else(|| ZipError("more files than a zip file holds".to_string()))?;
        let crc = crc32(data);
        // The fields both headers share, from the version needed to the extra length.
        let mut shared = Vec::with_capacity(26);
        u16_le(&mut shared, NEEDED);
        u16_le(&mut shared, 0); // flags: none
        u16_le(&mut shared, 0); // method: stored
        u16_le(&mut shared, 0); // time: 00:00
        u16_le(&mut shared, DATE);
        u32_le(&mut shared, crc);
        u32_le(&mut shared, size); // compressed size
        u32_le(&mut shared, size);
        u16_le(&mut shared, name_len);
        u16_le(&mut shared, 0); // extra field: none

        u32_le(&mut self.bytes, LOCAL);
        self.bytes.extend_from_slice(&shared);
        self.bytes.extend_from_slice(name.as_bytes());
        self.bytes.extend_from_slice(data);

        u32_le(&mut self.central, CENTRAL);
        u16_le(&mut self.central, MADE_BY);
        self.central.extend_from_slice(&shared);
        u16_le(&mut self.central, 0); // comment: none
        u16_le(&mut self.central, 0); // disk: the first
        u16_le(&mut self.central, 0); // internal attributes: binary
        u32_le(&mut self.central, FILE_ATTRIBUTES);
        u32_le(&mut self.central, offset);
        self.central.extend_from_slice(name.as_bytes());
        Ok(())
    }

    /// The whole archive: the entries, the central directory, and the end record with
    /// `comment`.
    pub fn finish(mut self, comment: &str) -> Result<Vec<u8>, ZipError> {
        let offset: u32 = fits(self.bytes.len(), "the archive's size")?;
        let size: u32 = fits(self.central.len(), "the central directory's size")?;
        let comment_len: u16 = fits(comment.len(), "the comment's length")?;
        fits::<u32>(
            self.bytes.len() + self.central.len() + END_LEN + comment.len(),
            "the archive's size",
        )?;
        self.bytes.append(&mut self.central);
        u32_le(&mut self.bytes, END);
        u16_le(&mut self.bytes, 0); // this disk
        u16_le(&mut self.bytes, 0); // the central directory's disk
        u16_le(&mut self.bytes, self.entries);
        u16_le(&mut self.bytes, self.entries);
        u32_le(&mut self.bytes, size);
        u32_le(&mut self.bytes, offset);
        u16_le(&mut self.bytes, comment_len);
        self.bytes.extend_from_slice(comment.as_bytes());
        Ok(self.bytes)
    }
}

/// The longest tail of a file that can hold the end record: the record and the longest
/// comment.
pub const TAIL: usize = END_LEN + u16::MAX as usize;

/// The comment of the zip archive whose last bytes are `tail` (at least its last
/// [`TAIL`] bytes): found by its end record, the last one whose comment runs exactly to
/// the end. `None` when `tail` ends no zip archive.
pub fn comment_of(tail: &[u8]) -> Option<&[u8]> {
    let last = tail.len().checked_sub(END_LEN)?;
    (0..=last).rev().find_map(|at| {
        let record = &tail[at..];
        let signature = u32::from_le_bytes(record[..4].try_into().ok()?);
        let len = usize::from(u16::from_le_bytes(record[20..22].try_into().ok()?));
        (signature == END && record.len() == END_LEN + len).then(|| &record[END_LEN..])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crc_is_the_standard_one() {
        // The check value of CRC-32/ISO-HDLC, and two more known values.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        assert_eq!(
            crc32(b"The quick brown fox jumps over the lazy dog"),
            0x414F_A339
        );
    }

    /// The little-endian number of `width` bytes at `at`.
    fn field(bytes: &[u8], at: usize, width: usize) -> u64 {
        bytes[at..at + width]
            .iter()
            .rev()
            .fold(0, |n, &b| n << 8 | u64::from(b))
    }

    #[test]
    fn an_archive_is_laid_out_as_the_format_says() {
        let mut zip = Zip::new();
        zip.add("1.in", b"0\n").unwrap();
        zip.add("tests/01", b"").unwrap();
        let bytes = zip.finish("made here").unwrap();
        // The first local header, its name and data.
        assert_eq!(field(&bytes, 0, 4), u64::from(LOCAL));
        assert_eq!(field(&bytes, 8, 2), 0, "stored");
        assert_eq!(field(&bytes, 14, 4), u64::from(crc32(b"0\n")));
        assert_eq!(field(&bytes, 18, 4), 2);
        assert_eq!(field(&bytes, 22, 4), 2);
        assert_eq!(&bytes[30..34], b"1.in");
        assert_eq!(&bytes[34..36], b"0\n");
        // The second follows at once.
        assert_eq!(field(&bytes, 36, 4), u64::from(LOCAL));
        // The end record: two entries, the directory where it says.
        let end = bytes.len() - END_LEN - "made here".len();
        assert_eq!(field(&bytes, end, 4), u64::from(END));
        assert_eq!(field(&bytes, end + 10, 2), 2);
        let (size, offset) = (field(&bytes, end + 12, 4), field(&bytes, end + 16, 4));
        assert_eq!(offset + size, end as u64);
        assert_eq!(field(&bytes, offset as usize, 4), u64::from(CENTRAL));
        assert_eq!(comment_of(&bytes), Some(&b"made here"[..]));
    }

    #[test]
    fn the_same_entries_give_the_same_bytes() {
        let make = || {
            let mut zip = Zip::new();
            zip.add("a", b"x").unwrap();
            zip.finish("c").unwrap()
        };
        assert_eq!(make(), make());
    }

    #[test]
    fn a_file_that_is_no_archive_has_no_comment() {
        assert_eq!(comment_of(b""), None);
        assert_eq!(
            comment_of(b"just some text, long enough to hold a record"),
            None
        );
        let empty = Zip::new().finish("").unwrap();
        assert_eq!(comment_of(&empty), Some(&b""[..]));
        // Bytes after the record: not the end of an archive.
        let mut trailing = Zip::new().finish("c").unwrap();
        trailing.push(b'!');
        assert_eq!(comment_of(&trailing), None);
    }
}
