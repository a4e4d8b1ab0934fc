//! Fuzz target `standalone_checker`: see `rotation_game::fuzzing::standalone_checker` for the property.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rotation_game::fuzzing::standalone_checker(data));
