//! Shortened, escaped quotations of untrusted text, for messages: what
//! a reader of untrusted bytes ([`read_buffer`](crate::read_buffer)) shows of
//! what it found, whatever its length.

use std::fmt;

/// How many bytes of a quoted text a message shows.
pub const QUOTE_BYTES: usize = 100;

/// The start of a text taken from untrusted output, and its full length.
///
/// Displays as `"AC"`, or `"ABAB…" (10485760 bytes)` when the text is longer
/// than [`QUOTE_BYTES`]; bytes that are not printable ASCII are escaped
/// (`\x00`, `\n`), so a message stays one short line whatever was quoted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quote {
    /// The first [`QUOTE_BYTES`] bytes at most.
    head: Vec<u8>,
    /// The full length of the text.
    length: u64,
}

impl Quote {
    /// A quotation of `text` (only its first [`QUOTE_BYTES`] are kept).
    pub fn new(text: &[u8]) -> Quote {
        Quote::from_head(&text[..text.len().min(QUOTE_BYTES)], text.len() as u64)
    }

    /// A quotation of a text of `length` bytes that starts with `head`
    /// (of which only the first [`QUOTE_BYTES`] are kept).
    pub fn from_head(head: &[u8], length: u64) -> Quote {
        let kept = head.len().min(QUOTE_BYTES).min(length as usize);
        Quote {
            head: head[..kept].to_vec(),
            length,
        }
    }

    /// The kept bytes: the whole text when it is at most [`QUOTE_BYTES`]
    /// long.
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// The full length of the quoted text, in bytes.
    pub fn length(&self) -> u64 {
        self.length
    }
}

impl fmt::Display for Quote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}", self.head.escape_ascii())?;
        if self.length > self.head.len() as u64 {
            write!(f, "…\" ({} bytes)", self.length)
        } else {
            f.write_str("\"")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole_and_escaped() {
        assert_eq!(Quote::new(b"AC").to_string(), "\"AC\"");
        assert_eq!(Quote::new(b"a\0\xff\"").to_string(), r#""a\x00\xff\"""#);
    }

    #[test]
    fn long_text_is_shortened_with_its_length() {
        let text = vec![b'A'; 10 << 20];
        let quoted = Quote::new(&text).to_string();
        assert!(quoted.starts_with(&format!("\"{}…\"", "A".repeat(QUOTE_BYTES))));
        assert!(quoted.ends_with("(10485760 bytes)"), "{quoted}");
        assert_eq!(Quote::from_head(b"ABC", 2).head(), b"AB");
    }
}
