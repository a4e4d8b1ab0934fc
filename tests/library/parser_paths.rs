//! The parser's fast path for canonical lines changes speed only: fed one
//! byte at a time (so that its buffer never holds a whole line and the fast
//! path never runs) it must give the same boards and the same errors.

use std::io::Read;

use proptest::prelude::*;
use rotation_game::parser::{CaseReader, format_input};
use rotation_game::strategies::uniform_boards;

/// A reader that returns one byte per call.
struct OneByteAtATime<'a>(&'a [u8]);

impl Read for OneByteAtATime<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buffer.first_mut()) {
            (Some((&byte, rest)), Some(slot)) => {
                *slot = byte;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

fn outcomes<R: Read>(reader: CaseReader<R>) -> Vec<Result<String, String>> {
    reader
        .map(|result| {
            result
                .map(|board| board.to_string())
                .map_err(|e| e.to_string())
        })
        .collect()
}

proptest! {
    #[test]
    fn fast_and_general_paths_agree_on_damaged_input(
        boards in prop::collection::vec(uniform_boards(), 0..6),
        damage in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(
            vec![b'0', b'1', b'2', b'3', b'4', b' ', b'\n', b'\r', b'\t', b'x', 0xc3]
        )), 0..4),
    ) {
        let mut input = format_input(&boards).into_bytes();
        for (index, byte) in damage {
            let position = index.index(input.len());
            input[position] = byte;
        }
        let fast = outcomes(CaseReader::new(input.as_slice()));
        let general = outcomes(CaseReader::new(OneByteAtATime(&input)));
        prop_assert_eq!(fast, general);
    }
}
