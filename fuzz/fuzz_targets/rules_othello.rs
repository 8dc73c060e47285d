//! Applies arbitrary Othello moves, undos and texts (see `rules::fuzzing::run_othello`): the rules crate must never
//! panic, a refused move changes nothing and an accepted one keeps the game's invariants.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::fuzzing::run_othello;

fuzz_target!(|data: &[u8]| {
    run_othello(data);
});
