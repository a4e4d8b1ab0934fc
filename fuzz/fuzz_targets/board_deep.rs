//! Fuzz target `board_deep`: see `rotation_game::fuzzing::board_deep` for the property.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rotation_game::fuzzing::board_deep(data));
