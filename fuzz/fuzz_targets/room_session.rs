//! Drives the server's real connection and room code with arbitrary sequences of client messages, clock moves,
//! disconnections and reconnections (see `testkit::fuzzing`): nothing may panic, every request gets exactly one
//! answer, versions have no gaps, and what clients are told about a game is what the store holds.

#![no_main]

use libfuzzer_sys::fuzz_target;
use testkit::fuzzing::run_room_session;

fuzz_target!(|data: &[u8]| {
    run_room_session(data);
});
