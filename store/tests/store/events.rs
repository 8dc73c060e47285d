//! The events' tables (issue #34) in the contract suite (`contract.rs` runs this on SQLite, in-memory SQLite and
//! Postgres): an event, its entrants (numbers in join order, one entry a player, withdrawal, removal), its
//! pairings in one transaction, their rooms, and a result stored exactly once; statuses and the lists by status.

use std::sync::Arc;

use store::events::{NewEntrant, NewEvent, NewPairing};
use store::Store;

fn new_event(name: &str, starts_at: i64) -> NewEvent {
    NewEvent {
        name: name.to_owned(),
        kind: "swiss".to_owned(),
        game: r#"{"game":"othello","scoring":"japanese"}"#.to_owned(),
        time_control: r#"{"kind":"none"}"#.to_owned(),
        rounds: 3,
        duration_ms: 0,
        rated: false,
        starts_at,
        password_hash: Some("$argon2id$stand-in".to_owned()),
        creator_name: "maker".to_owned(),
        creator_user_id: None,
        created_at: 1,
    }
}

fn entrant(key: &str) -> NewEntrant {
    NewEntrant {
        name: key.to_owned(),
        user_id: None,
        player_key: key.to_owned(),
        rating: 1500,
        joined_round: 0,
        joined_at: 2,
    }
}

pub async fn an_event_its_entrants_pairings_and_results_are_stored(store: Arc<dyn Store>) {
    let t = store.events().expect("the events' tables");
    let later = t.create_event(&new_event("later", 200)).await.unwrap();
    let id = t.create_event(&new_event("sooner", 100)).await.unwrap();
    let e = t.event(id).await.unwrap().expect("stored");
    assert_eq!((e.status.as_str(), e.new.rounds), ("upcoming", 3));
    assert_eq!(e.new, new_event("sooner", 100));
    let upcoming: Vec<i64> = t
        .events_with_status("upcoming", 10)
        .await
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(upcoming, [id, later], "soonest first");

    assert_eq!(t.add_entrant(id, &entrant("ga")).await.unwrap(), 1);
    assert_eq!(t.add_entrant(id, &entrant("gb")).await.unwrap(), 2);
    assert!(
        t.add_entrant(id, &entrant("ga")).await.is_err(),
        "one entry a player"
    );
    assert_eq!(t.add_entrant(id, &entrant("gc")).await.unwrap(), 3);
    t.remove_entrant(id, 3).await.unwrap();
    assert_eq!(
        t.add_entrant(id, &entrant("gd")).await.unwrap(),
        3,
        "the next free number"
    );
    t.set_withdrawn(id, 2, true).await.unwrap();
    let entrants = t.entrants(id).await.unwrap();
    assert_eq!(
        entrants
            .iter()
            .map(|e| (e.number, e.new.player_key.as_str(), e.withdrawn))
            .collect::<Vec<_>>(),
        [(1, "ga", false), (2, "gb", true), (3, "gd", false)]
    );

    t.set_event_status(id, "running", 3, 150).await.unwrap();
    let pairings = [
        NewPairing {
            round: 1,
            board: 1,
            first: 1,
            second: Some(3),
            result: None,
            created_at: 151,
        },
        NewPairing {
            round: 1,
            board: 2,
            first: 2,
            second: None,
            result: Some("bye".to_owned()),
            created_at: 151,
        },
    ];
    let ids = t.add_pairings(id, &pairings).await.unwrap();
    assert_eq!(ids.len(), 2);
    t.set_pairing_game(ids[0], "room1", 77).await.unwrap();
    assert!(t.set_pairing_result(ids[0], "first", 160).await.unwrap());
    assert!(
        !t.set_pairing_result(ids[0], "second", 161).await.unwrap(),
        "a result is stored once"
    );
    let stored = t.pairings(id).await.unwrap();
    assert_eq!(stored[0].new.result.as_deref(), Some("first"));
    assert_eq!(
        (
            stored[0].room.as_deref(),
            stored[0].game_id,
            stored[0].ended_at
        ),
        (Some("room1"), Some(77), Some(160))
    );
    assert_eq!(stored[1].new.second, None);
    assert_eq!(
        stored[1].ended_at,
        Some(151),
        "a bye is over as it is paired"
    );

    t.set_event_status(id, "finished", 3, 170).await.unwrap();
    let e = t.event(id).await.unwrap().unwrap();
    assert_eq!(
        (e.status.as_str(), e.started_at, e.finished_at),
        ("finished", Some(150), Some(170))
    );
    assert_eq!(t.events_with_status("finished", 10).await.unwrap().len(), 1);
    assert!(t.event(id + 1000).await.unwrap().is_none());
}
