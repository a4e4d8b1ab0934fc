//! Fuzz target `standalone_validator`: see `rotation_game::fuzzing::standalone_validator` for the property.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rotation_game::fuzzing::standalone_validator(data));
