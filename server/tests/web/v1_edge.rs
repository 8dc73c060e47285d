//! Protocol version 1 at the WebSocket edge (`server/src/ws/v1.rs`): a client whose `hello` says `version: 1`
//! still plays a classic Gomoku game end to end in the form it was written for (`place`, `decide_swap`, `move`,
//! `swap_decided`, `taken_back`, the snapshot's `moves` and `phase`) and gets the same frames as before version
//! 2. The transcripts are the golden examples of version 1: `v1_whole_game.txt` is the "A whole game" of the
//! version-1 protocol document, `v1_swap_game.txt` was recorded from the server before version 2 (a swap after
//! three, a snapshot after it, a takeback, a five). Every request line is sent as written and every line A
//! receives must equal the transcript's, once ids, names, the token and the record id are renamed.

use crate::protocol_doc::{converse, lines};

#[tokio::test]
async fn a_version_1_client_plays_the_version_1_documented_game_with_the_same_frames() {
    converse(lines(include_str!("v1_whole_game.txt"))).await;
}

#[tokio::test]
async fn a_version_1_client_plays_a_swap_a_takeback_and_a_five_with_the_same_frames_as_before() {
    converse(lines(include_str!("v1_swap_game.txt"))).await;
}
