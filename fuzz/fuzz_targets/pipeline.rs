//! Fuzz target `pipeline`: see `rotation_game::fuzzing::pipeline` for the property.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rotation_game::fuzzing::pipeline(data));
