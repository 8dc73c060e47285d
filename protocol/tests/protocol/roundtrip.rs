//! Every message survives encode → decode unchanged, and every bad frame gets the right typed error.

use std::collections::BTreeSet;

use protocol::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rules::{Color, ForbiddenKind, ForbiddenPolicy, Opening, Point, RuleSet};

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

fn seat(name: &str) -> Seat {
    Seat {
        id: format!("g{name}0123456789"),
        name: name.into(),
        guest: true,
        computer: None,
        engine: None,
        rating: Some(1500.0),
        provisional: Some(true),
        tier: Some("Unranked".into()),
        connected: true,
        grace_ms: None,
    }
}

fn clocks() -> Clocks {
    Clocks {
        black: SideClock {
            remaining_ms: 1000,
            periods: Some(3),
            byo_yomi: true,
            first_move_ms: None,
        },
        white: SideClock {
            remaining_ms: 2000,
            periods: None,
            byo_yomi: false,
            first_move_ms: None,
        },
        running: Some(Color::White),
    }
}

fn rules_spec() -> RulesSpec {
    RulesSpec {
        size: 15,
        rule_set: RuleSet::Renju,
        forbidden_policy: ForbiddenPolicy::Claim,
        opening: Opening::SwapAfterThreeFifthTwoOptions,
    }
}

fn lobby_room() -> LobbyRoom {
    LobbyRoom {
        id: "k3f9x2".into(),
        rules: Some(rules_spec()),
        game: None,
        time_control: TimeControl::Fischer {
            base_ms: 300_000,
            increment_ms: 5_000,
        },
        rated: false,
        state: RoomState::Playing,
        players: vec![LobbyPlayer {
            id: "g0a1b2c3d4e5f6a7b8c9d".into(),
            name: "guest-ab12".into(),
            colour: Color::Black,
            rating: None,
            tier: None,
            provisional: None,
            computer: Some(5),
            engine: None,
        }],
        spectators: 2,
        rating_range: Some(RatingRange {
            min: 1400,
            max: 1700,
        }),
    }
}

fn all_client_messages() -> Vec<ClientMessage> {
    use ClientMessage::*;
    let room = || "k3f9x2".to_string();
    vec![
        Hello {
            version: 1,
            token: Some("tok".into()),
        },
        Hello {
            version: 1,
            token: None,
        },
        CreateRoom {
            rules: Some(rules_spec()),
            game: None,
            time_control: TimeControl::ByoYomi {
                base_ms: 60_000,
                periods: 3,
                period_ms: 10_000,
            },
            rated: true,
            public: false,
            colour: ColourChoice::Random,
            rating_range: None,
        },
        Join {
            room: room(),
            role: JoinRole::Spectator,
            since: Some(7),
        },
        Leave { room: room() },
        Place {
            room: room(),
            point: p("h8"),
            ply: 1,
        },
        DecideSwap {
            room: room(),
            swap: true,
        },
        ProposeFifth {
            room: room(),
            points: [p("g9"), p("j10")],
        },
        ChooseFifth {
            room: room(),
            point: p("g9"),
        },
        ClaimForbidden { room: room() },
        Act {
            room: room(),
            action: "28x19x10".into(),
            at: 12,
        },
        CreateRoom {
            rules: None,
            game: Some(GameSpec::Othello(OthelloSpec {
                scoring: OthelloScoring::European,
            })),
            time_control: TimeControl::None,
            rated: false,
            public: true,
            colour: ColourChoice::White,
            rating_range: Some(RatingRange {
                min: 1200,
                max: 1800,
            }),
        },
        ShowSpectatorChat {
            room: room(),
            show: true,
        },
        ClaimWin { room: room() },
        PlayComputer {
            rules: None,
            game: Some(protocol::GameSpec::Gomoku(protocol::GomokuSpec {
                size: 15,
                rule_set: rules::RuleSet::Renju,
                forbidden_policy: rules::ForbiddenPolicy::Reject,
                opening: rules::Opening::None,
            })),
            time_control: TimeControl::None,
            public: true,
            colour: ColourChoice::Random,
            level: 1,
            engine: None,
        },
        InviteComputer {
            room: room(),
            level: 8,
            engine: Some("pbrain".into()),
        },
        SeekQuick {
            preset: "custom".into(),
            rules: None,
            game: Some(GameSpec::Othello(OthelloSpec {
                scoring: OthelloScoring::default(),
            })),
            time_control: Some(TimeControl::ByoYomi {
                base_ms: 0,
                periods: 3,
                period_ms: 30_000,
            }),
            rated: true,
        },
        CancelQuick {},
        Challenge {
            to: "bo".into(),
            rules: None,
            game: Some(GameSpec::Othello(OthelloSpec {
                scoring: OthelloScoring::default(),
            })),
            time_control: TimeControl::None,
            rated: true,
            colour: ColourChoice::White,
            games: Some(2),
        },
        AnswerChallenge {
            id: 9,
            accept: true,
            reason: None,
        },
        CancelChallenge { id: 9 },
        Resign { room: room() },
        OfferDraw { room: room() },
        AnswerDraw {
            room: room(),
            accept: false,
        },
        RequestTakeback { room: room() },
        AnswerTakeback {
            room: room(),
            accept: true,
        },
        OfferRematch { room: room() },
        AnswerRematch {
            room: room(),
            accept: true,
        },
        Chat {
            room: room(),
            text: "gg 好棋".into(),
        },
        SubscribeLobby {},
        UnsubscribeLobby {},
        Ping {},
    ]
}

fn all_events() -> Vec<RoomEvent> {
    use RoomEvent::*;
    vec![
        PlayerJoined {
            colour: Color::White,
            player: seat("guest-cd34"),
        },
        PlayerLeft {
            colour: Color::White,
            name: "guest-cd34".into(),
        },
        GameStarted {
            game_id: 12,
            record: Some("k3m9q2x7w4p8z6c5".into()),
            black: seat("a"),
            white: seat("b"),
            clocks: Some(clocks()),
            forbidden: vec![],
            to_act: Some(Color::Black),
            phase: RoomPhase::Place,
            unrated: Some("repeated_pairing".into()),
            view: None,
        },
        Move {
            colour: Color::Black,
            point: p("h8"),
            ply: 1,
            claimable: Some(ForbiddenKind::DoubleThree),
            to_act: Some(Color::White),
            phase: RoomPhase::Place,
            clocks: None,
            forbidden: vec![ForbiddenPoint {
                point: p("j9"),
                kind: ForbiddenKind::Overline,
            }],
        },
        Action {
            at: 1,
            by: Color::Black,
            action: "19-23".into(),
            change: GameChange::Draughts(DraughtsChanged {
                path: vec![19, 23],
                captured: vec![],
                crowned: false,
                ply: 2,
                counters: DrawCounters {
                    king_plies: 0,
                    endgame: Some(EndgameCount {
                        moves_each: 5,
                        played: 2,
                    }),
                    repetitions: 1,
                },
                legal: vec![LegalDraughtsMove {
                    notation: "28x19".into(),
                    path: vec![28, 19],
                    captured: vec![23],
                    crowned: false,
                }],
            }),
            to_act: Some(Color::White),
            phase: Some(GamePhase::new("move")),
            clocks: Some(clocks()),
        },
        SwapDecided {
            swapped: true,
            black: "b".into(),
            white: "a".into(),
            to_act: Some(Color::White),
            phase: RoomPhase::Place,
            clocks: Some(clocks()),
        },
        FifthProposed {
            points: [p("g9"), p("j10")],
            to_act: Some(Color::White),
            phase: RoomPhase::ChooseFifth,
            clocks: None,
        },
        TakenBack {
            ply: 2,
            moves: vec![p("h8"), p("h9")],
            to_act: Some(Color::Black),
            phase: RoomPhase::Place,
            clocks: None,
            forbidden: vec![],
        },
        Offered {
            offer: OfferKind::Draw,
            by: Color::Black,
        },
        OfferAnswered {
            offer: OfferKind::Takeback,
            by: Color::White,
            accept: false,
        },
        PlayerDisconnected {
            colour: Color::Black,
            name: "a".into(),
            grace_ms: 60_000,
        },
        PlayerReconnected {
            colour: Color::Black,
            name: "a".into(),
        },
        Spectators { count: 3 },
        Chat {
            from: "a".into(),
            spectator: false,
            text: "hi".into(),
            line: Some(7),
        },
        ChatRemoved { line: 7 },
        GameOver {
            result: GameResult {
                winner: Some(Color::Black),
                winner_name: Some("a".into()),
                reason: "five".into(),
                line: Some(vec![p("h8"), p("h9"), p("h10"), p("h11"), p("h12")]),
                forbidden: None,
                ratings: Some(vec![RatingDelta {
                    name: "a".into(),
                    before: 1500.0,
                    after: 1662.5,
                    tier: Some("Advanced".into()),
                    provisional: Some(false),
                }]),
                unrated: None,
                detail: None,
            },
            clocks: Some(clocks()),
        },
        GameOver {
            result: GameResult {
                winner: None,
                winner_name: None,
                reason: "aborted".into(),
                line: None,
                forbidden: None,
                ratings: None,
                unrated: Some("too_few_moves".into()),
                detail: None,
            },
            clocks: None,
        },
        RoomClosed {
            reason: "expired".into(),
        },
    ]
}

fn snapshot() -> RoomSnapshot {
    RoomSnapshot {
        id: "k3f9x2".into(),
        version: 9,
        rules: Some(rules_spec()),
        game: None,
        time_control: TimeControl::None,
        rated: false,
        public: true,
        game_id: Some(4),
        record: Some("k3m9q2x7w4p8z6c5".into()),
        state: RoomState::Playing,
        seats: Seats {
            black: Some(seat("a")),
            white: Some(Seat {
                connected: false,
                grace_ms: Some(41_000),
                ..seat("b")
            }),
        },
        you: Some(Color::Black),
        phase: RoomPhase::ChooseFifth,
        to_act: Some(Color::White),
        moves: vec![p("h8"), p("h9"), p("j9"), p("g10")],
        swapped: true,
        clocks: Some(clocks()),
        forbidden: vec![],
        claimable: None,
        idle_claim_ms: None,
        claim_win_in_ms: None,
        fifth_options: Some([p("g9"), p("j10")]),
        offers: vec![OfferState {
            kind: OfferKind::Draw,
            by: Color::White,
        }],
        spectators: 1,
        result: None,
        chat: vec![
            ChatLine {
                from: "a".into(),
                text: "gl hf".into(),
                spectator: false,
                line: Some(4),
            },
            ChatLine {
                from: "guest-s1x9".into(),
                text: "nice fifth".into(),
                spectator: true,
                line: None,
            },
        ],
        view: None,
        match_id: Some(3),
    }
}

fn all_server_messages() -> Vec<ServerMessage> {
    use ServerMessage::*;
    let mut v = vec![
        Welcome {
            you: You {
                id: "g0a1b2c3d4e5f6a7b8c9d".into(),
                name: "guest-ab12".into(),
                guest: true,
            },
            token: "tok".into(),
            server_version: "0.1.0".into(),
        },
        Lobby {
            rooms: vec![lobby_room()],
            online: 3,
            total: Some(250),
        },
        LobbyOnline { online: 4 },
        LobbyRoom { room: lobby_room() },
        LobbyRoomRemoved {
            id: "k3f9x2".into(),
        },
        Room { room: snapshot() },
        CatchUp {
            room: "k3f9x2".into(),
            events: vec![VersionedEvent {
                version: 3,
                event: RoomEvent::Spectators { count: 1 },
            }],
        },
        Ack {
            room: Some("k3f9x2".into()),
            version: Some(3),
        },
        ServerMessage::error("stale_ply", "that ply was already played"),
        Pong {},
        SpectatorChat {
            room: "k3f9x2".into(),
            from: "guest-ab12".into(),
            text: "nice move".into(),
            line: Some(9),
        },
        FriendPlaying {
            player: "a".into(),
            room: "k3f9x2".into(),
            opponent: String::new(),
        },
        Paired {
            room: "k3f9x2".into(),
            preset: "freestyle-3+2".into(),
            colour: rules::Color::Black,
            opponent: "guest-ab12".into(),
        },
        ServerMessage::Challenge {
            challenge: ChallengeView {
                id: 9,
                from: "guest-ab12".into(),
                from_guest: true,
                to: "bo".into(),
                rules: None,
                game: None,
                time_control: TimeControl::None,
                rated: false,
                colour: ColourChoice::Random,
                games: Some(4),
                expires_in_ms: 1,
            },
        },
        ChallengeClosed {
            id: 9,
            reason: "declined".into(),
            decline: Some("rated".into()),
            room: None,
        },
        QuickCounts {
            presets: vec![QuickCount {
                preset: "custom".into(),
                waiting: 0,
                playing: 1,
            }],
        },
    ];
    for (i, event) in all_events().into_iter().enumerate() {
        v.push(Event {
            room: "k3f9x2".into(),
            version: i as u64 + 1,
            event,
        });
    }
    v
}

fn tag(text: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    v["t"].as_str().unwrap().to_owned()
}

#[test]
fn every_client_message_round_trips_with_and_without_rid() {
    for msg in all_client_messages() {
        for rid in [None, Some(42)] {
            let text = encode(&msg, rid);
            let back = decode::<ClientMessage>(&text, DEFAULT_MAX_FRAME).unwrap();
            assert_eq!(
                back,
                Frame {
                    rid,
                    msg: msg.clone()
                },
                "{text}"
            );
        }
    }
}

#[test]
fn every_server_message_round_trips_with_and_without_rid() {
    for msg in all_server_messages() {
        for rid in [None, Some(7)] {
            let text = encode(&msg, rid);
            let back = decode::<ServerMessage>(&text, usize::MAX).unwrap();
            assert_eq!(
                back,
                Frame {
                    rid,
                    msg: msg.clone()
                },
                "{text}"
            );
        }
    }
}

#[test]
fn the_type_lists_name_exactly_the_variants() {
    let client: BTreeSet<String> = all_client_messages()
        .iter()
        .map(|m| tag(&encode(m, None)))
        .collect();
    let listed: BTreeSet<String> = ClientMessage::TYPES.iter().map(|s| s.to_string()).collect();
    assert_eq!(client, listed);
    let server: BTreeSet<String> = all_server_messages()
        .iter()
        .map(|m| tag(&encode(m, None)))
        .collect();
    let listed: BTreeSet<String> = ServerMessage::TYPES.iter().map(|s| s.to_string()).collect();
    assert_eq!(server, listed);
}

#[test]
fn defaults_make_short_messages_valid() {
    let f = decode::<ClientMessage>(
        r#"{"t":"create_room","rules":{"rule_set":"freestyle"}}"#,
        1000,
    )
    .unwrap();
    assert_eq!(
        f.msg,
        ClientMessage::CreateRoom {
            rules: Some(RulesSpec {
                size: 15,
                rule_set: RuleSet::Freestyle,
                forbidden_policy: ForbiddenPolicy::Reject,
                opening: Opening::None
            }),
            game: None,
            time_control: TimeControl::None,
            rated: false,
            public: true,
            colour: ColourChoice::Black,
            rating_range: None,
        }
    );
    // Issue #36: a game against the computer is public unless made private on purpose, as every game is.
    let f = decode::<ClientMessage>(
        r#"{"t":"play_computer","rules":{"rule_set":"freestyle"},"level":2}"#,
        1000,
    )
    .unwrap();
    assert!(
        matches!(f.msg, ClientMessage::PlayComputer { public: true, .. }),
        "{f:?}"
    );
    let f = decode::<ClientMessage>(r#"{"t":"join","room":"x","rid":3}"#, 1000).unwrap();
    assert_eq!(f.rid, Some(3));
    assert_eq!(
        f.msg,
        ClientMessage::Join {
            room: "x".into(),
            role: JoinRole::Player,
            since: None
        }
    );
}

#[test]
fn a_welcome_and_a_seat_without_ids_from_an_older_server_still_read() {
    let f = decode::<ServerMessage>(
        r#"{"t":"welcome","you":{"name":"guest-ab12","guest":true},"token":"t","server_version":"0.1.0"}"#,
        1000,
    )
    .unwrap();
    assert!(
        matches!(&f.msg, ServerMessage::Welcome { you, .. } if you.id.is_empty() && you.name == "guest-ab12"),
        "{f:?}"
    );
    let seat: Seat =
        serde_json::from_str(r#"{"name":"guest-ab12","guest":true,"connected":true}"#).unwrap();
    assert_eq!(seat.id, "");
}

#[test]
fn game_started_and_fifth_proposed_from_an_older_server_still_read() {
    let started: RoomEvent = serde_json::from_str(
        r#"{"kind":"game_started","game_id":1,"black":{"name":"a","guest":true,"connected":true},"white":{"name":"b","guest":true,"connected":true},"clocks":null,"forbidden":[]}"#,
    )
    .unwrap();
    assert!(matches!(
        started,
        RoomEvent::GameStarted {
            to_act: None,
            phase: RoomPhase::None,
            ..
        }
    ));
    let proposed: RoomEvent =
        serde_json::from_str(r#"{"kind":"fifth_proposed","points":["g9","j10"],"clocks":null}"#)
            .unwrap();
    assert!(matches!(
        proposed,
        RoomEvent::FifthProposed { to_act: None, .. }
    ));
}

fn code_of(text: &str) -> (&'static str, Option<u64>) {
    let e = decode::<ClientMessage>(text, 64).unwrap_err();
    (e.code(), e.rid)
}

#[test]
fn malformed_json_is_bad_json() {
    assert_eq!(code_of(r#"{"t":"ping""#), ("bad_json", None));
    assert_eq!(code_of("[1,2]"), ("bad_json", None));
    assert_eq!(code_of("\"ping\""), ("bad_json", None));
}

#[test]
fn deep_nesting_is_bad_json_not_a_crash() {
    let deep = "[".repeat(10_000);
    let e = decode::<ClientMessage>(&deep, usize::MAX).unwrap_err();
    assert_eq!(e.code(), "bad_json");
}

#[test]
fn an_unknown_or_missing_type_is_unknown_type_and_keeps_the_rid() {
    assert_eq!(
        code_of(r#"{"t":"teleport","rid":5}"#),
        ("unknown_type", Some(5))
    );
    assert_eq!(code_of(r#"{"rid":6}"#), ("unknown_type", Some(6)));
    assert_eq!(code_of(r#"{"t":3}"#), ("unknown_type", None));
}

#[test]
fn a_wrong_field_type_is_invalid_field() {
    assert_eq!(
        code_of(r#"{"t":"place","room":"x","point":"h8","ply":"one","rid":1}"#),
        ("invalid_field", Some(1))
    );
    assert_eq!(
        code_of(r#"{"t":"place","room":"x","point":"z99","ply":1}"#).0,
        "invalid_field"
    );
    assert_eq!(
        code_of(r#"{"t":"place","room":"x","point":"h8","ply":1e400}"#).0,
        "bad_json"
    );
    assert_eq!(
        code_of(r#"{"t":"place","room":"x","point":"h8","ply":99999999999}"#).0,
        "invalid_field"
    );
    assert_eq!(code_of(r#"{"t":"ping","rid":-1}"#).0, "invalid_field");
}

#[test]
fn an_oversize_frame_is_too_large() {
    let text = format!(r#"{{"t":"chat","room":"x","text":"{}"}}"#, "a".repeat(100));
    let e = decode::<ClientMessage>(&text, 64).unwrap_err();
    assert_eq!(e.code(), "too_large");
    assert!(matches!(e.kind, DecodeErrorKind::TooLarge { max: 64, .. }));
}

#[test]
fn messages_name_their_room() {
    for m in all_client_messages() {
        let has_room = serde_json::to_value(&m).unwrap().get("room").is_some();
        assert_eq!(m.room().is_some(), has_room, "{m:?}");
    }
}

/// `move` events as play sends them: with and without clocks, a claim, a next player.
fn move_events() -> Vec<ServerMessage> {
    let moved = |clocks: Option<Clocks>, claimable, to_act, forbidden| ServerMessage::Event {
        room: "r7xk2p".into(),
        version: 12,
        event: RoomEvent::Move {
            colour: Color::White,
            point: p("o15"),
            ply: 40,
            claimable,
            to_act,
            phase: RoomPhase::Place,
            clocks,
            forbidden,
        },
    };
    vec![
        moved(Some(clocks()), None, Some(Color::Black), vec![]),
        moved(None, None, None, vec![]),
        moved(
            None,
            Some(ForbiddenKind::DoubleFour),
            Some(Color::White),
            vec![ForbiddenPoint {
                point: p("a1"),
                kind: ForbiddenKind::DoubleThree,
            }],
        ),
    ]
}

#[test]
fn move_events_take_the_hot_path_and_read_as_the_derive_does() {
    for (i, msg) in move_events().into_iter().enumerate() {
        let text = encode(&msg, (i == 0).then_some(7));
        let hot = ServerMessage::decode_hot(&text).map(|f| (f.rid, f.msg));
        assert_eq!(hot, Some(((i == 0).then_some(7), msg.clone())), "{text}");
        let frame = decode::<ServerMessage>(&text, usize::MAX).unwrap();
        assert_eq!(frame, decode_checked::<ServerMessage>(&text).unwrap());
        assert_eq!(frame.msg, msg);
        // A field the hot path does not know sends the frame the derive's way, which skips it.
        let extra = text.replacen('{', r#"{"extra":[1,{"a":2}],"#, 1);
        assert_eq!(ServerMessage::decode_hot(&extra), None, "{extra}");
        assert_eq!(
            decode::<ServerMessage>(&extra, usize::MAX).unwrap().msg,
            msg
        );
    }
    // Not a move: no hot path.
    let chat = encode(&all_server_messages().pop().unwrap(), None);
    assert_eq!(ServerMessage::decode_hot(&chat), None, "{chat}");
}

/// Mutates frames from a seeded generator, so the mutations below are the same on every run.
struct Mutator(StdRng);

impl Mutator {
    fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }

    /// One edit of the kind a hostile client makes: a character replaced, dropped or doubled, a cut, a key
    /// repeated, or the `rid` given another type.
    fn mutate(&mut self, text: &str) -> String {
        const PIECES: &[&str] = &[
            "\"",
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "null",
            "-1",
            "1e400",
            "\"rid\":",
            "\"t\":\"ping\",",
            "\\u0061",
            "18446744073709551616",
            " ",
        ];
        let chars: Vec<char> = text.chars().collect();
        let at = self.below(chars.len() + 1);
        let mut out: String = chars[..at].iter().collect();
        let rest: String = chars[at..].iter().collect();
        match self.below(6) {
            0 => out.push_str(PIECES[self.below(PIECES.len())]),
            1 => {
                out.push_str(PIECES[self.below(PIECES.len())]);
                out.push_str(rest.get(1..).unwrap_or(""));
                return out;
            }
            2 => return out,
            3 => {
                let piece = PIECES[self.below(PIECES.len())];
                return format!("{{\"rid\":{piece}{}", text.get(1..).unwrap_or(""));
            }
            4 => return text.replacen("{", "{\"t\":\"place\",", 1),
            _ => out.push_str(&rest.chars().take(1).collect::<String>()),
        }
        out.push_str(&rest);
        out
    }
}

#[test]
fn the_decoder_answers_every_mutated_frame_as_the_step_by_step_reading_does() {
    let mut texts: Vec<String> = Vec::new();
    for (i, msg) in all_client_messages().iter().enumerate() {
        texts.push(encode(msg, Some(i as u64)));
    }
    for (i, msg) in all_server_messages().iter().enumerate() {
        texts.push(encode(msg, (i % 2 == 0).then_some(i as u64)));
    }
    // The move events the hot path reads, as play sends them.
    for (i, msg) in move_events().iter().enumerate() {
        texts.push(encode(msg, (i % 2 == 1).then_some(i as u64)));
    }
    let mut m = Mutator(StdRng::seed_from_u64(0x9E37_79B9_7F4A_7C15));
    let mut accepted = 0;
    for round in 0..20_000 {
        let base = &texts[round % texts.len()];
        let mut text = m.mutate(base);
        if round % 3 == 0 {
            text = m.mutate(&text);
        }
        let client = decode::<ClientMessage>(&text, usize::MAX);
        assert_eq!(client, decode_checked::<ClientMessage>(&text), "{text}");
        let server = decode::<ServerMessage>(&text, usize::MAX);
        assert_eq!(server, decode_checked::<ServerMessage>(&text), "{text}");
        accepted += usize::from(client.is_ok() || server.is_ok());
    }
    // Both kinds of answer were compared: frames that still decode and frames that are refused.
    assert!(
        accepted > 1_000 && accepted < 19_000,
        "{accepted} of 20,000 decoded"
    );
}

#[test]
fn a_first_move_allowance_is_on_the_wire_only_while_it_lasts() {
    let waiting = SideClock {
        remaining_ms: 60_000,
        periods: None,
        byo_yomi: false,
        first_move_ms: Some(12_500),
    };
    let text = serde_json::to_string(&waiting).unwrap();
    assert_eq!(text, r#"{"remaining_ms":60000,"first_move_ms":12500}"#);
    assert_eq!(serde_json::from_str::<SideClock>(&text).unwrap(), waiting);
    let moved = SideClock {
        first_move_ms: None,
        ..waiting
    };
    assert_eq!(
        serde_json::to_string(&moved).unwrap(),
        r#"{"remaining_ms":60000}"#
    );
}
