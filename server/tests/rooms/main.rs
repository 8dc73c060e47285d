//! Rooms and what leads to them: play in every game and opening rule, clocks, offers, takebacks, chat,
//! spectators, the computer and outside engines, quick pairing, seeks, challenges, ratings and the
//! leaderboard. One test binary (one link) for the area; each file is a module.

#[path = "../common/mod.rs"]
mod common;
#[macro_use]
mod challenges;
mod chat;
mod chat_history;
mod clocks;
mod computer;
mod computer_limits;
mod draughts_rooms;
mod engines;
mod farming;
mod finish_storage;
mod finished_rooms;
mod games;
mod guests;
mod idle_claim;
mod insect_rooms;
mod join_answer;
mod leaderboard;
mod lifecycle;
mod matches;
mod offers;
mod opening_rules;
mod othello_rooms;
mod private_games;
mod public_games;
mod quick_pairing;
mod rated_integrity;
mod room_fuzz;
mod seeks;
mod spectators;
mod takebacks;
