//! The read buffer of every streaming reader of untrusted bytes.
//!
//! # Overview
//!
//! Judge input, contestants' output and the pipes of programs under test
//! are all untrusted: any length, any bytes. Every reader of them (the
//! [parser](crate::parser), the [validator](crate::validator), the
//! [checker](crate::checker) and the stress runner's pipe readers) reads
//! through one fixed buffer of [`BUFFER_SIZE`] bytes, and quotes what it
//! found through [`Quote`](crate::quote::Quote), so that neither memory nor
//! a message grows with the input.
//!
//! This module and [`quote`](crate::quote) use nothing else from the crate:
//! the readers above them all stand on them, and they on none of them.

/// Size of the read buffer of each of the crate's streaming readers.
pub(crate) const BUFFER_SIZE: usize = 1 << 16;
