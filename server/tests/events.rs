//! Events (issue #34) over real HTTP and WebSockets against the real app on port 0 with a hand-driven clock: a
//! Swiss of 7 over 3 rounds (one bye a round, no rematch, withdrawal, the TRF file), a round robin in the Berger
//! tables' order, an arena pairing again on each finish (avoiding the last opponent) and doubling a streak, an
//! absent arena player paused, a restart that resumes a running Swiss (SQLite, and Postgres with
//! `TEST_DATABASE_URL`), and the limits at their boundaries.

#[path = "common/mod.rs"]
mod common;

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use common::*;
use protocol::{ClientMessage, JoinRole};
use serde_json::{json, Value};
use testkit::postgres::FreshSchema;

/// Past any start time a test gives (`starts_in`), on the server's hand-driven clock.
const PAST_START: Duration = Duration::from_secs(120);

fn othello() -> Value {
    json!({"game": "othello", "scoring": "japanese"})
}

/// A start a minute from now (the events task then waits for the test to move the clock).
fn starts_in() -> i64 {
    server::time::unix_ms() + 60_000
}

struct Player {
    name: String,
    token: String,
    client: Client,
}

async fn player(server: &TestServer, name: &str) -> Player {
    let r = server.registered(name).await;
    Player {
        name: name.to_owned(),
        token: r.token,
        client: r.client,
    }
}

/// A request with an optional bearer token and JSON body: the status and the JSON body (`null` when none).
async fn call(
    server: &TestServer,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let http = reqwest::Client::new();
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut request = http.request(method, server.url(path));
    if let Some(t) = token {
        request = request.bearer_auth(t);
    }
    if let Some(b) = body {
        request = request.json(&b);
    }
    let response = tokio::time::timeout(WAIT, request.send())
        .await
        .expect("an answer in time")
        .expect("an answer");
    let status = response.status().as_u16();
    let text = response.text().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn create(server: &TestServer, token: &str, body: Value) -> i64 {
    let (status, reply) = call(server, "POST", "/api/events", Some(token), Some(body)).await;
    assert_eq!(status, 201, "{reply}");
    reply["id"].as_i64().expect("an id")
}

async fn join(server: &TestServer, id: i64, p: &Player) {
    let (status, reply) = call(
        server,
        "POST",
        &format!("/api/events/{id}/join"),
        Some(&p.token),
        None,
    )
    .await;
    assert_eq!(status, 200, "{} joins: {reply}", p.name);
}

async fn event(server: &TestServer, id: i64) -> Value {
    let (status, body) = server.get_json(&format!("/api/events/{id}")).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Reads the event until `done` holds (the events task acts on what rooms report, a moment after the game
/// ends).
async fn until(server: &TestServer, id: i64, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let e = event(server, id).await;
        if done(&e) {
            return e;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "waited for {what}: {e:#}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn name_of(e: &Value, number: &Value) -> String {
    e["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["number"] == *number)
        .map(|x| x["name"].as_str().unwrap().to_owned())
        .expect("an entrant")
}

/// The games being played (pairings with a room and no result).
fn open_games(e: &Value) -> Vec<Value> {
    e["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["result"].is_null() && p["second"].is_number() && p["room"].is_string())
        .cloned()
        .collect()
}

/// Whether every game paired has its room (a pairing is stored before its room is opened).
fn opened(e: &Value) -> bool {
    e["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| !p["result"].is_null() || p["room"].is_string())
}

/// How a game is to end.
#[derive(Clone, Copy)]
enum End {
    FirstWins,
    SecondWins,
    Draw,
}

/// Both players of a pairing come to their room; the game ends as asked (a resignation, or a draw offered and
/// accepted).
async fn play(players: &mut HashMap<String, Player>, e: &Value, pairing: &Value, end: End) {
    let room = pairing["room"].as_str().expect("a room").to_owned();
    let first = name_of(e, &pairing["first"]);
    let second = name_of(e, &pairing["second"]);
    for n in [&first, &second] {
        let snapshot = players
            .get_mut(n)
            .unwrap()
            .client
            .join(&room, JoinRole::Player)
            .await;
        assert_eq!(snapshot.id, room);
    }
    // The player who ends the game has the game's end as the answer; the other hears it.
    let other = match end {
        End::FirstWins | End::SecondWins => {
            let (loser, winner) = if matches!(end, End::FirstWins) {
                (&second, &first)
            } else {
                (&first, &second)
            };
            let c = &mut players.get_mut(loser).unwrap().client;
            let r = c.act(ClientMessage::Resign { room: room.clone() }).await;
            assert!(r.is_ok(), "{loser} resigns: {r:?}");
            winner
        }
        End::Draw => {
            let c = &mut players.get_mut(&first).unwrap().client;
            let _ = c
                .request(ClientMessage::OfferDraw { room: room.clone() })
                .await;
            let c = &mut players.get_mut(&second).unwrap().client;
            let r = c
                .act(ClientMessage::AnswerDraw {
                    room: room.clone(),
                    accept: true,
                })
                .await;
            assert!(r.is_ok(), "the draw is agreed: {r:?}");
            &first
        }
    };
    let _ = players.get_mut(other).unwrap().client.game_over().await;
    for n in [&first, &second] {
        let c = &mut players.get_mut(n).unwrap().client;
        let _ = c.request(ClientMessage::Leave { room: room.clone() }).await;
    }
}

async fn players(server: &TestServer, names: &[&str]) -> HashMap<String, Player> {
    let mut out = HashMap::new();
    for n in names {
        out.insert(n.to_string(), player(server, n).await);
    }
    out
}

fn round_of(e: &Value, round: u64) -> Vec<Value> {
    e["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["round"] == round)
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_swiss_of_seven_over_three_rounds_gives_one_bye_a_round_and_never_a_rematch() {
    let (server, _db) = TestServer::start().await;
    let names = ["ann", "ben", "cat", "dan", "eve", "fay", "gus"];
    let mut ps = players(&server, &names).await;
    let id = create(
        &server,
        &ps["ann"].token,
        json!({"name": "Tuesday Swiss", "kind": "swiss", "game": othello(), "rounds": 3, "starts_at": starts_in()}),
    )
    .await;
    for n in names {
        join(&server, id, &ps[n]).await;
    }
    let e = event(&server, id).await;
    assert_eq!(e["event"]["status"], "upcoming");
    server.advance(PAST_START);
    let mut met: HashSet<(u64, u64)> = HashSet::new();
    let mut byes: HashSet<u64> = HashSet::new();
    for round in 1..=3u64 {
        let e = until(&server, id, "the round's pairing", |e| {
            e["round"] == round && opened(e)
        })
        .await;
        assert_eq!(e["event"]["status"], "running");
        let pairings = round_of(&e, round);
        let games: Vec<&Value> = pairings
            .iter()
            .filter(|p| p["second"].is_number())
            .collect();
        let bye: Vec<&Value> = pairings.iter().filter(|p| p["second"].is_null()).collect();
        assert_eq!(games.len(), 3, "three boards in round {round}");
        assert_eq!(bye.len(), 1, "one bye in round {round}");
        assert_eq!(bye[0]["result"], "bye");
        assert!(
            byes.insert(bye[0]["first"].as_u64().unwrap()),
            "a second bye for one player"
        );
        for g in &games {
            let (a, b) = (g["first"].as_u64().unwrap(), g["second"].as_u64().unwrap());
            assert!(met.insert((a.min(b), a.max(b))), "{a} and {b} meet twice");
        }
        for g in games {
            play(&mut ps, &e, g, End::FirstWins).await;
        }
    }
    let e = until(&server, id, "the end", |e| {
        e["event"]["status"] == "finished"
    })
    .await;
    let total: f64 = e["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_f64().unwrap())
        .sum();
    // Three games and a bye (a win's point) a round.
    assert_eq!(total, 12.0);
    assert_eq!(e["podium"].as_array().unwrap().len(), 3);
    assert_eq!(e["standings"][0]["tie_breaks"].as_array().unwrap().len(), 4);
    assert_eq!(e["crosstable"].as_array().unwrap().len(), 7);
    assert_eq!(e["crosstable"][0]["rounds"].as_array().unwrap().len(), 3);
    let (status, _, trf) = server.get(&format!("/api/events/{id}/trf")).await;
    assert_eq!(status, 200);
    let lines = trf.lines().filter(|l| l.starts_with("001")).count();
    assert_eq!(lines, 7, "a player line each:\n{trf}");
    server.stop().await;
}

#[tokio::test]
async fn a_withdrawn_swiss_entrant_is_not_paired_in_the_next_round() {
    let (server, _db) = TestServer::start().await;
    let names = ["ann", "ben", "cat", "dan"];
    let mut ps = players(&server, &names).await;
    let id = create(
        &server,
        &ps["ann"].token,
        json!({"name": "Small Swiss", "kind": "swiss", "game": othello(), "rounds": 2, "starts_at": starts_in()}),
    )
    .await;
    for n in names {
        join(&server, id, &ps[n]).await;
    }
    server.advance(PAST_START);
    let e = until(&server, id, "round 1", |e| e["round"] == 1 && opened(e)).await;
    let (status, _) = call(
        &server,
        "POST",
        &format!("/api/events/{id}/withdraw"),
        Some(&ps["dan"].token),
        None,
    )
    .await;
    assert_eq!(status, 204);
    for g in round_of(&e, 1) {
        play(&mut ps, &e, &g, End::Draw).await;
    }
    let e = until(&server, id, "round 2", |e| e["round"] == 2 && opened(e)).await;
    let dan = e["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "dan")
        .unwrap()["number"]
        .clone();
    let round2 = round_of(&e, 2);
    assert!(
        round2
            .iter()
            .all(|p| p["first"] != dan && p["second"] != dan),
        "{round2:?}"
    );
    assert_eq!(round2.len(), 2, "one game and a bye: {round2:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_round_robin_is_played_in_the_berger_tables_order() {
    let (server, _db) = TestServer::start().await;
    let names = ["ann", "ben", "cat", "dan"];
    let mut ps = players(&server, &names).await;
    let id = create(
        &server,
        &ps["ann"].token,
        json!({"name": "Club round robin", "kind": "round_robin", "game": othello(), "starts_at": starts_in()}),
    )
    .await;
    for n in names {
        join(&server, id, &ps[n]).await;
    }
    server.advance(PAST_START);
    // Equal ratings: the Berger numbers are the entry order.
    let table = tournament::berger::round_robin(4).unwrap();
    for (r, expected) in table.iter().enumerate() {
        let round = r as u64 + 1;
        let e = until(&server, id, "the round", |e| {
            e["round"] == round && opened(e)
        })
        .await;
        assert_eq!(e["event"]["rounds"], 3);
        let got: Vec<(u64, u64)> = round_of(&e, round)
            .iter()
            .map(|p| (p["first"].as_u64().unwrap(), p["second"].as_u64().unwrap()))
            .collect();
        let want: Vec<(u64, u64)> = expected
            .games
            .iter()
            .map(|g| (u64::from(g.white), u64::from(g.black)))
            .collect();
        assert_eq!(got, want, "round {round}");
        for g in round_of(&e, round) {
            play(&mut ps, &e, &g, End::Draw).await;
        }
    }
    let e = until(&server, id, "the end", |e| {
        e["event"]["status"] == "finished"
    })
    .await;
    for s in e["standings"].as_array().unwrap() {
        assert_eq!(s["score"], 1.5, "{s}");
        assert_eq!(s["place"], 1);
    }
    let (status, body) = server.get_json(&format!("/api/events/{id}/trf")).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_a_swiss")));
    server.stop().await;
}

#[tokio::test]
async fn an_arena_pairs_again_avoiding_the_last_opponent_and_doubles_a_streak() {
    let (server, _db) = TestServer::start().await;
    let names = ["ann", "ben", "cat"];
    let mut ps = players(&server, &names).await;
    let id = create(
        &server,
        &ps["ann"].token,
        json!({"name": "Hourly arena", "kind": "arena", "game": othello(), "duration_minutes": 60, "starts_at": starts_in()}),
    )
    .await;
    for n in names {
        join(&server, id, &ps[n]).await;
    }
    server.advance(PAST_START);
    let e = until(&server, id, "the first game", |e| open_games(e).len() == 1).await;
    let first = open_games(&e).remove(0);
    let (a, b) = (first["first"].clone(), first["second"].clone());
    play(&mut ps, &e, &first, End::FirstWins).await;
    let e = until(&server, id, "the second game", |e| {
        e["pairings"].as_array().unwrap().len() == 2 && open_games(e).len() == 1
    })
    .await;
    let second = open_games(&e).remove(0);
    let pair = [second["first"].clone(), second["second"].clone()];
    assert!(
        !(pair.contains(&a) && pair.contains(&b)),
        "the last opponents are not paired again while a third player waits"
    );
    // And again: the player who waited meets someone, whoever's last opponent the leader was.
    play(&mut ps, &e, &second, End::FirstWins).await;
    let e = until(&server, id, "the third game", |e| {
        e["pairings"].as_array().unwrap().len() == 3 && open_games(e).len() == 1
    })
    .await;
    let third = open_games(&e).remove(0);
    let left_out = names
        .iter()
        .map(|n| {
            e["entrants"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["name"] == *n)
                .unwrap()["number"]
                .clone()
        })
        .find(|n| *n != second["first"] && *n != second["second"])
        .unwrap();
    assert!(
        third["first"] == left_out || third["second"] == left_out,
        "the player left out of the second game plays the third: {third}"
    );
    server.stop().await;
}

#[tokio::test]
async fn an_arena_streak_scores_double_and_the_podium_stands_at_the_end() {
    let (server, _db) = TestServer::start().await;
    let names = ["ann", "ben"];
    let mut ps = players(&server, &names).await;
    let id = create(
        &server,
        &ps["ann"].token,
        json!({"name": "Duel arena", "kind": "arena", "game": othello(), "duration_minutes": 30, "starts_at": starts_in()}),
    )
    .await;
    for n in names {
        join(&server, id, &ps[n]).await;
    }
    server.advance(PAST_START);
    for game in 1..=3usize {
        let e = until(&server, id, "the next game", |e| {
            e["pairings"].as_array().unwrap().len() == game && open_games(e).len() == 1
        })
        .await;
        let g = open_games(&e).remove(0);
        let ann_first = name_of(&e, &g["first"]) == "ann";
        play(
            &mut ps,
            &e,
            &g,
            if ann_first {
                End::FirstWins
            } else {
                End::SecondWins
            },
        )
        .await;
        let e = until(&server, id, "the result", |e| open_games(e).is_empty()).await;
        let ann = &e["standings"][0];
        assert_eq!(ann["name"], "ann");
        // 2, then 2, then doubled on fire: 4.
        assert_eq!(ann["score"], [2.0, 4.0, 8.0][game - 1], "after game {game}");
        assert_eq!(ann["on_fire"], game >= 2);
        // Only the two of them: a rematch waits until both waited.
        server.advance(Duration::from_secs(11));
    }
    server.advance(Duration::from_secs(30 * 60));
    let e = until(&server, id, "the end", |e| {
        e["event"]["status"] == "finished"
    })
    .await;
    assert_eq!(e["podium"], json!(["ann", "ben"]));
    assert_eq!(e["standings"][1]["score"], 0.0);
    server.stop().await;
}

#[tokio::test]
async fn an_arena_player_who_does_not_come_to_the_game_is_paused() {
    let (server, _db) = TestServer::start().await;
    let ps = players(&server, &["ann", "ben"]).await;
    let id = create(
        &server,
        &ps["ann"].token,
        json!({"name": "Arena", "kind": "arena", "game": othello(), "duration_minutes": 30, "starts_at": starts_in()}),
    )
    .await;
    for n in ["ann", "ben"] {
        join(&server, id, &ps[n]).await;
    }
    server.advance(PAST_START);
    let e = until(&server, id, "the game", |e| open_games(e).len() == 1).await;
    let room = open_games(&e)[0]["room"].as_str().unwrap().to_owned();
    let mut ps = ps;
    ps.get_mut("ann")
        .unwrap()
        .client
        .join(&room, JoinRole::Player)
        .await;
    // Ben never comes: past the grace period (60 s) the room aborts the game (no move was made).
    server.advance(Duration::from_secs(90));
    // The result is stored, then the absent player is paused.
    let e = until(&server, id, "the void game and the pause", |e| {
        open_games(e).is_empty()
            && e["entrants"]
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x["withdrawn"] == true)
    })
    .await;
    assert_eq!(e["pairings"][0]["result"], "void");
    let ben = e["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "ben")
        .unwrap()
        .clone();
    let ann = e["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "ann")
        .unwrap()
        .clone();
    assert_eq!(ben["withdrawn"], true, "the absent player is paused");
    assert_eq!(ann["withdrawn"], false);
    server.stop().await;
}

async fn a_restart_resumes_a_running_swiss(db: Db) {
    let server = TestServer::start_on(&db, test_config()).await;
    let names = ["ann", "ben", "cat", "dan"];
    let mut ps = players(&server, &names).await;
    let id = create(
        &server,
        &ps["ann"].token,
        json!({"name": "Resumed Swiss", "kind": "swiss", "game": othello(), "rounds": 2, "starts_at": starts_in()}),
    )
    .await;
    for n in names {
        join(&server, id, &ps[n]).await;
    }
    server.advance(PAST_START);
    let e = until(&server, id, "round 1", |e| e["round"] == 1 && opened(e)).await;
    let boards = round_of(&e, 1);
    assert_eq!(boards.len(), 2);
    play(&mut ps, &e, &boards[0], End::FirstWins).await;
    let before = until(&server, id, "the first result", |e| {
        open_games(e).len() == 1
    })
    .await;
    server.stop().await;
    for (_, p) in ps.drain() {
        p.client.drop_connection();
    }

    let server = TestServer::start_on(&db, test_config()).await;
    let after = event(&server, id).await;
    assert_eq!(after["standings"], before["standings"]);
    assert_eq!(after["pairings"], before["pairings"]);
    assert_eq!(after["event"]["status"], "running");
    // The game still being played is the restored room's; when it ends the next round is paired.
    let mut ps = HashMap::new();
    for n in names {
        let r = server
            .registered_as(server.state.store.user_by_name(n).await.unwrap().unwrap())
            .await;
        ps.insert(
            n.to_owned(),
            Player {
                name: n.to_owned(),
                token: r.token,
                client: r.client,
            },
        );
    }
    let open = open_games(&after).remove(0);
    play(&mut ps, &after, &open, End::SecondWins).await;
    let e = until(&server, id, "round 2", |e| e["round"] == 2 && opened(e)).await;
    assert_eq!(round_of(&e, 2).len(), 2);
    server.stop().await;
}

#[tokio::test]
async fn a_restarted_server_resumes_a_running_swiss_on_sqlite() {
    a_restart_resumes_a_running_swiss(Db::sqlite()).await;
}

#[tokio::test]
async fn a_restarted_server_resumes_a_running_swiss_on_postgres() {
    let Some(schema) = FreshSchema::of_test_database("events").await else {
        eprintln!("TEST_DATABASE_URL is not set: the Postgres variant runs in CI (.ci/run)");
        return;
    };
    let mut db = Db::postgres().expect("set");
    db.url = schema.url.clone();
    a_restart_resumes_a_running_swiss(db).await;
    schema.drop().await;
}

async fn refusal(server: &TestServer, token: &str, body: Value) -> (u16, String) {
    let (status, reply) = call(server, "POST", "/api/events", Some(token), Some(body)).await;
    (
        status,
        reply["code"].as_str().unwrap_or_default().to_owned(),
    )
}

#[tokio::test]
async fn an_event_is_refused_outside_its_limits_and_accepted_at_them() {
    let (server, _db) = TestServer::start().await;
    let mut tokens = Vec::new();
    for i in 0..8 {
        tokens.push(player(&server, &format!("maker{i}")).await.token);
    }
    let base = || json!({"name": "x", "kind": "swiss", "game": othello(), "rounds": 3, "starts_at": starts_in()});
    let with = |k: &str, v: Value| {
        let mut b = base();
        b[k] = v;
        b
    };
    let t = &tokens[0];
    let cases = [
        (with("name", json!("")), "invalid_name"),
        (with("name", json!("n".repeat(61))), "invalid_name"),
        (with("kind", json!("knockout")), "invalid_kind"),
        (with("rounds", json!(0)), "invalid_rounds"),
        (with("rounds", json!(16)), "invalid_rounds"),
        (
            with(
                "starts_at",
                json!(server::time::unix_ms() + 30 * 24 * 3600 * 1000 + 60_000),
            ),
            "invalid_start",
        ),
        (
            with("starts_at", json!(server::time::unix_ms() - 3_600_000)),
            "invalid_start",
        ),
        (with("password", json!("")), "invalid_password"),
        (with("password", json!("p".repeat(65))), "invalid_password"),
        (
            json!({"name": "a", "kind": "arena", "game": othello(), "duration_minutes": 0}),
            "invalid_duration",
        ),
        (
            json!({"name": "a", "kind": "arena", "game": othello(), "duration_minutes": 721}),
            "invalid_duration",
        ),
        (with("surprise", json!(1)), "invalid_body"),
    ];
    for (body, code) in cases {
        assert_eq!(
            refusal(&server, t, body.clone()).await,
            (400, code.to_owned()),
            "{body}"
        );
    }
    // At the limits.
    let accepted = [
        with("name", json!("n".repeat(60))),
        with("rounds", json!(15)),
        with(
            "starts_at",
            json!(server::time::unix_ms() + 30 * 24 * 3600 * 1000 - 60_000),
        ),
        with("password", json!("p".repeat(64))),
        json!({"name": "a", "kind": "arena", "game": othello(), "duration_minutes": 720, "starts_at": starts_in()}),
    ];
    for (i, body) in accepted.into_iter().enumerate() {
        let (status, reply) = call(
            &server,
            "POST",
            "/api/events",
            Some(&tokens[i + 1]),
            Some(body.clone()),
        )
        .await;
        assert_eq!(status, 201, "{body}: {reply}");
    }
    // Five open events a maker; the sixth waits.
    for _ in 0..5 {
        create(&server, &tokens[7], base()).await;
    }
    assert_eq!(
        refusal(&server, &tokens[7], base()).await,
        (429, "too_many_events".to_owned())
    );
    // No session, no event.
    let (status, reply) = call(&server, "POST", "/api/events", None, Some(base())).await;
    assert_eq!(
        (status, reply["code"].as_str()),
        (401, Some("not_authenticated"))
    );
    let (status, reply) = server.get_json("/api/events/999999").await;
    assert_eq!(
        (status, reply["code"].as_str()),
        (404, Some("no_such_event"))
    );
    let (status, reply) = server.get_json("/api/events/nope").await;
    assert_eq!(
        (status, reply["code"].as_str()),
        (404, Some("no_such_event"))
    );
    let (status, list) = server.get_json("/api/events").await;
    assert_eq!(status, 200);
    assert_eq!(list["upcoming"].as_array().unwrap().len(), 10);
    server.stop().await;
}

#[tokio::test]
async fn joining_is_checked_password_account_and_the_entrant_limit() {
    let (server, _db) = TestServer::start().await;
    let maker = player(&server, "maker").await;
    let private = create(
        &server,
        &maker.token,
        json!({"name": "Private", "kind": "swiss", "game": othello(), "rounds": 3, "starts_at": starts_in(), "password": "sesame"}),
    )
    .await;
    let path = format!("/api/events/{private}/join");
    let (status, reply) = call(
        &server,
        "POST",
        &path,
        Some(&maker.token),
        Some(json!({"password": "open"})),
    )
    .await;
    assert_eq!(
        (status, reply["code"].as_str()),
        (403, Some("wrong_password"))
    );
    let (status, reply) = call(
        &server,
        "POST",
        &path,
        Some(&maker.token),
        Some(json!({"password": "sesame"})),
    )
    .await;
    assert_eq!(status, 200, "{reply}");
    let (status, reply) = call(
        &server,
        "POST",
        &path,
        Some(&maker.token),
        Some(json!({"password": "sesame"})),
    )
    .await;
    assert_eq!(
        (status, reply["code"].as_str()),
        (409, Some("already_entered"))
    );

    let rated = create(
        &server,
        &maker.token,
        json!({"name": "Rated", "kind": "arena", "game": othello(), "duration_minutes": 10, "rated": true, "starts_at": starts_in()}),
    )
    .await;
    // A guest's session (the token `welcome` gave it).
    let guest = server.client().await;
    let (status, reply) = call(
        &server,
        "POST",
        &format!("/api/events/{rated}/join"),
        Some(&guest.token),
        None,
    )
    .await;
    assert_eq!(
        (status, reply["code"].as_str()),
        (403, Some("account_required"))
    );

    let open = create(
        &server,
        &maker.token,
        json!({"name": "Crowded", "kind": "swiss", "game": othello(), "rounds": 3, "starts_at": starts_in()}),
    )
    .await;
    let store = &server.state.store;
    let mut last = None;
    for i in 0..=server::events::MAX_ENTRANTS {
        let user = store
            .create_user(&format!("p{i}"), "not-a-real-hash", 0)
            .await
            .unwrap();
        let token = server::identity::new_token();
        store
            .create_session(
                &server::identity::hash_token(&token),
                &store::SessionOwner::User(user),
                i64::MAX,
            )
            .await
            .unwrap();
        let (status, reply) = call(
            &server,
            "POST",
            &format!("/api/events/{open}/join"),
            Some(&token),
            None,
        )
        .await;
        last = Some((i, status, reply));
        if i < server::events::MAX_ENTRANTS {
            assert_eq!(last.as_ref().unwrap().1, 200, "entrant {i}");
        }
    }
    let (_, status, reply) = last.unwrap();
    assert_eq!((status, reply["code"].as_str()), (409, Some("event_full")));
    server.stop().await;
}
