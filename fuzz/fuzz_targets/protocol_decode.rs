//! Feeds arbitrary text to the protocol's frame decoder, as a hostile client would: decoding must never panic,
//! must respect the size limit, and every frame it accepts must survive encoding and decoding again unchanged
//! (so what the server acts on is exactly what the client sent), and the decoder's fast path must answer exactly
//! as the step-by-step reading (`decode_checked`) does, error for error.

#![no_main]

use libfuzzer_sys::fuzz_target;
use protocol::{decode, decode_checked, encode, ClientMessage, ServerMessage, DEFAULT_MAX_FRAME};

fuzz_target!(|data: &[u8]| {
    // WebSocket text frames are UTF-8 by the time the decoder sees them (tungstenite checks).
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    assert_eq!(
        decode::<ClientMessage>(text, usize::MAX),
        decode_checked::<ClientMessage>(text)
    );
    assert_eq!(
        decode::<ServerMessage>(text, usize::MAX),
        decode_checked::<ServerMessage>(text)
    );
    match decode::<ClientMessage>(text, DEFAULT_MAX_FRAME) {
        Ok(frame) => {
            assert!(text.len() <= DEFAULT_MAX_FRAME);
            let again = encode(&frame.msg, frame.rid);
            let back =
                decode::<ClientMessage>(&again, usize::MAX).expect("an encoded frame decodes");
            assert_eq!(back, frame);
        }
        Err(e) => {
            // Every refusal has one of the documented stable codes.
            assert!(["too_large", "bad_json", "unknown_type", "invalid_field"].contains(&e.code()));
        }
    }
    // Clients (the web client, bots, loadgen) decode server frames with the same code.
    if let Ok(frame) = decode::<ServerMessage>(text, usize::MAX) {
        let again = encode(&frame.msg, frame.rid);
        assert!(decode::<ServerMessage>(&again, usize::MAX).is_ok());
    }
});
