//! The exact wire text of every client and server message kind and of the `rules` types inside them, as literal
//! strings: each value encodes to its text and the text decodes to the value. A rename in `rules` or here that
//! would change a frame fails one of these with the message kind in its name. (The stored texts are pinned by
//! `games/tests/games/storage.rs`.) The enums are listed through exhaustive matches, so a new variant does not compile
//! until its text is pinned here too.

use std::collections::BTreeSet;
use std::fmt::Debug;

use protocol::*;
use rules::{Action, Color, ForbiddenKind, ForbiddenPolicy, Opening, Point, RuleSet};
use serde::de::DeserializeOwned;
use serde::Serialize;

fn p(s: &str) -> Point {
    s.parse().expect("a point")
}

/// A whole frame: `msg` with `rid` encodes to exactly `text`, and `text` decodes to exactly them.
#[track_caller]
fn frame<M>(msg: M, rid: Option<u64>, text: &str) -> String
where
    M: Serialize + DeserializeOwned + Tagged + PartialEq + Debug + Clone,
{
    let encoded = encode(&msg, rid);
    assert_eq!(encoded, text, "the wire text of {msg:?} changed");
    let back = decode::<M>(text, usize::MAX)
        .unwrap_or_else(|e| panic!("the pinned text {text} no longer decodes: {e:?}"));
    assert_eq!(
        back,
        Frame { rid, msg },
        "the pinned text {text} decodes to another value"
    );
    encoded
}

/// A value inside messages: it serialises to exactly `text` and `text` deserialises to it.
#[track_caller]
fn value<T: Serialize + DeserializeOwned + PartialEq + Debug>(v: T, text: &str) {
    let encoded = serde_json::to_string(&v).expect("serialises");
    assert_eq!(encoded, text, "the wire text of {v:?} changed");
    let back: T = serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("the pinned text {text} no longer reads: {e}"));
    assert_eq!(back, v, "the pinned text {text} reads as another value");
}

/// The `"t"` of an encoded frame.
fn tag(text: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(text).expect("json");
    v["t"].as_str().expect("a tag").to_owned()
}

fn spec() -> RulesSpec {
    RulesSpec {
        size: 15,
        rule_set: RuleSet::Renju,
        forbidden_policy: ForbiddenPolicy::Claim,
        opening: Opening::SwapAfterThreeFifthTwoOptions,
    }
}

fn seat() -> Seat {
    Seat {
        id: "g1".into(),
        name: "ann".into(),
        guest: true,
        computer: None,
        engine: None,
        rating: Some(1500.0),
        provisional: Some(true),
        tier: Some("Bronze".into()),
        connected: false,
        grace_ms: Some(30_000),
    }
}

fn bare_seat() -> Seat {
    Seat {
        id: "u2".into(),
        name: "bob".into(),
        guest: false,
        computer: None,
        engine: None,
        rating: None,
        provisional: None,
        tier: None,
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

fn forbidden() -> ForbiddenPoint {
    ForbiddenPoint {
        point: p("g9"),
        kind: ForbiddenKind::DoubleThree,
    }
}

fn lobby_room() -> LobbyRoom {
    LobbyRoom {
        id: "r1".into(),
        rules: Some(spec()),
        game: None,
        time_control: TimeControl::Fischer {
            base_ms: 300_000,
            increment_ms: 5_000,
        },
        rated: true,
        state: RoomState::Waiting,
        players: vec![LobbyPlayer {
            id: "g1".into(),
            name: "ann".into(),
            colour: Color::Black,
            rating: Some(1500.0),
            tier: Some("Bronze".into()),
            provisional: Some(true),
            computer: None,
            engine: None,
        }],
        spectators: 0,
        rating_range: None,
    }
}

fn result() -> GameResult {
    GameResult {
        winner: Some(Color::Black),
        winner_name: Some("ann".into()),
        reason: "five".into(),
        line: Some(vec![p("h8"), p("h9"), p("h10"), p("h11"), p("h12")]),
        forbidden: Some(forbidden()),
        ratings: Some(vec![RatingDelta {
            name: "ann".into(),
            before: 1500.0,
            after: 1520.5,
            tier: Some("Silver".into()),
            provisional: Some(false),
        }]),
        unrated: Some("repeated_pairing".into()),
        detail: None,
    }
}

fn snapshot() -> RoomSnapshot {
    RoomSnapshot {
        id: "r1".into(),
        version: 9,
        rules: Some(spec()),
        game: None,
        time_control: TimeControl::ByoYomi {
            base_ms: 60_000,
            periods: 3,
            period_ms: 10_000,
        },
        rated: false,
        public: true,
        game_id: Some(4),
        record: Some("AbC123".into()),
        state: RoomState::Playing,
        seats: Seats {
            black: Some(bare_seat()),
            white: None,
        },
        you: Some(Color::Black),
        phase: RoomPhase::ChooseFifth,
        to_act: Some(Color::White),
        moves: vec![p("h8"), p("h9"), p("j10"), p("g7")],
        swapped: true,
        clocks: Some(clocks()),
        forbidden: vec![forbidden()],
        claimable: Some(forbidden()),
        idle_claim_ms: None,
        claim_win_in_ms: None,
        fifth_options: Some([p("a1"), p("o15")]),
        offers: vec![OfferState {
            kind: OfferKind::Draw,
            by: Color::White,
        }],
        spectators: 2,
        result: None,
        chat: vec![ChatLine {
            from: "ann".into(),
            text: "hi".into(),
            spectator: true,
            line: None,
        }],
        view: None,
        match_id: None,
    }
}

/// Every client message kind's tag, by an exhaustive match: a new kind does not compile until it is listed.
fn client_kind(m: &ClientMessage) -> &'static str {
    use ClientMessage::*;
    match m {
        Hello { .. } => "hello",
        CreateRoom { .. } => "create_room",
        Join { .. } => "join",
        Leave { .. } => "leave",
        Place { .. } => "place",
        DecideSwap { .. } => "decide_swap",
        ProposeFifth { .. } => "propose_fifth",
        ChooseFifth { .. } => "choose_fifth",
        ClaimForbidden { .. } => "claim_forbidden",
        Act { .. } => "act",
        Resign { .. } => "resign",
        OfferDraw { .. } => "offer_draw",
        AnswerDraw { .. } => "answer_draw",
        RequestTakeback { .. } => "request_takeback",
        AnswerTakeback { .. } => "answer_takeback",
        OfferRematch { .. } => "offer_rematch",
        AnswerRematch { .. } => "answer_rematch",
        Chat { .. } => "chat",
        ShowSpectatorChat { .. } => "show_spectator_chat",
        ClaimWin { .. } => "claim_win",
        PlayComputer { .. } => "play_computer",
        InviteComputer { .. } => "invite_computer",
        SeekQuick { .. } => "seek_quick",
        CancelQuick {} => "cancel_quick",
        Challenge { .. } => "challenge",
        AnswerChallenge { .. } => "answer_challenge",
        CancelChallenge { .. } => "cancel_challenge",
        SubscribeLobby {} => "subscribe_lobby",
        UnsubscribeLobby {} => "unsubscribe_lobby",
        Ping {} => "ping",
    }
}

#[test]
fn every_client_message_kind_has_its_exact_wire_text() {
    use ClientMessage::*;
    let r = || "r1".to_string();
    let cases: Vec<(ClientMessage, Option<u64>, &str)> = vec![
        (
            Hello {
                version: 1,
                token: Some("tok".into()),
            },
            Some(1),
            r#"{"rid":1,"t":"hello","version":1,"token":"tok"}"#,
        ),
        (
            Hello {
                version: 1,
                token: None,
            },
            None,
            r#"{"t":"hello","version":1}"#,
        ),
        (
            CreateRoom {
                rules: Some(spec()),
                game: None,
                time_control: TimeControl::None,
                rated: true,
                public: false,
                colour: ColourChoice::Random,
                rating_range: None,
            },
            Some(2),
            r#"{"rid":2,"t":"create_room","rules":{"size":15,"rule_set":"renju","forbidden_policy":"claim","opening":"swap_after_three_fifth_two_options"},"time_control":{"kind":"none"},"rated":true,"public":false,"colour":"random"}"#,
        ),
        (
            Join {
                room: r(),
                role: JoinRole::Spectator,
                since: Some(7),
            },
            Some(3),
            r#"{"rid":3,"t":"join","room":"r1","as":"spectator","since":7}"#,
        ),
        (
            Join {
                room: r(),
                role: JoinRole::Player,
                since: None,
            },
            None,
            r#"{"t":"join","room":"r1","as":"player"}"#,
        ),
        (Leave { room: r() }, None, r#"{"t":"leave","room":"r1"}"#),
        (
            Place {
                room: r(),
                point: p("h8"),
                ply: 1,
            },
            Some(4),
            r#"{"rid":4,"t":"place","room":"r1","point":"h8","ply":1}"#,
        ),
        (
            DecideSwap {
                room: r(),
                swap: true,
            },
            None,
            r#"{"t":"decide_swap","room":"r1","swap":true}"#,
        ),
        (
            ProposeFifth {
                room: r(),
                points: [p("g9"), p("j10")],
            },
            None,
            r#"{"t":"propose_fifth","room":"r1","points":["g9","j10"]}"#,
        ),
        (
            ChooseFifth {
                room: r(),
                point: p("g9"),
            },
            None,
            r#"{"t":"choose_fifth","room":"r1","point":"g9"}"#,
        ),
        (
            ClaimForbidden { room: r() },
            None,
            r#"{"t":"claim_forbidden","room":"r1"}"#,
        ),
        (
            Act {
                room: r(),
                action: "f5".into(),
                at: 4,
            },
            Some(6),
            r#"{"rid":6,"t":"act","room":"r1","action":"f5","at":4}"#,
        ),
        (Resign { room: r() }, None, r#"{"t":"resign","room":"r1"}"#),
        (
            OfferDraw { room: r() },
            None,
            r#"{"t":"offer_draw","room":"r1"}"#,
        ),
        (
            AnswerDraw {
                room: r(),
                accept: true,
            },
            None,
            r#"{"t":"answer_draw","room":"r1","accept":true}"#,
        ),
        (
            RequestTakeback { room: r() },
            None,
            r#"{"t":"request_takeback","room":"r1"}"#,
        ),
        (
            AnswerTakeback {
                room: r(),
                accept: false,
            },
            None,
            r#"{"t":"answer_takeback","room":"r1","accept":false}"#,
        ),
        (
            OfferRematch { room: r() },
            None,
            r#"{"t":"offer_rematch","room":"r1"}"#,
        ),
        (
            AnswerRematch {
                room: r(),
                accept: true,
            },
            None,
            r#"{"t":"answer_rematch","room":"r1","accept":true}"#,
        ),
        (
            Chat {
                room: r(),
                text: "gg \"well\" played".into(),
            },
            None,
            r#"{"t":"chat","room":"r1","text":"gg \"well\" played"}"#,
        ),
        (
            ShowSpectatorChat {
                room: r(),
                show: true,
            },
            None,
            r#"{"t":"show_spectator_chat","room":"r1","show":true}"#,
        ),
        (
            ClaimWin { room: r() },
            None,
            r#"{"t":"claim_win","room":"r1"}"#,
        ),
        (
            PlayComputer {
                rules: Some(spec()),
                game: None,
                time_control: TimeControl::None,
                public: false,
                colour: ColourChoice::White,
                level: 3,
                engine: None,
            },
            Some(6),
            r#"{"rid":6,"t":"play_computer","rules":{"size":15,"rule_set":"renju","forbidden_policy":"claim","opening":"swap_after_three_fifth_two_options"},"time_control":{"kind":"none"},"public":false,"colour":"white","level":3}"#,
        ),
        (
            InviteComputer {
                room: r(),
                level: 8,
                engine: None,
            },
            None,
            r#"{"t":"invite_computer","room":"r1","level":8}"#,
        ),
        (
            SeekQuick {
                preset: "renju-5+3".into(),
                rules: None,
                game: None,
                time_control: None,
                rated: true,
            },
            Some(8),
            r#"{"rid":8,"t":"seek_quick","preset":"renju-5+3","rated":true}"#,
        ),
        (
            SeekQuick {
                preset: "custom".into(),
                rules: Some(RulesSpec {
                    size: 15,
                    rule_set: RuleSet::Freestyle,
                    forbidden_policy: ForbiddenPolicy::Reject,
                    opening: Opening::None,
                }),
                game: None,
                time_control: Some(TimeControl::Fischer {
                    base_ms: 60000,
                    increment_ms: 1000,
                }),
                rated: false,
            },
            Some(9),
            r#"{"rid":9,"t":"seek_quick","preset":"custom","rules":{"size":15,"rule_set":"freestyle","forbidden_policy":"reject","opening":"none"},"time_control":{"kind":"fischer","base_ms":60000,"increment_ms":1000},"rated":false}"#,
        ),
        (CancelQuick {}, Some(10), r#"{"rid":10,"t":"cancel_quick"}"#),
        (
            Challenge {
                to: "bo".into(),
                rules: Some(RulesSpec {
                    size: 15,
                    rule_set: RuleSet::Renju,
                    forbidden_policy: ForbiddenPolicy::Reject,
                    opening: Opening::None,
                }),
                game: None,
                time_control: TimeControl::None,
                rated: false,
                colour: ColourChoice::Random,
                games: None,
            },
            Some(11),
            r#"{"rid":11,"t":"challenge","to":"bo","rules":{"size":15,"rule_set":"renju","forbidden_policy":"reject","opening":"none"},"time_control":{"kind":"none"},"rated":false,"colour":"random"}"#,
        ),
        (
            AnswerChallenge {
                id: 4,
                accept: false,
                reason: Some("later".into()),
            },
            Some(12),
            r#"{"rid":12,"t":"answer_challenge","id":4,"accept":false,"reason":"later"}"#,
        ),
        (
            CancelChallenge { id: 4 },
            None,
            r#"{"t":"cancel_challenge","id":4}"#,
        ),
        (
            SubscribeLobby {},
            Some(5),
            r#"{"rid":5,"t":"subscribe_lobby"}"#,
        ),
        (UnsubscribeLobby {}, None, r#"{"t":"unsubscribe_lobby"}"#),
        (
            Ping {},
            Some(u64::MAX),
            r#"{"rid":18446744073709551615,"t":"ping"}"#,
        ),
    ];
    let mut seen = BTreeSet::new();
    for (msg, rid, text) in cases {
        let kind = client_kind(&msg);
        let encoded = frame(msg, rid, text);
        assert_eq!(tag(&encoded), kind);
        seen.insert(kind);
    }
    let all: BTreeSet<&str> = <ClientMessage as Tagged>::TYPES.iter().copied().collect();
    assert_eq!(seen, all, "every client message kind is pinned");
}

/// Every server message kind's tag, by an exhaustive match.
fn server_kind(m: &ServerMessage) -> &'static str {
    use ServerMessage::*;
    match m {
        Welcome { .. } => "welcome",
        Lobby { .. } => "lobby",
        LobbyOnline { .. } => "lobby_online",
        LobbyRoom { .. } => "lobby_room",
        LobbyRoomRemoved { .. } => "lobby_room_removed",
        Room { .. } => "room",
        CatchUp { .. } => "catch_up",
        Event { .. } => "event",
        Ack { .. } => "ack",
        Error { .. } => "error",
        Pong {} => "pong",
        SpectatorChat { .. } => "spectator_chat",
        FriendPlaying { .. } => "friend_playing",
        Paired { .. } => "paired",
        QuickCounts { .. } => "quick_counts",
        Challenge { .. } => "challenge",
        ChallengeClosed { .. } => "challenge_closed",
    }
}

#[test]
fn every_server_message_kind_has_its_exact_wire_text() {
    use ServerMessage::*;
    let cases: Vec<(ServerMessage, Option<u64>, &str)> = vec![
        (
            Welcome {
                you: You {
                    id: "g1".into(),
                    name: "ann".into(),
                    guest: true,
                },
                token: "tok".into(),
                server_version: "0.1.0".into(),
            },
            Some(1),
            r#"{"rid":1,"t":"welcome","you":{"id":"g1","name":"ann","guest":true},"token":"tok","server_version":"0.1.0"}"#,
        ),
        (
            Lobby {
                rooms: vec![lobby_room()],
                online: 3,
                total: Some(40),
            },
            None,
            r#"{"t":"lobby","rooms":[{"id":"r1","rules":{"size":15,"rule_set":"renju","forbidden_policy":"claim","opening":"swap_after_three_fifth_two_options"},"time_control":{"kind":"fischer","base_ms":300000,"increment_ms":5000},"rated":true,"state":"waiting","players":[{"id":"g1","name":"ann","colour":"black","rating":1500.0,"tier":"Bronze","provisional":true}],"spectators":0}],"online":3,"total":40}"#,
        ),
        (
            Lobby {
                rooms: vec![],
                online: 0,
                total: None,
            },
            None,
            r#"{"t":"lobby","rooms":[],"online":0}"#,
        ),
        (
            LobbyOnline { online: 12 },
            None,
            r#"{"t":"lobby_online","online":12}"#,
        ),
        (
            LobbyRoom { room: lobby_room() },
            None,
            r#"{"t":"lobby_room","room":{"id":"r1","rules":{"size":15,"rule_set":"renju","forbidden_policy":"claim","opening":"swap_after_three_fifth_two_options"},"time_control":{"kind":"fischer","base_ms":300000,"increment_ms":5000},"rated":true,"state":"waiting","players":[{"id":"g1","name":"ann","colour":"black","rating":1500.0,"tier":"Bronze","provisional":true}],"spectators":0}}"#,
        ),
        (
            LobbyRoomRemoved { id: "r1".into() },
            None,
            r#"{"t":"lobby_room_removed","id":"r1"}"#,
        ),
        (
            Room { room: snapshot() },
            Some(2),
            r#"{"rid":2,"t":"room","room":{"id":"r1","version":9,"rules":{"size":15,"rule_set":"renju","forbidden_policy":"claim","opening":"swap_after_three_fifth_two_options"},"time_control":{"kind":"byo_yomi","base_ms":60000,"periods":3,"period_ms":10000},"rated":false,"public":true,"game_id":4,"record":"AbC123","state":"playing","seats":{"black":{"id":"u2","name":"bob","guest":false,"connected":true},"white":null},"you":"black","phase":"choose_fifth","to_act":"white","moves":["h8","h9","j10","g7"],"swapped":true,"clocks":{"black":{"remaining_ms":1000,"periods":3,"byo_yomi":true},"white":{"remaining_ms":2000},"running":"white"},"forbidden":[{"point":"g9","kind":"double_three"}],"claimable":{"point":"g9","kind":"double_three"},"fifth_options":["a1","o15"],"offers":[{"kind":"draw","by":"white"}],"spectators":2,"result":null,"chat":[{"from":"ann","text":"hi","spectator":true}]}}"#,
        ),
        (
            CatchUp {
                room: "r1".into(),
                events: vec![VersionedEvent {
                    version: 8,
                    event: RoomEvent::Spectators { count: 1 },
                }],
            },
            Some(3),
            r#"{"rid":3,"t":"catch_up","room":"r1","events":[{"version":8,"event":{"kind":"spectators","count":1}}]}"#,
        ),
        (
            Event {
                room: "r1".into(),
                version: 10,
                event: RoomEvent::Spectators { count: 2 },
            },
            None,
            r#"{"t":"event","room":"r1","version":10,"event":{"kind":"spectators","count":2}}"#,
        ),
        (
            Ack {
                room: Some("r1".into()),
                version: Some(10),
            },
            Some(4),
            r#"{"rid":4,"t":"ack","room":"r1","version":10}"#,
        ),
        (
            Ack {
                room: None,
                version: None,
            },
            Some(5),
            r#"{"rid":5,"t":"ack"}"#,
        ),
        (
            ServerMessage::error("occupied", "that point is taken"),
            Some(6),
            r#"{"rid":6,"t":"error","code":"occupied","message":"that point is taken"}"#,
        ),
        (Pong {}, Some(7), r#"{"rid":7,"t":"pong"}"#),
        (
            SpectatorChat {
                room: "r1".into(),
                from: "cy".into(),
                text: "nice".into(),
                line: Some(12),
            },
            None,
            r#"{"t":"spectator_chat","room":"r1","from":"cy","text":"nice","line":12}"#,
        ),
        (
            FriendPlaying {
                player: "bo".into(),
                room: "r1".into(),
                opponent: "cy".into(),
            },
            None,
            r#"{"t":"friend_playing","player":"bo","room":"r1","opponent":"cy"}"#,
        ),
        (
            Paired {
                room: "r1".into(),
                preset: "renju-5+3".into(),
                colour: Color::White,
                opponent: "bo".into(),
            },
            None,
            r#"{"t":"paired","room":"r1","preset":"renju-5+3","colour":"white","opponent":"bo"}"#,
        ),
        (
            QuickCounts {
                presets: vec![QuickCount {
                    preset: "renju-3+2".into(),
                    waiting: 2,
                    playing: 5,
                }],
            },
            None,
            r#"{"t":"quick_counts","presets":[{"preset":"renju-3+2","waiting":2,"playing":5}]}"#,
        ),
        (
            Challenge {
                challenge: ChallengeView {
                    id: 4,
                    from: "ann".into(),
                    from_guest: false,
                    to: "bo".into(),
                    rules: None,
                    game: Some(GameSpec::Othello(OthelloSpec {
                        scoring: OthelloScoring::Japanese,
                    })),
                    time_control: TimeControl::None,
                    rated: true,
                    colour: ColourChoice::Black,
                    games: None,
                    expires_in_ms: 60000,
                },
            },
            Some(11),
            r#"{"rid":11,"t":"challenge","challenge":{"id":4,"from":"ann","from_guest":false,"to":"bo","game":{"game":"othello","scoring":"japanese"},"time_control":{"kind":"none"},"rated":true,"colour":"black","expires_in_ms":60000}}"#,
        ),
        (
            ChallengeClosed {
                id: 4,
                reason: "accepted".into(),
                decline: None,
                room: Some("r1".into()),
            },
            None,
            r#"{"t":"challenge_closed","id":4,"reason":"accepted","room":"r1"}"#,
        ),
    ];
    let mut seen = BTreeSet::new();
    for (msg, rid, text) in cases {
        let kind = server_kind(&msg);
        let encoded = frame(msg, rid, text);
        assert_eq!(tag(&encoded), kind);
        seen.insert(kind);
    }
    let all: BTreeSet<&str> = <ServerMessage as Tagged>::TYPES.iter().copied().collect();
    assert_eq!(seen, all, "every server message kind is pinned");
}

/// Othello's starting position as a room shows it.
fn othello_start() -> protocol::GameView {
    let config =
        games::AnyConfig::Othello(games::OthelloConfig::new(rules::othello::Scoring::Japanese));
    protocol::GameView::of(
        &<games::AnyGame as games::Game>::new(config, games::Seat::Zero),
        false,
    )
}

/// Every room event kind, by an exhaustive match.
fn event_kind(e: &RoomEvent) -> &'static str {
    use RoomEvent::*;
    match e {
        PlayerJoined { .. } => "player_joined",
        PlayerLeft { .. } => "player_left",
        GameStarted { .. } => "game_started",
        Move { .. } => "move",
        Action { .. } => "action",
        SwapDecided { .. } => "swap_decided",
        FifthProposed { .. } => "fifth_proposed",
        TakenBack { .. } => "taken_back",
        ActionsTakenBack { .. } => "actions_taken_back",
        Offered { .. } => "offered",
        OfferAnswered { .. } => "offer_answered",
        PlayerDisconnected { .. } => "player_disconnected",
        PlayerReconnected { .. } => "player_reconnected",
        Spectators { .. } => "spectators",
        Chat { .. } => "chat",
        ChatRemoved { .. } => "chat_removed",
        GameOver { .. } => "game_over",
        RoomClosed { .. } => "room_closed",
    }
}

const EVENT_KINDS: usize = 18;

#[test]
fn every_room_event_kind_has_its_exact_wire_text() {
    use RoomEvent::*;
    let cases: Vec<(RoomEvent, &str)> = vec![
        (
            PlayerJoined {
                colour: Color::White,
                player: seat(),
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"player_joined","colour":"white","player":{"id":"g1","name":"ann","guest":true,"rating":1500.0,"provisional":true,"tier":"Bronze","connected":false,"grace_ms":30000}}}"#,
        ),
        (
            PlayerLeft {
                colour: Color::Black,
                name: "ann".into(),
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"player_left","colour":"black","name":"ann"}}"#,
        ),
        (
            GameStarted {
                game_id: 4,
                record: Some("AbC123".into()),
                black: seat(),
                white: bare_seat(),
                clocks: Some(clocks()),
                forbidden: vec![],
                to_act: Some(Color::Black),
                phase: RoomPhase::Place,
                unrated: Some("repeated_pairing".into()),
                view: None,
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"game_started","game_id":4,"record":"AbC123","black":{"id":"g1","name":"ann","guest":true,"rating":1500.0,"provisional":true,"tier":"Bronze","connected":false,"grace_ms":30000},"white":{"id":"u2","name":"bob","guest":false,"connected":true},"clocks":{"black":{"remaining_ms":1000,"periods":3,"byo_yomi":true},"white":{"remaining_ms":2000},"running":"white"},"forbidden":[],"to_act":"black","phase":"place","unrated":"repeated_pairing"}}"#,
        ),
        (
            Move {
                colour: Color::Black,
                point: p("h8"),
                ply: 1,
                claimable: Some(ForbiddenKind::Overline),
                to_act: Some(Color::White),
                phase: RoomPhase::Place,
                clocks: None,
                forbidden: vec![forbidden()],
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"move","colour":"black","point":"h8","ply":1,"claimable":"overline","to_act":"white","phase":"place","clocks":null,"forbidden":[{"point":"g9","kind":"double_three"}]}}"#,
        ),
        (
            Move {
                colour: Color::White,
                point: p("s19"),
                ply: 2,
                claimable: None,
                to_act: None,
                phase: RoomPhase::None,
                clocks: Some(clocks()),
                forbidden: vec![],
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"move","colour":"white","point":"s19","ply":2,"to_act":null,"phase":"none","clocks":{"black":{"remaining_ms":1000,"periods":3,"byo_yomi":true},"white":{"remaining_ms":2000},"running":"white"},"forbidden":[]}}"#,
        ),
        (
            SwapDecided {
                swapped: true,
                black: "bob".into(),
                white: "ann".into(),
                to_act: Some(Color::White),
                phase: RoomPhase::Place,
                clocks: None,
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"swap_decided","swapped":true,"black":"bob","white":"ann","to_act":"white","phase":"place","clocks":null}}"#,
        ),
        (
            FifthProposed {
                points: [p("g9"), p("j10")],
                to_act: Some(Color::White),
                phase: RoomPhase::ChooseFifth,
                clocks: None,
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"fifth_proposed","points":["g9","j10"],"to_act":"white","phase":"choose_fifth","clocks":null}}"#,
        ),
        (
            TakenBack {
                ply: 3,
                moves: vec![p("h8"), p("h9"), p("j10")],
                to_act: Some(Color::White),
                phase: RoomPhase::SwapDecision,
                clocks: None,
                forbidden: vec![],
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"taken_back","ply":3,"moves":["h8","h9","j10"],"to_act":"white","phase":"swap_decision","clocks":null,"forbidden":[]}}"#,
        ),
        (
            GameStarted {
                game_id: 4,
                record: Some("AbC123".into()),
                black: bare_seat(),
                white: bare_seat(),
                clocks: None,
                forbidden: vec![],
                to_act: Some(Color::Black),
                phase: RoomPhase::None,
                unrated: None,
                view: Some(othello_start()),
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"game_started","game_id":4,"record":"AbC123","black":{"id":"u2","name":"bob","guest":false,"connected":true},"white":{"id":"u2","name":"bob","guest":false,"connected":true},"clocks":null,"forbidden":[],"to_act":"black","phase":"none","view":{"game":"othello","board":"...........................wb......bw...........................","black":2,"white":2,"to_act":"black","phase":"place","legal":["d3","c4","f5","e6"],"last":null,"actions":[]}}}"#,
        ),
        (
            ActionsTakenBack {
                at: 0,
                ply: 0,
                view: othello_start(),
                to_act: Some(Color::Black),
                phase: Some(GamePhase::new("place")),
                clocks: None,
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"actions_taken_back","at":0,"ply":0,"view":{"game":"othello","board":"...........................wb......bw...........................","black":2,"white":2,"to_act":"black","phase":"place","legal":["d3","c4","f5","e6"],"last":null,"actions":[]},"to_act":"black","phase":"place","clocks":null}}"#,
        ),
        (
            Action {
                at: 0,
                by: Color::Black,
                action: "f5".into(),
                change: GameChange::Othello(OthelloChanged {
                    placed: Some("f5".into()),
                    flipped: vec!["e5".into()],
                    black: 4,
                    white: 1,
                    legal: vec!["d6".into(), "f4".into(), "f6".into()],
                }),
                to_act: Some(Color::White),
                phase: Some(GamePhase::new("place")),
                clocks: None,
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"action","at":0,"by":"black","action":"f5","change":{"game":"othello","placed":"f5","flipped":["e5"],"black":4,"white":1,"legal":["d6","f4","f6"]},"to_act":"white","phase":"place","clocks":null}}"#,
        ),
        (
            Offered {
                offer: OfferKind::Takeback,
                by: Color::Black,
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"offered","offer":"takeback","by":"black"}}"#,
        ),
        (
            OfferAnswered {
                offer: OfferKind::Rematch,
                by: Color::White,
                accept: false,
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"offer_answered","offer":"rematch","by":"white","accept":false}}"#,
        ),
        (
            PlayerDisconnected {
                colour: Color::White,
                name: "bob".into(),
                grace_ms: 60_000,
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"player_disconnected","colour":"white","name":"bob","grace_ms":60000}}"#,
        ),
        (
            PlayerReconnected {
                colour: Color::White,
                name: "bob".into(),
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"player_reconnected","colour":"white","name":"bob"}}"#,
        ),
        (
            Spectators { count: 0 },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"spectators","count":0}}"#,
        ),
        (
            Chat {
                from: "ann".into(),
                spectator: false,
                text: "hi".into(),
                line: None,
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"chat","from":"ann","spectator":false,"text":"hi"}}"#,
        ),
        (
            ChatRemoved { line: 12 },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"chat_removed","line":12}}"#,
        ),
        (
            GameOver {
                result: result(),
                clocks: Some(clocks()),
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"game_over","result":{"winner":"black","winner_name":"ann","reason":"five","line":["h8","h9","h10","h11","h12"],"forbidden":{"point":"g9","kind":"double_three"},"ratings":[{"name":"ann","before":1500.0,"after":1520.5,"tier":"Silver","provisional":false}],"unrated":"repeated_pairing"},"clocks":{"black":{"remaining_ms":1000,"periods":3,"byo_yomi":true},"white":{"remaining_ms":2000},"running":"white"}}}"#,
        ),
        (
            RoomClosed {
                reason: "expired".into(),
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"room_closed","reason":"expired"}}"#,
        ),
    ];
    let mut seen = BTreeSet::new();
    for (event, text) in cases {
        let kind = event_kind(&event);
        let msg = ServerMessage::Event {
            room: "r1".into(),
            version: 5,
            event,
        };
        let encoded = frame(msg, None, text);
        let v: serde_json::Value = serde_json::from_str(&encoded).expect("json");
        assert_eq!(v["event"]["kind"], kind);
        seen.insert(kind);
    }
    assert_eq!(seen.len(), EVENT_KINDS, "every room event kind is pinned");
}

#[test]
fn every_colour_has_its_exact_wire_text() {
    let text = |c: Color| match c {
        Color::Black => r#""black""#,
        Color::White => r#""white""#,
    };
    for c in [Color::Black, Color::White] {
        value(c, text(c));
    }
}

#[test]
fn every_rule_set_has_its_exact_wire_text() {
    let text = |r: RuleSet| match r {
        RuleSet::Freestyle => r#""freestyle""#,
        RuleSet::Standard => r#""standard""#,
        RuleSet::Renju => r#""renju""#,
    };
    for r in [RuleSet::Freestyle, RuleSet::Standard, RuleSet::Renju] {
        value(r, text(r));
    }
}

#[test]
fn every_forbidden_policy_has_its_exact_wire_text() {
    let text = |f: ForbiddenPolicy| match f {
        ForbiddenPolicy::Lose => r#""lose""#,
        ForbiddenPolicy::Reject => r#""reject""#,
        ForbiddenPolicy::Claim => r#""claim""#,
    };
    for f in [
        ForbiddenPolicy::Lose,
        ForbiddenPolicy::Reject,
        ForbiddenPolicy::Claim,
    ] {
        value(f, text(f));
    }
}

#[test]
fn every_opening_has_its_exact_wire_text() {
    let text = |o: Opening| match o {
        Opening::None => r#""none""#,
        Opening::SwapAfterThree => r#""swap_after_three""#,
        Opening::SwapAfterThreeFifthTwoOptions => r#""swap_after_three_fifth_two_options""#,
        Opening::Swap1 => r#""swap1""#,
        Opening::Swap2 => r#""swap2""#,
        Opening::Soosorv { .. } => r#""soosorv_8""#,
        Opening::Taraguchi { .. } => r#""taraguchi_10""#,
    };
    for o in [
        Opening::None,
        Opening::SwapAfterThree,
        Opening::SwapAfterThreeFifthTwoOptions,
        Opening::Swap1,
        Opening::Swap2,
        Opening::SOOSORV_8,
        Opening::TARAGUCHI_10,
    ] {
        value(o, text(o));
    }
    // N may be left out (the default) or given; a bad N reads, and `to_rules` refuses it with a code.
    let read = |t: &str| serde_json::from_str::<Opening>(t);
    assert_eq!(read(r#""soosorv""#).unwrap(), Opening::SOOSORV_8);
    assert_eq!(read(r#""taraguchi""#).unwrap(), Opening::TARAGUCHI_10);
    assert_eq!(read(r#""soosorv_5""#).unwrap(), Opening::Soosorv { n: 5 });
    assert!(read(r#""soosorv_five""#).is_err());
    assert!(read(r#""swap3""#).is_err());
    let spec: protocol::RulesSpec =
        serde_json::from_str(r#"{"rule_set":"renju","opening":"soosorv_11"}"#).unwrap();
    assert_eq!(spec.to_rules().unwrap_err().code(), "bad_opening_count");
}

#[test]
fn every_forbidden_kind_has_its_exact_wire_text() {
    let text = |k: ForbiddenKind| match k {
        ForbiddenKind::Overline => r#""overline""#,
        ForbiddenKind::DoubleFour => r#""double_four""#,
        ForbiddenKind::DoubleThree => r#""double_three""#,
    };
    for k in [
        ForbiddenKind::Overline,
        ForbiddenKind::DoubleFour,
        ForbiddenKind::DoubleThree,
    ] {
        value(k, text(k));
        assert_eq!(
            format!("\"{}\"", k.as_str()),
            text(k),
            "as_str agrees with serde"
        );
    }
}

#[test]
fn points_are_their_coordinate_text_at_the_corners_of_every_board() {
    value(p("a1"), r#""a1""#);
    value(p("h8"), r#""h8""#);
    value(p("o15"), r#""o15""#);
    value(p("s19"), r#""s19""#);
    value(p("t20"), r#""t20""#);
    // One past the largest board (20x20), and not a point at all: typed refusals, not panics.
    assert!(serde_json::from_str::<Point>(r#""u21""#).is_err());
    assert!(serde_json::from_str::<Point>(r#""t21""#).is_err());
    assert!(serde_json::from_str::<Point>(r#""u1""#).is_err());
    assert!(serde_json::from_str::<Point>(r#""a0""#).is_err());
    assert!(serde_json::from_str::<Point>(r#""h""#).is_err());
    assert!(serde_json::from_str::<Point>("[7,7]").is_err());
}

/// `rules::Action` is in no frame today (moves go as `place`, `decide_swap`, …), but its serde form is the stored
/// action JSON the server and `games` read back, so a rename shows here beside the wire's.
#[test]
fn every_action_has_its_exact_serde_text() {
    let text = |a: &Action| match a {
        Action::Place { .. } => r#"{"action":"place","point":"h8"}"#,
        Action::DecideSwap { .. } => r#"{"action":"decide_swap","swap":false}"#,
        Action::ProposeFifth { .. } => r#"{"action":"propose_fifth","points":["g9","j10"]}"#,
        Action::ChooseFifth { .. } => r#"{"action":"choose_fifth","point":"j10"}"#,
        Action::ClaimForbidden => r#"{"action":"claim_forbidden"}"#,
        Action::PlaceTwo { .. } => r#"{"action":"place_two","points":["g9","j10"]}"#,
        Action::DeclareOffers { .. } => r#"{"action":"declare_offers","count":3}"#,
        Action::OfferFifths { .. } => r#"{"action":"offer_fifths","offers":["g9","j10"]}"#,
    };
    for a in [
        Action::PlaceTwo {
            points: [p("g9"), p("j10")],
        },
        Action::DeclareOffers { count: 3 },
        Action::OfferFifths {
            offers: rules::Offers::new(&[p("g9"), p("j10")]).unwrap(),
        },
        Action::place(p("h8")),
        Action::DecideSwap { swap: false },
        Action::ProposeFifth {
            points: [p("g9"), p("j10")],
        },
        Action::ChooseFifth { point: p("j10") },
        Action::ClaimForbidden,
    ] {
        value(a, text(&a));
    }
}

#[test]
fn every_protocol_enum_value_has_its_exact_wire_text() {
    let phase = |v: RoomPhase| match v {
        RoomPhase::None => r#""none""#,
        RoomPhase::Place => r#""place""#,
        RoomPhase::SwapDecision => r#""swap_decision""#,
        RoomPhase::ProposeFifth => r#""propose_fifth""#,
        RoomPhase::ChooseFifth => r#""choose_fifth""#,
        RoomPhase::PlaceOpening => r#""place_opening""#,
        RoomPhase::Swap2Decision => r#""swap2_decision""#,
        RoomPhase::DeclareOffers => r#""declare_offers""#,
        RoomPhase::OfferFifths => r#""offer_fifths""#,
        RoomPhase::TaraguchiChoice => r#""taraguchi_choice""#,
        RoomPhase::ChooseOffer => r#""choose_offer""#,
    };
    for v in [
        RoomPhase::None,
        RoomPhase::Place,
        RoomPhase::SwapDecision,
        RoomPhase::ProposeFifth,
        RoomPhase::ChooseFifth,
        RoomPhase::PlaceOpening,
        RoomPhase::Swap2Decision,
        RoomPhase::DeclareOffers,
        RoomPhase::OfferFifths,
        RoomPhase::TaraguchiChoice,
        RoomPhase::ChooseOffer,
    ] {
        value(v, phase(v));
    }
    let state = |v: RoomState| match v {
        RoomState::Waiting => r#""waiting""#,
        RoomState::Playing => r#""playing""#,
        RoomState::Over => r#""over""#,
    };
    for v in [RoomState::Waiting, RoomState::Playing, RoomState::Over] {
        value(v, state(v));
    }
    let offer = |v: OfferKind| match v {
        OfferKind::Draw => r#""draw""#,
        OfferKind::Takeback => r#""takeback""#,
        OfferKind::Rematch => r#""rematch""#,
    };
    for v in [OfferKind::Draw, OfferKind::Takeback, OfferKind::Rematch] {
        value(v, offer(v));
    }
    let colour = |v: ColourChoice| match v {
        ColourChoice::Black => r#""black""#,
        ColourChoice::White => r#""white""#,
        ColourChoice::Random => r#""random""#,
    };
    for v in [
        ColourChoice::Black,
        ColourChoice::White,
        ColourChoice::Random,
    ] {
        value(v, colour(v));
    }
    let role = |v: JoinRole| match v {
        JoinRole::Player => r#""player""#,
        JoinRole::Spectator => r#""spectator""#,
    };
    for v in [JoinRole::Player, JoinRole::Spectator] {
        value(v, role(v));
    }
    let time = |v: &TimeControl| match v {
        TimeControl::None => r#"{"kind":"none"}"#,
        TimeControl::Fischer { .. } => r#"{"kind":"fischer","base_ms":300000,"increment_ms":5000}"#,
        TimeControl::ByoYomi { .. } => {
            r#"{"kind":"byo_yomi","base_ms":60000,"periods":3,"period_ms":10000}"#
        }
    };
    for v in [
        TimeControl::None,
        TimeControl::Fischer {
            base_ms: 300_000,
            increment_ms: 5_000,
        },
        TimeControl::ByoYomi {
            base_ms: 60_000,
            periods: 3,
            period_ms: 10_000,
        },
    ] {
        value(v, time(&v));
    }
}

#[test]
fn a_rules_spec_is_its_four_fields_and_reads_its_defaults() {
    value(
        spec(),
        r#"{"size":15,"rule_set":"renju","forbidden_policy":"claim","opening":"swap_after_three_fifth_two_options"}"#,
    );
    let read: RulesSpec = serde_json::from_str(r#"{"rule_set":"freestyle"}"#).expect("defaults");
    assert_eq!(
        read,
        RulesSpec {
            size: 15,
            rule_set: RuleSet::Freestyle,
            forbidden_policy: ForbiddenPolicy::Reject,
            opening: Opening::None,
        }
    );
}

// The game seam on the wire (#15): the forms that rooms of every game send, built from real games where they can
// be, so that a change in `games` or `rules` that would alter a frame fails here.

fn othello_spec() -> GameSpec {
    GameSpec::Othello(OthelloSpec {
        scoring: OthelloScoring::European,
    })
}

fn draughts_spec() -> GameSpec {
    GameSpec::Draughts(DraughtsSpec {
        variant: DraughtsVariant::International,
    })
}

/// A game of `spec` after the actions `texts`, each applied by whoever is to act.
fn played(spec: GameSpec, texts: &[&str]) -> games::AnyGame {
    use games::Game;
    let config = spec.to_config().expect("a playable spec");
    let mut game = games::AnyGame::new(config, games::Seat::Zero);
    for text in texts {
        let action = game.parse_action(text).expect("notation");
        game.apply(action).expect("legal");
    }
    game
}

/// The `action` event of `text` played after `before`.
fn action_event(spec: GameSpec, before: &[&str], text: &str) -> RoomEvent {
    use games::Game;
    let mut game = played(spec, before);
    let at = game.action_count() as u32;
    let by = game.to_act().expect("someone to act");
    let action = game.parse_action(text).expect("notation");
    let delta = game.apply(action.clone()).expect("legal");
    RoomEvent::action(at, by, &action, &delta, &game, None)
}

#[test]
fn every_game_spec_has_its_exact_wire_text_and_reads_its_defaults() {
    value(
        GameSpec::from(spec()),
        r#"{"game":"gomoku","size":15,"rule_set":"renju","forbidden_policy":"claim","opening":"swap_after_three_fifth_two_options"}"#,
    );
    value(othello_spec(), r#"{"game":"othello","scoring":"european"}"#);
    value(
        GameSpec::Othello(OthelloSpec {
            scoring: OthelloScoring::Japanese,
        }),
        r#"{"game":"othello","scoring":"japanese"}"#,
    );
    value(
        draughts_spec(),
        r#"{"game":"draughts","variant":"international"}"#,
    );
    let read = |text: &str| serde_json::from_str::<GameSpec>(text);
    assert_eq!(
        read(r#"{"game":"othello"}"#).unwrap(),
        GameSpec::Othello(OthelloSpec {
            scoring: OthelloScoring::Japanese
        })
    );
    assert_eq!(read(r#"{"game":"draughts"}"#).unwrap(), draughts_spec());
    assert_eq!(
        read(r#"{"game":"gomoku","rule_set":"freestyle"}"#).unwrap(),
        GameSpec::from(RulesSpec {
            size: 15,
            rule_set: RuleSet::Freestyle,
            forbidden_policy: ForbiddenPolicy::Reject,
            opening: Opening::None,
        })
    );
    assert!(read(r#"{"game":"chess"}"#).is_err());
    assert!(read(r#"{"game":"othello","scoring":"chinese"}"#).is_err());
    assert!(read(r#"{"game":"draughts","variant":"frisian"}"#).is_err());
    assert!(
        read(r#"{"scoring":"japanese"}"#).is_err(),
        "the tag is needed"
    );
}

#[test]
fn every_game_phase_is_its_games_own_code_on_the_wire() {
    // Each game lists its own codes; the wire carries a phase as its code, and reads any code back.
    let codes: Vec<&str> = [
        <games::Gomoku as protocol::WireGame>::PHASES,
        <games::Othello as protocol::WireGame>::PHASES,
        <games::Draughts as protocol::WireGame>::PHASES,
    ]
    .concat();
    for code in [
        "place",
        "pass",
        "move",
        "swap_decision",
        "propose_fifth",
        "choose_fifth",
        "place_opening",
        "swap2_decision",
        "declare_offers",
        "offer_fifths",
        "taraguchi_choice",
        "choose_offer",
    ] {
        assert!(codes.contains(&code), "{code} is no game's phase");
        value(GamePhase::new(code), &format!("\"{code}\""));
    }
    assert_eq!(
        serde_json::from_str::<GamePhase>(r#""place""#).unwrap(),
        GamePhase::new("place")
    );
}

#[test]
fn a_create_room_with_a_game_or_with_neither_has_its_exact_wire_text() {
    let create = |rules, game| ClientMessage::CreateRoom {
        rules,
        game,
        time_control: TimeControl::None,
        rated: false,
        public: true,
        colour: ColourChoice::Black,
        rating_range: None,
    };
    frame(
        create(None, Some(othello_spec())),
        Some(2),
        r#"{"rid":2,"t":"create_room","game":{"game":"othello","scoring":"european"},"time_control":{"kind":"none"},"rated":false,"public":true,"colour":"black"}"#,
    );
    frame(
        create(Some(spec()), Some(GameSpec::from(spec()))),
        None,
        r#"{"t":"create_room","rules":{"size":15,"rule_set":"renju","forbidden_policy":"claim","opening":"swap_after_three_fifth_two_options"},"game":{"game":"gomoku","size":15,"rule_set":"renju","forbidden_policy":"claim","opening":"swap_after_three_fifth_two_options"},"time_control":{"kind":"none"},"rated":false,"public":true,"colour":"black"}"#,
    );
    frame(
        create(None, None),
        None,
        r#"{"t":"create_room","time_control":{"kind":"none"},"rated":false,"public":true,"colour":"black"}"#,
    );
}

#[test]
fn an_othello_view_is_its_board_counts_legal_squares_and_actions() {
    let view = GameView::of(&played(othello_spec(), &["f5", "d6"]), false);
    value(
        view,
        r#"{"game":"othello","board":"...........................wb......wbb.....w....................","black":3,"white":3,"to_act":"black","phase":"place","legal":["c3","c4","c5","c6","c7"],"last":"d6","actions":["f5","d6"]}"#,
    );
    let over = GameView::of(&played(othello_spec(), &["f5"]), true);
    value(
        over,
        r#"{"game":"othello","board":"...........................wb......bbb..........................","black":4,"white":1,"to_act":null,"phase":null,"legal":[],"last":"f5","actions":["f5"]}"#,
    );
}

#[test]
fn a_draughts_view_is_its_board_legal_moves_counters_and_actions() {
    let view = GameView::of(&played(draughts_spec(), &["32-28"]), false);
    value(
        view,
        r#"{"game":"draughts","board":"bbbbbbbbbbbbbbbbbbbb.......w..w.wwwwwwwwwwwwwwwwww","to_act":"black","legal":[{"move":"16-21","path":[16,21],"captured":[],"crowned":false},{"move":"17-21","path":[17,21],"captured":[],"crowned":false},{"move":"17-22","path":[17,22],"captured":[],"crowned":false},{"move":"18-22","path":[18,22],"captured":[],"crowned":false},{"move":"18-23","path":[18,23],"captured":[],"crowned":false},{"move":"19-23","path":[19,23],"captured":[],"crowned":false},{"move":"19-24","path":[19,24],"captured":[],"crowned":false},{"move":"20-24","path":[20,24],"captured":[],"crowned":false},{"move":"20-25","path":[20,25],"captured":[],"crowned":false}],"counters":{"king_plies":0,"endgame":null,"repetitions":1},"ply":1,"actions":["32-28"]}"#,
    );
    value(
        DrawCounters {
            king_plies: 12,
            endgame: Some(EndgameCount {
                moves_each: 16,
                played: 3,
            }),
            repetitions: 2,
        },
        r#"{"king_plies":12,"endgame":{"moves_each":16,"played":3},"repetitions":2}"#,
    );
}

#[test]
fn a_gomoku_view_is_its_stones_status_and_actions() {
    let view = GameView::of(&played(GameSpec::from(spec()), &["h8", "h9", "j10"]), false);
    value(
        view,
        r#"{"game":"gomoku","size":15,"moves":["h8","h9","j10"],"to_act":"white","phase":"swap_decision","swapped":false,"forbidden":[],"claimable":null,"fifth_options":null,"opening_name":{"code":"3D","romaji":"Sosei","japanese":"疎星","chinese":"疏星","english":"Sparse star"},"actions":["h8","h9","j10"]}"#,
    );
}

#[test]
fn an_action_event_of_every_game_has_its_exact_wire_text() {
    let cases = [
        (
            action_event(othello_spec(), &["f5"], "d6"),
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"action","at":1,"by":"white","action":"d6","change":{"game":"othello","placed":"d6","flipped":["d5"],"black":3,"white":3,"legal":["c3","c4","c5","c6","c7"]},"to_act":"black","phase":"place","clocks":null}}"#,
        ),
        (
            action_event(draughts_spec(), &["32-28"], "19-23"),
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"action","at":1,"by":"black","action":"19-23","change":{"game":"draughts","path":[19,23],"captured":[],"crowned":false,"ply":2,"counters":{"king_plies":0,"endgame":null,"repetitions":1},"legal":[{"move":"28x19","path":[28,19],"captured":[23],"crowned":false}]},"to_act":"white","phase":"move","clocks":null}}"#,
        ),
        (
            action_event(GameSpec::from(spec()), &[], "h8"),
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"action","at":0,"by":"black","action":"h8","change":{"game":"gomoku","placed":"h8","ply":1,"forbidden":[]},"to_act":"white","phase":"place","clocks":null}}"#,
        ),
        (
            action_event(GameSpec::from(spec()), &["h8", "h9", "j10"], "swap"),
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"action","at":3,"by":"white","action":"swap","change":{"game":"gomoku","placed":null,"ply":3,"swapped":true,"forbidden":[]},"to_act":"white","phase":"place","clocks":null}}"#,
        ),
        (
            RoomEvent::Action {
                at: 17,
                by: Color::White,
                action: "pass".into(),
                change: GameChange::Othello(OthelloChanged {
                    placed: None,
                    flipped: vec![],
                    black: 20,
                    white: 9,
                    legal: vec!["a1".into()],
                }),
                to_act: Some(Color::Black),
                phase: Some(GamePhase::new("place")),
                clocks: Some(clocks()),
            },
            r#"{"t":"event","room":"r1","version":5,"event":{"kind":"action","at":17,"by":"white","action":"pass","change":{"game":"othello","placed":null,"flipped":[],"black":20,"white":9,"legal":["a1"]},"to_act":"black","phase":"place","clocks":{"black":{"remaining_ms":1000,"periods":3,"byo_yomi":true},"white":{"remaining_ms":2000},"running":"white"}}}"#,
        ),
    ];
    for (event, text) in cases {
        let msg = ServerMessage::Event {
            room: "r1".into(),
            version: 5,
            event,
        };
        frame(msg, None, text);
    }
}

#[test]
fn a_snapshot_and_a_lobby_entry_of_another_game_carry_game_and_view_instead_of_rules() {
    let mut room = snapshot();
    room.rules = None;
    room.game = Some(othello_spec());
    room.view = Some(GameView::of(&played(othello_spec(), &["f5"]), false));
    room.moves = vec![];
    room.forbidden = vec![];
    room.claimable = None;
    room.fifth_options = None;
    room.chat = vec![];
    room.phase = RoomPhase::Place;
    frame(
        ServerMessage::Room { room },
        Some(2),
        r#"{"rid":2,"t":"room","room":{"id":"r1","version":9,"game":{"game":"othello","scoring":"european"},"time_control":{"kind":"byo_yomi","base_ms":60000,"periods":3,"period_ms":10000},"rated":false,"public":true,"game_id":4,"record":"AbC123","state":"playing","seats":{"black":{"id":"u2","name":"bob","guest":false,"connected":true},"white":null},"you":"black","phase":"place","to_act":"white","moves":[],"swapped":true,"clocks":{"black":{"remaining_ms":1000,"periods":3,"byo_yomi":true},"white":{"remaining_ms":2000},"running":"white"},"forbidden":[],"claimable":null,"fifth_options":null,"offers":[{"kind":"draw","by":"white"}],"spectators":2,"result":null,"view":{"game":"othello","board":"...........................wb......bbb..........................","black":4,"white":1,"to_act":"white","phase":"place","legal":["f4","d6","f6"],"last":"f5","actions":["f5"]}}}"#,
    );
    let mut entry = lobby_room();
    entry.rules = None;
    entry.game = Some(draughts_spec());
    frame(
        ServerMessage::LobbyRoom { room: entry },
        None,
        r#"{"t":"lobby_room","room":{"id":"r1","game":{"game":"draughts","variant":"international"},"time_control":{"kind":"fischer","base_ms":300000,"increment_ms":5000},"rated":true,"state":"waiting","players":[{"id":"g1","name":"ann","colour":"black","rating":1500.0,"tier":"Bronze","provisional":true}],"spectators":0}}"#,
    );
}

#[test]
fn a_result_of_another_game_carries_its_detail() {
    let othello = games::AnyDetail::Othello(games::OthelloDetail {
        discs: rules::othello::Score::new(40, 20),
        scoring: rules::othello::Scoring::Japanese,
        scored: rules::othello::Score::new(44, 20),
    });
    let draughts = games::AnyDetail::Draughts(games::DraughtsDetail::Draw(
        rules::draughts::DrawReason::EndgameLimit { moves_each: 16 },
    ));
    let gomoku = games::AnyDetail::Gomoku(games::GomokuDetail::BoardFull);
    assert_eq!(
        GameDetail::of(&gomoku),
        None,
        "Gomoku has line and forbidden"
    );
    let result = |detail: &games::AnyDetail, winner, reason: &str| GameResult {
        winner,
        winner_name: None,
        reason: reason.into(),
        line: None,
        forbidden: None,
        ratings: None,
        unrated: None,
        detail: GameDetail::of(detail),
    };
    let over = |result| ServerMessage::Event {
        room: "r1".into(),
        version: 5,
        event: RoomEvent::GameOver {
            result,
            clocks: None,
        },
    };
    frame(
        over(result(&othello, Some(Color::Black), "no_moves")),
        None,
        r#"{"t":"event","room":"r1","version":5,"event":{"kind":"game_over","result":{"winner":"black","reason":"no_moves","detail":{"game":"othello","discs":{"black":40,"white":20},"scored":{"black":44,"white":20},"scoring":"japanese","score":"black 44–20"}},"clocks":null}}"#,
    );
    frame(
        over(result(&draughts, None, "endgame_limit")),
        None,
        r#"{"t":"event","room":"r1","version":5,"event":{"kind":"game_over","result":{"winner":null,"reason":"endgame_limit","detail":{"game":"draughts","rule":"endgame_limit"}},"clocks":null}}"#,
    );
}

#[test]
fn a_create_room_field_given_as_null_is_refused_as_when_rules_was_required() {
    for text in [
        r#"{"t":"create_room","rules":null}"#,
        r#"{"t":"create_room","game":null,"rules":{"rule_set":"renju"}}"#,
    ] {
        let e = decode::<ClientMessage>(text, usize::MAX).unwrap_err();
        assert_eq!(e.code(), "invalid_field", "{text}");
        assert!(e.to_string().contains("invalid type: null"), "{e}");
    }
}
