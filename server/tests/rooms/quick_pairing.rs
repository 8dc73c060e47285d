//! Quick pairing (#18): presets and custom seeks, the pairing of compatible players into a room opened for both,
//! never a player with himself, removal on cancel and disconnect, the limits, and the live counts.

use crate::common;

use std::time::Duration;

use common::*;
use games::{Game as _, GameConfig as _};
use protocol::{
    ClientMessage, GameSpec, JoinRole, QuickCount, RoomEvent, ServerMessage, TimeControl,
};
use rules::{Color, Opening};
use testkit::game_table::GameTable;

fn seek(preset: &str, rated: bool) -> ClientMessage {
    ClientMessage::SeekQuick {
        preset: preset.into(),
        rules: None,
        game: None,
        time_control: None,
        rated,
    }
}

fn ack(reply: ServerMessage) {
    assert!(matches!(reply, ServerMessage::Ack { .. }), "{reply:?}");
}

/// Waits for `paired`, skipping the room's snapshot and events that come before it.
async fn paired(client: &mut Client) -> (String, Color, String, String) {
    loop {
        if let ServerMessage::Paired {
            room,
            colour,
            preset,
            opponent,
        } = client.recv().await.msg
        {
            return (room, colour, preset, opponent);
        }
    }
}

/// The pairing task's counts for `preset`, once `pred` holds (the task is asked until then, for up to 10 s).
async fn counts_once(
    server: &TestServer,
    preset: &str,
    pred: impl Fn(&QuickCount) -> bool,
) -> QuickCount {
    for _ in 0..200 {
        let counts = server.state.pairing.counts().await;
        let c = counts.into_iter().find(|c| c.preset == preset).unwrap();
        if pred(&c) {
            return c;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the counts of {preset} never got there");
}

#[tokio::test]
async fn two_players_seeking_the_same_preset_are_paired_into_a_started_game() {
    let (server, _db) = TestServer::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    ack(a.request(seek("freestyle-5+3", false)).await);
    ack(b.request(seek("freestyle-5+3", false)).await);
    let (room_a, colour_a, preset, opp_a) = paired(&mut a).await;
    let (room_b, colour_b, _, opp_b) = paired(&mut b).await;
    assert_eq!(room_a, room_b);
    assert_eq!(preset, "freestyle-5+3");
    assert_eq!(colour_a, colour_b.opposite());
    assert_eq!((opp_a, opp_b), (b.name.clone(), a.name.clone()));
    // The game runs under the preset's clock: the player holding black places the first stone.
    let black = if colour_a == Color::Black {
        &mut a
    } else {
        &mut b
    };
    let moved = black.place(&room_a, "h8", 1).await.unwrap();
    let RoomEvent::Move {
        clocks: Some(c), ..
    } = moved
    else {
        panic!("{moved:?}")
    };
    assert_eq!(c.white.remaining_ms, 300_000);
}

#[tokio::test]
async fn the_renju_presets_play_soosorv_8_and_the_freestyle_ones_no_opening_rule() {
    // #36: the renju presets paired players into games without an opening rule, where black wins too often by
    // force for a rating pool to mean much.
    for (preset, expected) in [
        ("renju-3+2", Opening::SOOSORV_8),
        ("renju-byoyomi-10m-30sx3", Opening::SOOSORV_8),
        ("freestyle-3+2", Opening::None),
    ] {
        let (server, _db) = TestServer::start().await;
        let mut a = server.client().await;
        let mut b = server.client().await;
        ack(a.request(seek(preset, false)).await);
        ack(b.request(seek(preset, false)).await);
        let snapshot = loop {
            if let ServerMessage::Room { room } = a.recv().await.msg {
                break room;
            }
        };
        let opening = match (&snapshot.game, &snapshot.rules) {
            (Some(GameSpec::Gomoku(protocol::GomokuSpec { opening, .. })), _) => *opening,
            (_, Some(rules)) => rules.opening,
            other => panic!("{preset}: {other:?}"),
        };
        assert_eq!(opening, expected, "{preset}");
        let (_, _, paired_preset, _) = paired(&mut a).await;
        assert_eq!(paired_preset, preset);
    }
}

#[tokio::test]
async fn seekers_of_different_presets_are_not_paired() {
    let (server, _db) = TestServer::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    ack(a.request(seek("renju-5+3", false)).await);
    ack(b.request(seek("freestyle-5+3", false)).await);
    server.advance(Duration::from_secs(3));
    counts_once(&server, "renju-5+3", |c| c.waiting == 1).await;
    counts_once(&server, "freestyle-5+3", |c| c.waiting == 1).await;
}

#[tokio::test]
async fn a_custom_seek_pairs_with_the_same_custom_game_and_time_control() {
    let (server, _db) = TestServer::start().await;
    let custom = || ClientMessage::SeekQuick {
        preset: "custom".into(),
        rules: Some(freestyle()),
        game: None,
        time_control: Some(TimeControl::Fischer {
            base_ms: 60_000,
            increment_ms: 1_000,
        }),
        rated: false,
    };
    let mut a = server.client().await;
    let mut b = server.client().await;
    ack(a.request(custom()).await);
    ack(b.request(custom()).await);
    let (room_a, _, preset, _) = paired(&mut a).await;
    let (room_b, _, _, _) = paired(&mut b).await;
    assert_eq!((room_a, preset.as_str()), (room_b, "custom"));
}

#[tokio::test]
async fn one_account_on_two_tabs_is_never_paired_with_itself() {
    let (server, _db) = TestServer::start().await;
    let user = server.registered("alice").await;
    let mut tab1 = user.client;
    let mut tab2 = Client::hello(server.addr, Some(&user.token)).await;
    ack(tab1.request(seek("renju-3+2", false)).await);
    ack(tab2.request(seek("renju-3+2", false)).await);
    server.advance(Duration::from_secs(5));
    counts_once(&server, "renju-3+2", |c| c.waiting == 2).await;
    let mut guest = server.client().await;
    ack(guest.request(seek("renju-3+2", false)).await);
    let (room, _, _, opponent) = paired(&mut guest).await;
    assert_eq!(opponent, "alice");
    // The tab that waited longest got the game; the other still waits.
    let (room1, _, _, _) = paired(&mut tab1).await;
    assert_eq!(room1, room);
    counts_once(&server, "renju-3+2", |c| c.waiting == 1 && c.playing == 1).await;
}

#[tokio::test]
async fn a_cancelled_seek_leaves_the_queue_at_once() {
    let (server, _db) = TestServer::start().await;
    let mut a = server.client().await;
    ack(a.request(seek("renju-10+5", false)).await);
    assert_eq!(
        server.state.pairing.counts().await[2],
        QuickCount {
            preset: "renju-10+5".into(),
            waiting: 1,
            playing: 0
        }
    );
    ack(a.request(ClientMessage::CancelQuick {}).await);
    assert_eq!(server.state.pairing.counts().await[2].waiting, 0);
    let mut b = server.client().await;
    ack(b.request(seek("renju-10+5", false)).await);
    assert_eq!(server.state.pairing.counts().await[2].waiting, 1);
}

#[tokio::test]
async fn a_disconnected_seeker_leaves_the_queue_and_is_never_paired() {
    let (server, _db) = TestServer::start().await;
    let a = server.client().await;
    let mut a = a;
    ack(a.request(seek("renju-15+10", false)).await);
    a.close().await;
    counts_once(&server, "renju-15+10", |c| c.waiting == 0).await;
    let mut b = server.client().await;
    ack(b.request(seek("renju-15+10", false)).await);
    server.advance(Duration::from_secs(2));
    let c = counts_once(&server, "renju-15+10", |c| c.waiting == 1).await;
    assert_eq!(c.playing, 0);
}

#[tokio::test]
async fn a_guest_may_seek_casual_games_only() {
    let (server, _db) = TestServer::start().await;
    let mut guest = server.client().await;
    assert_eq!(
        error_code(guest.request(seek("renju-5+3", true)).await),
        "account_required"
    );
    ack(guest.request(seek("renju-5+3", false)).await);
}

#[tokio::test]
async fn rated_and_casual_seekers_are_not_paired_together() {
    let (server, _db) = TestServer::start().await;
    let mut alice = server.registered("alice").await.client;
    let mut guest = server.client().await;
    ack(alice.request(seek("freestyle-3+2", true)).await);
    ack(guest.request(seek("freestyle-3+2", false)).await);
    server.advance(Duration::from_secs(30));
    counts_once(&server, "freestyle-3+2", |c| c.waiting == 2).await;
    let mut bob = server.registered("bob").await.client;
    ack(bob.request(seek("freestyle-3+2", true)).await);
    let (_, _, _, opponent) = paired(&mut bob).await;
    assert_eq!(opponent, "alice");
}

#[tokio::test]
async fn an_unknown_preset_and_a_bad_custom_seek_are_refused_with_their_codes() {
    let (server, _db) = TestServer::start().await;
    let mut a = server.client().await;
    assert_eq!(
        error_code(a.request(seek("renju-1+0", false)).await),
        "unknown_preset"
    );
    let too_short = ClientMessage::SeekQuick {
        preset: "custom".into(),
        rules: Some(freestyle()),
        game: None,
        time_control: Some(TimeControl::Fischer {
            base_ms: 999,
            increment_ms: 0,
        }),
        rated: false,
    };
    assert_eq!(
        error_code(a.request(too_short).await),
        "invalid_time_control"
    );
    let no_game = ClientMessage::SeekQuick {
        preset: "custom".into(),
        rules: None,
        game: None,
        time_control: None,
        rated: false,
    };
    assert_eq!(error_code(a.request(no_game).await), "invalid_field");
    let preset_with_rules = ClientMessage::SeekQuick {
        preset: "renju-5+3".into(),
        rules: Some(freestyle()),
        game: None,
        time_control: None,
        rated: false,
    };
    assert_eq!(
        error_code(a.request(preset_with_rules).await),
        "invalid_field"
    );
}

#[tokio::test]
async fn a_connection_seeks_once_at_a_time() {
    let (server, _db) = TestServer::start().await;
    let mut a = server.client().await;
    ack(a.request(seek("renju-5+3", false)).await);
    assert_eq!(
        error_code(a.request(seek("freestyle-5+3", false)).await),
        "already_seeking"
    );
    ack(a.request(ClientMessage::CancelQuick {}).await);
    ack(a.request(seek("freestyle-5+3", false)).await);
}

#[tokio::test]
async fn a_player_waits_on_at_most_three_connections() {
    let (server, _db) = TestServer::start().await;
    let user = server.registered("alice").await;
    let mut tabs = vec![user.client];
    for _ in 0..3 {
        tabs.push(Client::hello(server.addr, Some(&user.token)).await);
    }
    for tab in &mut tabs[..3] {
        ack(tab.request(seek("renju-5+3", false)).await);
    }
    assert_eq!(
        error_code(tabs[3].request(seek("renju-5+3", false)).await),
        "too_many_seeks"
    );
    ack(tabs[0].request(ClientMessage::CancelQuick {}).await);
    ack(tabs[3].request(seek("renju-5+3", false)).await);
}

#[tokio::test]
async fn the_queues_hold_at_most_the_configured_number_of_seekers() {
    let server = TestServer::start_fresh(server::Config {
        max_quick_seekers: 2,
        ..test_config()
    })
    .await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let mut c = server.client().await;
    ack(a.request(seek("renju-5+3", false)).await);
    ack(b.request(seek("freestyle-5+3", false)).await);
    assert_eq!(
        error_code(c.request(seek("renju-3+2", false)).await),
        "queue_full"
    );
}

#[tokio::test]
async fn lobby_subscribers_get_the_counts_and_their_changes() {
    let (server, _db) = TestServer::start().await;
    let mut watcher = server.client().await;
    watcher.send(ClientMessage::SubscribeLobby {}).await;
    let first = loop {
        if let ServerMessage::QuickCounts { presets } = watcher.recv().await.msg {
            break presets;
        }
    };
    let ids: Vec<&str> = first.iter().map(|c| c.preset.as_str()).collect();
    assert_eq!(
        ids,
        [
            "renju-3+2",
            "renju-5+3",
            "renju-10+5",
            "renju-15+10",
            "freestyle-3+2",
            "freestyle-5+3",
            "renju-byoyomi-10m-30sx3",
            "othello-3+2",
            "othello-5+3",
            "othello-10+5",
            "draughts-5+5",
            "draughts-10+5",
            "insect-3+2",
            "insect-5+3",
            "custom"
        ]
    );
    assert!(first.iter().all(|c| c.waiting == 0 && c.playing == 0));
    let mut a = server.client().await;
    ack(a.request(seek("freestyle-3+2", false)).await);
    server.advance(Duration::from_secs(1));
    let next = loop {
        if let ServerMessage::QuickCounts { presets } = watcher.recv().await.msg {
            break presets;
        }
    };
    assert_eq!(next[4].waiting, 1);
}

#[tokio::test]
async fn a_paired_player_who_disconnects_is_seen_leaving_by_the_opponent() {
    let (server, _db) = TestServer::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    ack(a.request(seek("renju-3+2", false)).await);
    ack(b.request(seek("renju-3+2", false)).await);
    paired(&mut a).await;
    paired(&mut b).await;
    // `a` never sent anything about the room: its connection still leaves the seat when it closes.
    let a_name = a.name.clone();
    a.close().await;
    let (_, e) = b
        .event_where(|e| matches!(e, RoomEvent::PlayerDisconnected { .. }))
        .await;
    assert!(matches!(e, RoomEvent::PlayerDisconnected { name, .. } if name == a_name));
}

/// The first preset of each game, from the server's list (every game has some).
fn first_preset_of_each_game() -> Vec<(games::GameKind, &'static server::pairing::Preset)> {
    games::GameKind::ALL
        .into_iter()
        .map(|kind| {
            let p = server::pairing::presets()
                .iter()
                .find(|p| p.config.kind() == kind)
                .unwrap_or_else(|| panic!("{kind} has no quick-pairing preset"));
            (kind, p)
        })
        .collect()
}

/// `a` and `b` seek `preset` and are paired: the table of their game, black and white by their `paired`, with
/// a spectator following it.
async fn paired_table(
    server: &TestServer,
    mut a: Client,
    mut b: Client,
    preset: &str,
    rated: bool,
) -> GameTable {
    ack(a.request(seek(preset, rated)).await);
    ack(b.request(seek(preset, rated)).await);
    let (room, colour_a, preset_a, _) = paired(&mut a).await;
    let (room_b, _, preset_b, _) = paired(&mut b).await;
    assert_eq!(
        (&room_b, preset_a.as_str(), preset_b.as_str()),
        (&room, preset, preset)
    );
    let (mut black, white) = if colour_a == Color::Black {
        (a, b)
    } else {
        (b, a)
    };
    let mine = black.join(&room, JoinRole::Player).await;
    assert_eq!(mine.you, Some(Color::Black));
    let mut watcher = server.client().await;
    let seen = watcher.join(&room, JoinRole::Spectator).await;
    let replica = client::Replica::from_snapshot(&seen, None).expect("the snapshot replays");
    GameTable {
        room,
        black,
        white,
        game_id: mine.game_id.expect("the game started"),
        record: mine.record.expect("a started game has a record"),
        watcher,
        replica,
    }
}

#[tokio::test]
async fn every_game_has_presets_whose_ids_are_unique_and_whose_games_are_playable() {
    let presets = server::pairing::presets();
    let mut ids: Vec<&str> = presets.iter().map(|p| p.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), presets.len(), "preset ids are unique");
    assert!(!ids.contains(&"custom") && !ids.contains(&"challenge"));
    for kind in games::GameKind::ALL {
        let of_kind: Vec<&str> = presets
            .iter()
            .filter(|p| p.config.kind() == kind)
            .map(|p| p.id)
            .collect();
        assert!(!of_kind.is_empty(), "{kind} has tiles");
    }
    // The games come in the list's order, each game's presets together.
    let kinds: Vec<games::GameKind> = presets.iter().map(|p| p.config.kind()).collect();
    let mut sorted = kinds.clone();
    sorted.sort();
    assert_eq!(kinds, sorted);
    for id in [
        "othello-3+2",
        "othello-5+3",
        "othello-10+5",
        "draughts-5+5",
        "draughts-10+5",
        "insect-3+2",
        "insect-5+3",
    ] {
        assert!(server::pairing::preset(id).is_some(), "{id}");
    }
}

#[tokio::test]
async fn two_players_seeking_a_preset_of_any_game_are_paired_into_a_room_of_that_game() {
    let (server, _db) = TestServer::start().await;
    for (kind, preset) in first_preset_of_each_game() {
        let a = server.client().await;
        let b = server.client().await;
        let mut t = paired_table(&server, a, b, preset.id, false).await;
        let snap = t.snapshot().await;
        let spec = match (&snap.game, &snap.rules) {
            (Some(game), _) => *game,
            (None, Some(rules)) => GameSpec::from(*rules),
            other => panic!("{kind}: {other:?}"),
        };
        assert_eq!(spec.kind(), kind, "{}", preset.id);
        assert_eq!(spec.to_config().unwrap(), preset.config, "{}", preset.id);
        assert_eq!(snap.time_control, preset.time_control, "{}", preset.id);
        assert!(!snap.rated);
        // The game runs: whoever is to act plays one of its legal actions.
        let first = t.game().legal_actions()[0].clone();
        let text = <games::AnyGame as games::Game>::notation(&first);
        t.play(&text)
            .await
            .unwrap_or_else(|code| panic!("{}: {text} refused: {code}", preset.id));
        counts_once(&server, preset.id, |c| c.waiting == 0 && c.playing == 1).await;
    }
}

#[tokio::test]
async fn a_rated_pairing_of_each_game_is_rated_in_that_game_s_own_pool() {
    let (server, _db) = TestServer::start().await;
    let expected = |kind: games::GameKind| match kind {
        games::GameKind::Gomoku => "renju",
        games::GameKind::Othello => "othello/standard",
        games::GameKind::Draughts => "draughts/international",
        games::GameKind::Insect => "insect/standard",
    };
    for (i, (kind, preset)) in first_preset_of_each_game().into_iter().enumerate() {
        let ann = server.registered(&format!("ann{i}")).await;
        let ben = server.registered(&format!("ben{i}")).await;
        let mut t = paired_table(&server, ann.client, ben.client, preset.id, true).await;
        assert!(t.snapshot().await.rated, "{}", preset.id);
        // Actions of both players (a rated game ended before both moved is aborted; under Soosõrv the first
        // player alone places three stones), then the side to act resigns.
        for _ in 0..6 {
            let action = t.game().legal_actions()[0].clone();
            let text = <games::AnyGame as games::Game>::notation(&action);
            t.play(&text).await.unwrap();
        }
        let room = t.room.clone();
        t.send(true, ClientMessage::Resign { room }).await;
        let result = t.follow_to_end().await;
        assert!(result.ratings.is_some(), "{}: {result:?}", preset.id);
        for name in [format!("ann{i}"), format!("ben{i}")] {
            let (_, profile) = server.get_json(&format!("/api/players/{name}")).await;
            assert_eq!(rating_pools(&profile), [expected(kind)], "{}", preset.id);
        }
    }
}

#[tokio::test]
async fn seekers_of_two_games_at_the_same_clock_are_not_paired() {
    let (server, _db) = TestServer::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    ack(a.request(seek("othello-3+2", false)).await);
    ack(b.request(seek("insect-3+2", false)).await);
    server.advance(Duration::from_secs(30));
    counts_once(&server, "othello-3+2", |c| c.waiting == 1).await;
    counts_once(&server, "insect-3+2", |c| c.waiting == 1).await;
    // A bad id of a game's own form is refused with its code too.
    assert_eq!(
        error_code(a.request(seek("othello-3+3", false)).await),
        "unknown_preset"
    );
}

#[tokio::test]
async fn the_quick_route_lists_every_preset_in_the_order_of_the_counts() {
    let (server, _db) = TestServer::start().await;
    let (status, body) = server.get_json("/api/quick").await;
    assert_eq!(status, 200);
    let served: Vec<&str> = body["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    let counted: Vec<String> = server
        .state
        .pairing
        .counts()
        .await
        .into_iter()
        .map(|c| c.preset)
        .collect();
    assert_eq!(counted.last().map(String::as_str), Some("custom"));
    assert_eq!(served, counted[..counted.len() - 1]);
    let othello = body["presets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "othello-5+3")
        .unwrap();
    assert_eq!(
        othello["game"],
        serde_json::json!({"game": "othello", "scoring": "japanese"})
    );
    assert_eq!(
        othello["time_control"],
        serde_json::json!({"kind": "fischer", "base_ms": 300_000, "increment_ms": 3000})
    );
}
