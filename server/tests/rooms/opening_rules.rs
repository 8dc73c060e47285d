//! Gomoku rooms under the opening rules of issue #19 over real WebSockets with the typed client: a Swap2 game
//! and a Soosõrv-8 game played to the end (the clock running for whoever must act, refusals with their codes,
//! colours following the swaps), a restart in the middle of Soosõrv's opening, and the computer refusing these
//! openings. Such rooms speak the generic form (`game`, `view`, `act`, `action`).

use crate::common;

use std::time::Duration;

use common::*;
use games::{AnyGame, Game as _};
use protocol::{GameSpec, GameView, TimeControl};
use rules::{Color, ForbiddenPolicy, Opening, RuleSet};
use testkit::game_table::GameTable;

fn gomoku(rule_set: RuleSet, opening: Opening) -> GameSpec {
    GameSpec::Gomoku(protocol::GomokuSpec {
        size: 15,
        rule_set,
        forbidden_policy: ForbiddenPolicy::Reject,
        opening,
    })
}

const FISCHER: TimeControl = TimeControl::Fischer {
    base_ms: 60_000,
    increment_ms: 0,
};

async fn play_line(t: &mut GameTable, line: &[&str]) {
    for text in line {
        t.play(text)
            .await
            .unwrap_or_else(|code| panic!("{text} refused: {code}"));
    }
}

fn phase(t: &GameTable) -> rules::Phase {
    match t.game() {
        AnyGame::Gomoku(g) => match g.rules_game().status() {
            rules::Status::Ongoing { phase, .. } => phase,
            other => panic!("over: {other:?}"),
        },
        other => panic!("a Gomoku game, not {other:?}"),
    }
}

async fn running(t: &mut GameTable) -> Option<Color> {
    t.snapshot().await.clocks.expect("a clocked game").running
}

#[tokio::test]
async fn a_swap2_game_with_two_extra_stones_and_a_swap_is_played_to_a_five() {
    let (server, _db) = TestServer::start().await;
    let mut t = GameTable::open(&server, gomoku(RuleSet::Freestyle, Opening::Swap2), FISCHER).await;
    let (creator, joiner) = (t.black.name.clone(), t.white.name.clone());
    // The creator places black, white, black; its clock runs all the while.
    play_line(&mut t, &["h8", "a15"]).await;
    assert_eq!(phase(&t), rules::Phase::PlaceOpening);
    assert_eq!(running(&mut t).await, Some(Color::Black));
    play_line(&mut t, &["i8"]).await;
    assert_eq!(phase(&t), rules::Phase::Swap2Decision);
    assert_eq!(running(&mut t).await, Some(Color::White));
    assert_eq!(t.play("h7").await, Err("swap_decision_pending".into()));
    assert_eq!(
        t.play("declare:2").await,
        Err("no_declaration_expected".into())
    );
    // The joiner places two more stones and leaves the choice to the creator, who takes white.
    play_line(&mut t, &["add:a14,j8"]).await;
    assert_eq!(phase(&t), rules::Phase::SwapDecision);
    assert_eq!(
        running(&mut t).await,
        Some(Color::Black),
        "the creator decides"
    );
    play_line(&mut t, &["swap"]).await;
    assert_eq!(
        t.replica.names[Color::White as usize].as_deref(),
        Some(creator.as_str())
    );
    assert_eq!(
        t.replica.names[Color::Black as usize].as_deref(),
        Some(joiner.as_str())
    );
    assert_eq!(t.replica.to_act, Some(Color::White), "white plays move 6");
    let snap = t.snapshot().await;
    assert_eq!(snap.seats.white.map(|s| s.name), Some(creator.clone()));
    let Some(GameView::Gomoku(view)) = &snap.view else {
        panic!("the generic view: {:?}", snap.view);
    };
    assert!(view.swapped);
    assert_eq!(view.actions, ["h8", "a15", "i8", "add:a14,j8", "swap"]);
    play_line(&mut t, &["a13", "k8", "a12", "g8"]).await;
    let result = t.follow_to_end().await;
    assert_eq!(result.winner, Some(Color::Black));
    assert_eq!(result.reason, "five");
    assert_eq!(
        t.replica.names[Color::Black as usize].as_deref(),
        Some(joiner.as_str())
    );
    server.stop().await;
}

/// Soosõrv-8 up to white's declaration: 4D (Kagetsu), white keeps, plays a1 and declares two fifth moves.
const SOOSORV_TO_DECLARATION: [&str; 6] = ["h8", "h9", "i9", "keep", "a1", "declare:2"];

#[tokio::test]
async fn a_soosorv_8_game_is_played_to_a_five_through_both_swaps_and_two_offers() {
    let (server, _db) = TestServer::start().await;
    let mut t = GameTable::open(&server, gomoku(RuleSet::Renju, Opening::SOOSORV_8), FISCHER).await;
    let (creator, joiner) = (t.black.name.clone(), t.white.name.clone());
    play_line(&mut t, &["h8", "h9"]).await;
    assert_eq!(t.play("k8").await, Err("not_a_canonical_opening".into()));
    play_line(&mut t, &["i9"]).await;
    let snap = t.snapshot().await;
    let Some(GameView::Gomoku(view)) = &snap.view else {
        panic!("the generic view");
    };
    assert_eq!(
        view.opening_name.as_ref().map(|o| o.romaji.as_str()),
        Some("Kagetsu")
    );
    play_line(&mut t, &["keep", "a1"]).await;
    assert_eq!(phase(&t), rules::Phase::DeclareOffers { max: 8 });
    assert_eq!(
        t.play("declare:9").await,
        Err("declaration_out_of_range".into())
    );
    play_line(&mut t, &["declare:2"]).await;
    assert_eq!(running(&mut t).await, Some(Color::Black), "black may swap");
    play_line(&mut t, &["swap"]).await;
    assert_eq!(
        t.replica.names[Color::Black as usize].as_deref(),
        Some(joiner.as_str())
    );
    assert_eq!(phase(&t), rules::Phase::OfferFifths { count: 2 });
    let snap = t.snapshot().await;
    let Some(GameView::Gomoku(view)) = &snap.view else {
        panic!("the generic view");
    };
    assert_eq!(view.offer_count, Some(2));
    assert_eq!(
        t.play("offer:j10").await,
        Err("wrong_number_of_offers".into())
    );
    play_line(&mut t, &["offer:j10,a15"]).await;
    assert_eq!(t.replica.to_act, Some(Color::White));
    let snap = t.snapshot().await;
    let Some(GameView::Gomoku(view)) = &snap.view else {
        panic!("the generic view");
    };
    assert_eq!(view.offers, Some(vec![p("j10"), p("a15")]));
    assert_eq!(t.play("choose:a14").await, Err("not_a_fifth_option".into()));
    play_line(&mut t, &["choose:j10", "a2", "k11", "a3", "l12"]).await;
    let result = t.follow_to_end().await;
    assert_eq!(result.winner, Some(Color::Black));
    assert_eq!(result.reason, "five");
    assert_eq!(
        t.replica.names[Color::White as usize].as_deref(),
        Some(creator.as_str())
    );
    // The record keeps every decision with who made it: the creator's three opening stones, the joiner's keep,
    // fourth stone and declaration, the creator's swap, the joiner's offers (black now), the creator's choice.
    let (status, record) = server.get_json(&format!("/api/games/{}", t.record)).await;
    assert_eq!(status, 200, "{record}");
    let made: Vec<(String, String)> = record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["notation"].as_str().unwrap().to_owned(),
                a["by"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let (c, j) = (creator.as_str(), joiner.as_str());
    let want = [
        ("h8", c),
        ("h9", c),
        ("i9", c),
        ("keep", j),
        ("a1", j),
        ("declare:2", j),
        ("swap", c),
        ("offer:j10,a15", j),
        ("choose:j10", c),
        ("a2", c),
        ("k11", j),
        ("a3", c),
        ("l12", j),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(n, b)| ((*n).to_owned(), (*b).to_owned()))
        .collect();
    assert_eq!(made, want);
    server.stop().await;
}

#[tokio::test]
async fn a_restarted_server_resumes_a_soosorv_game_in_the_middle_of_its_opening() {
    let db = Db::sqlite();
    let server = TestServer::start_on(&db, test_config()).await;
    let mut t = GameTable::open(&server, gomoku(RuleSet::Renju, Opening::SOOSORV_8), FISCHER).await;
    server.advance(Duration::from_secs(2));
    play_line(&mut t, &SOOSORV_TO_DECLARATION).await;
    let before = t.replica.game.clone();
    let (room, game_id, record) = (t.room.clone(), t.game_id, t.record.clone());
    let tokens = [t.black.token.clone(), t.white.token.clone()];
    server.stop().await;

    let server = TestServer::start_on(&db, test_config()).await;
    let mut t = GameTable::resume(
        &server,
        &room,
        [tokens[0].as_str(), tokens[1].as_str()],
        game_id,
        &record,
    )
    .await;
    assert_eq!(t.replica.game, before);
    assert_eq!(t.replica.to_act, Some(Color::Black));
    assert_eq!(phase(&t), rules::Phase::SwapDecision);
    let clocks = t.snapshot().await.clocks.expect("a clocked game");
    assert_eq!(clocks.running, Some(Color::Black));
    assert_eq!(
        clocks.black.remaining_ms, 58_000,
        "the first stone took 2 s"
    );
    play_line(&mut t, &["swap", "offer:j10,a15", "choose:a15"]).await;
    assert_eq!(t.replica.to_act, Some(Color::White));
    assert_eq!(t.game().ply(), 5);
    server.stop().await;
}

#[tokio::test]
async fn a_bad_n_is_refused_with_its_code() {
    let (server, _db) = TestServer::start().await;
    let mut c = server.client().await;
    let reply = c
        .request(testkit::game_table::create_game(
            gomoku(RuleSet::Renju, Opening::Soosorv { n: 11 }),
            TimeControl::None,
            protocol::ColourChoice::Black,
        ))
        .await;
    assert_eq!(error_code(reply), "bad_opening_count");
    server.stop().await;
}

#[tokio::test]
async fn a_rated_swap_game_the_second_player_never_acted_in_is_aborted() {
    // #35: under Swap1, Swap2 and Soosõrv the first player places three stones alone, which passed the
    // "both sides moved" rule (two stones) and let a game the second player never touched change ratings.
    let (server, _db) = TestServer::start().await;
    for opening in [Opening::Swap1, Opening::Swap2, Opening::SOOSORV_8] {
        let black = server
            .registered(&format!("booster{}", opening_tag(opening)))
            .await;
        let white = server
            .registered(&format!("target{}", opening_tag(opening)))
            .await;
        let create = testkit::game_table::rated(testkit::game_table::create_game(
            gomoku(RuleSet::Renju, opening),
            TimeControl::None,
            protocol::ColourChoice::Black,
        ));
        let mut t = GameTable::seat(&server, black.client, white.client, create).await;
        play_line(&mut t, &["h8", "h9", "i8"]).await;
        let room = t.room.clone();
        // The second player, to decide, resigns without having acted.
        t.send(true, protocol::ClientMessage::Resign { room }).await;
        let result = t.follow_to_end().await;
        assert_eq!(result.reason, "aborted", "{opening:?}: {result:?}");
        assert_eq!(
            result.unrated.as_deref(),
            Some("too_few_moves"),
            "{opening:?}"
        );
        assert_eq!(result.ratings, None, "{opening:?}: no rating changed");
    }
}

fn opening_tag(opening: Opening) -> &'static str {
    match opening {
        Opening::Swap1 => "1",
        Opening::Swap2 => "2",
        _ => "s",
    }
}
