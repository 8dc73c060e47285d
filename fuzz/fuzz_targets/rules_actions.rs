//! Applies arbitrary action sequences under arbitrary rules: the rules crate must never panic, and every
//! accepted action must undo to exactly the state before it.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::fuzzing::run_actions;

fuzz_target!(|data: &[u8]| {
    run_actions(data);
});
