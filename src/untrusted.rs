//! The ground floor for reading untrusted bytes: the buffer size of every
//! streaming reader, and [`Quote`], the shortened, escaped quotation that
//! messages use for what those bytes held.
//!
//! # Overview
//!
//! Judge input, contestants' output and the pipes of programs under test
//! are all untrusted: any length, any bytes. Every reader of them (the
//! [parser](crate::parser), the [validator](crate::validator), the
//! [checker](crate::checker) and the stress runner's pipe readers) reads
//! through one fixed buffer of `BUFFER_SIZE` bytes, and quotes what it
//! found through [`Quote`], so that neither memory nor a message grows with
//! the input.
//!
//! This module uses nothing else from the crate: the readers above it all
//! stand on it, and it on none of them.

mod quote;

pub use quote::{QUOTE_BYTES, Quote};

/// Size of the read buffer of each of the crate's streaming readers.
pub(crate) const BUFFER_SIZE: usize = 1 << 16;
