//! Applies arbitrary international draughts moves, paths, undos and FEN/PDN texts (see
//! `rules::fuzzing::run_draughts`): the rules crate must never panic, a refused move changes nothing and an
//! accepted one keeps the game's invariants.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::fuzzing::run_draughts;

fuzz_target!(|data: &[u8]| {
    run_draughts(data);
});
