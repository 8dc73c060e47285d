//! The room-session fuzz check (`testkit::fuzzing`, also the `room_session` fuzz target) on random bytes, and
//! hand-written scripts proving the harness reaches deep room states (so these tests fail if the byte mapping
//! or the harness stops reaching the rooms).

use protocol::GameSpec;
use protocol::{ColourChoice, RulesSpec, TimeControl};
use rand::Rng;
use rules::{ForbiddenPolicy, Opening, RuleSet};
use testkit::fuzzing::{
    self, run_room_session, run_script, Msg, Op, Ply, Report, RoomPick, Script, Since, Spot, Token,
    Tuning,
};

#[test]
fn random_sessions_keep_every_promise() {
    // Seeded, so a failure reproduces (TEST_SEED replays another).
    let mut rng = testkit::seed::rng(0x9e37_79b9_7f4a_7c15);
    let mut total = Report::default();
    for _ in 0..300 {
        let len = rng.random_range(0..400);
        let data: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let r = run_room_session(&data);
        total.steps += r.steps;
        total.frames += r.frames;
        total.rooms_created += r.rooms_created;
        total.games_started += r.games_started;
        total.stones += r.stones;
        total.longest_game = total.longest_game.max(r.longest_game);
        total.swaps_decided += r.swaps_decided;
        total.takebacks += r.takebacks;
        total.catch_ups += r.catch_ups;
        total.resyncs += r.resyncs;
        total.ended_by_server += r.ended_by_server;
        total.store_checks += r.store_checks;
        total.actions += r.actions;
        for (rule, n) in r.games_by_rule {
            *total.games_by_rule.entry(rule).or_default() += n;
        }
        for (rule, n) in r.actions_by_rule {
            *total.actions_by_rule.entry(rule).or_default() += n;
        }
        for (reason, n) in r.results {
            *total.results.entry(reason).or_default() += n;
        }
        for (code, n) in r.errors {
            *total.errors.entry(code).or_default() += n;
        }
    }
    // Random bytes do get into rooms and games, not only into error paths.
    assert!(total.rooms_created > 150, "{total:?}");
    assert!(total.games_started > 100, "{total:?}");
    assert!(total.stones > 150, "{total:?}");
    assert!(total.results.values().sum::<usize>() > 40, "{total:?}");
    assert!(total.store_checks > 1000, "{total:?}");
    eprintln!(
        "games by rule {:?}, actions by rule {:?}",
        total.games_by_rule, total.actions_by_rule
    );
}

/// Seeded sessions that play a room of every game of the list, and of Gomoku under every opening rule, deep:
/// both players act in turn (each picking among its game's own `legal_actions()`), with takebacks, offers,
/// reconnections, paused readers and clock steps between, under every promise of the harness (announced =
/// stored, gapless versions, one answer per request).
#[test]
fn every_game_and_every_gomoku_opening_is_played_deep_under_the_oracle() {
    let mut rng = testkit::seed::rng(0x5eed_0031);
    let mut total = Report::default();
    let mut specs: Vec<GameSpec> = games::GameKind::ALL
        .into_iter()
        .map(|kind| GameSpec::from(kind.default_config()))
        .collect();
    for opening in [
        Opening::None,
        Opening::SwapAfterThree,
        Opening::SwapAfterThreeFifthTwoOptions,
        Opening::Swap1,
        Opening::Swap2,
        Opening::Soosorv { n: 2 },
        Opening::Taraguchi { n: 2 },
    ] {
        specs.push(GameSpec::from(RulesSpec {
            size: 15,
            rule_set: RuleSet::Renju,
            forbidden_policy: ForbiddenPolicy::Claim,
            opening,
        }));
    }
    for spec in specs {
        for _ in 0..3 {
            let mut ops = vec![
                send(
                    0,
                    Msg::CreateGame {
                        game: spec,
                        time_control: TimeControl::None,
                        rated: false,
                        public: true,
                        colour: ColourChoice::Random,
                    },
                ),
                send(1, join(false)),
                send(2, join(true)),
            ];
            for _ in 0..rng.random_range(40..160) {
                let n: u8 = rng.random();
                ops.push(match rng.random_range(0..40) {
                    0 => send(fuzzing::TO_ACT, Msg::RequestTakeback { room: ROOM }),
                    1 => send(
                        rng.random_range(0..2),
                        Msg::AnswerTakeback {
                            room: ROOM,
                            accept: true,
                        },
                    ),
                    2 => send(rng.random_range(0..2), Msg::OfferDraw { room: ROOM }),
                    3 => Op::Reconnect {
                        conn: rng.random_range(0..3),
                        token: Token::Previous,
                    },
                    4 => send(rng.random_range(0..3), join(rng.random_range(0..3) == 2)),
                    5 => Op::Pause {
                        conn: rng.random_range(0..3),
                    },
                    6 => Op::Advance { ms: 1_000 },
                    // Decisions of the Gomoku openings, for whoever is to act.
                    7..=9 => send(
                        fuzzing::TO_ACT,
                        Msg::DecideSwap {
                            room: ROOM,
                            swap: n & 1 == 0,
                        },
                    ),
                    _ => send(
                        fuzzing::TO_ACT,
                        Msg::Place {
                            room: ROOM,
                            point: Spot::Free(n),
                            ply: Ply::Next,
                        },
                    ),
                });
            }
            let r = run_script(&Script {
                tuning: Tuning::default(),
                ops,
            });
            total.actions += r.actions;
            total.stones += r.stones;
            total.store_checks += r.store_checks;
            for (rule, n) in r.games_by_rule {
                *total.games_by_rule.entry(rule).or_default() += n;
            }
            for (rule, n) in r.actions_by_rule {
                *total.actions_by_rule.entry(rule).or_default() += n;
            }
        }
    }
    // Every game of the list, and Gomoku under every opening rule, is played and checked against the store
    // (the actions of the generic form picked from each game's own `legal_actions()`).
    for kind in games::GameKind::ALL {
        let played = |counts: &std::collections::BTreeMap<String, usize>| {
            counts
                .iter()
                .filter(|(rule, _)| rule.split('/').next() == Some(kind.as_str()))
                .map(|(_, n)| n)
                .sum::<usize>()
        };
        assert!(
            played(&total.games_by_rule) > 0,
            "no {kind} game: {total:?}"
        );
        assert!(
            played(&total.actions_by_rule) + total.stones > 0,
            "no {kind} action: {total:?}"
        );
    }
    for opening in [
        "none",
        "swap_after_three",
        "swap_after_three_fifth_two_options",
        "swap1",
        "swap2",
        "soosorv_2",
        "taraguchi_2",
    ] {
        let rule = format!("gomoku/{opening}");
        assert!(
            total.games_by_rule.get(&rule).is_some_and(|&n| n > 0),
            "no {rule} game: {:?}",
            total.games_by_rule
        );
    }
    for kind in ["othello", "draughts", "insect"] {
        assert!(
            total.actions_by_rule.get(kind).is_some_and(|&n| n > 20),
            "{kind} games get no deeper than {:?}",
            total.actions_by_rule
        );
    }
    eprintln!(
        "games by rule {:?}, actions by rule {:?}",
        total.games_by_rule, total.actions_by_rule
    );
}

fn send(conn: u8, msg: Msg) -> Op {
    Op::Send {
        conn,
        msg,
        rid: true,
    }
}

fn create(rule_set: RuleSet, opening: Opening, time_control: TimeControl) -> Msg {
    Msg::CreateRoom {
        rules: RulesSpec {
            size: 15,
            rule_set,
            forbidden_policy: ForbiddenPolicy::Reject,
            opening,
        },
        time_control,
        rated: false,
        public: true,
        colour: ColourChoice::Black,
    }
}

const ROOM: RoomPick = RoomPick::Known(0);

fn join(spectator: bool) -> Msg {
    Msg::Join {
        room: ROOM,
        spectator,
        since: Since::Absent,
    }
}

fn place_at(x: u8, y: u8) -> Msg {
    Msg::Place {
        room: ROOM,
        point: Spot::At(x, y),
        ply: Ply::Next,
    }
}

/// Creates a room on connection 0, seats connection 1 and lets connection 2 watch.
fn seated(room: Msg) -> Vec<Op> {
    vec![send(0, room), send(1, join(false)), send(2, join(true))]
}

/// Black (connection 0) makes five in a row on the row below white's four.
fn five_for_black() -> Vec<Op> {
    let mut ops = seated(create(RuleSet::Freestyle, Opening::None, TimeControl::None));
    for i in 0..5 {
        ops.push(send(0, place_at(3 + i, 7)));
        if i < 4 {
            ops.push(send(1, place_at(3 + i, 9)));
        }
    }
    ops
}

#[test]
fn a_scripted_game_is_won_with_five_and_a_rematch_starts() {
    let mut ops = five_for_black();
    // A retried stone for an old ply is acknowledged again; a stone after the end is refused.
    ops.push(Op::Send {
        conn: 0,
        msg: Msg::Place {
            room: ROOM,
            point: Spot::At(7, 7),
            ply: Ply::Offset(-1),
        },
        rid: true,
    });
    ops.push(send(1, place_at(0, 0)));
    ops.push(send(0, Msg::OfferRematch { room: ROOM }));
    ops.push(send(1, Msg::OfferRematch { room: ROOM }));
    ops.push(send(1, place_at(7, 7)));
    let report = run_script(&Script {
        tuning: Tuning::default(),
        ops,
    });
    assert_eq!(report.results.get("five"), Some(&1), "{report:?}");
    assert_eq!(report.longest_game, 9, "{report:?}");
    assert_eq!(report.games_started, 2, "{report:?}");
    assert_eq!(report.stones, 10, "{report:?}");
    assert_eq!(report.errors.get("game_over"), Some(&1), "{report:?}");
    assert!(report.store_checks >= 20, "{report:?}");
}

#[test]
fn a_scripted_swap_after_three_is_decided_and_taken_back_to() {
    let mut ops = seated(create(
        RuleSet::Renju,
        Opening::SwapAfterThree,
        TimeControl::None,
    ));
    // Whoever is to act places the next free point near the centre; the other is refused.
    for n in 0..3 {
        for conn in [0, 1] {
            ops.push(send(
                conn,
                Msg::Place {
                    room: ROOM,
                    point: Spot::Free(n),
                    ply: Ply::Next,
                },
            ));
        }
    }
    for conn in [0, 1] {
        ops.push(send(
            conn,
            Msg::DecideSwap {
                room: ROOM,
                swap: true,
            },
        ));
    }
    ops.push(send(
        0,
        Msg::Chat {
            room: ROOM,
            text: "swapped".into(),
        },
    ));
    let report = run_script(&Script {
        tuning: Tuning::default(),
        ops,
    });
    assert_eq!(report.stones, 3, "{report:?}");
    assert_eq!(report.swaps_decided, 1, "{report:?}");
}

#[test]
fn a_flag_falls_when_the_clock_runs_out() {
    let mut ops = seated(create(
        RuleSet::Freestyle,
        Opening::None,
        TimeControl::Fischer {
            base_ms: 1_000,
            increment_ms: 0,
        },
    ));
    ops.push(send(0, place_at(7, 7)));
    ops.push(Op::Advance { ms: 1_001 });
    ops.push(send(1, place_at(8, 8)));
    let report = run_script(&Script {
        tuning: Tuning::default(),
        ops,
    });
    assert_eq!(report.results.get("timeout"), Some(&1), "{report:?}");
    assert_eq!(report.stones, 1, "{report:?}");
}

/// Regression: a client that fell behind (its queue full, events dropped) and then made a request got the room's
/// resynchronising snapshot instead of its reply, without its `rid`, so it never learned its request was done.
#[test]
fn a_client_that_fell_behind_is_resynchronised_and_its_requests_still_answered() {
    let mut ops = seated(create(RuleSet::Freestyle, Opening::None, TimeControl::None));
    // The spectator stops reading; its queue of 6 fills up with moves.
    ops.push(Op::Pause { conn: 2 });
    for i in 0..5 {
        ops.push(send(0, place_at(i, 0)));
        ops.push(send(1, place_at(i, 2)));
    }
    // It reads again and chats at once: it gets a snapshot as the answer, with its rid, then its line.
    ops.push(send(
        2,
        Msg::Chat {
            room: ROOM,
            text: "sorry, I was away".into(),
        },
    ));
    ops.push(send(0, place_at(5, 0)));
    let report = run_script(&Script {
        tuning: Tuning {
            outbox_capacity: 6,
            ..Tuning::default()
        },
        ops,
    });
    assert!(report.resyncs >= 1, "{report:?}");
}
