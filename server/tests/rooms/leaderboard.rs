//! Leaderboards, profiles, game lists and the tier table over real HTTP, with rated games arranged through the
//! store (which rates them as the rooms would). Every test runs on SQLite, and on Postgres when
//! `TEST_DATABASE_URL` is set.

use ratings::{Pool, Tier, TIERS};
use rules::{Color, ForbiddenPolicy, Rules};
use serde_json::json;
use store::User;
use testkit::accounts::{test_config, App, Db};
use testkit::on_both_stores;

/// JSON numbers read back within a rounding error of the stored `f64` (serde_json's default float parser is
/// not exact in the last bit).
fn assert_close(got: f64, want: f64) {
    assert!((got - want).abs() < 1e-9, "{got} != {want}");
}

async fn app(db: Db) -> App {
    App::start(db, test_config())
        .await
        .expect("store available")
}

/// The result of the `round`th game between players `i` and `j`: varied, so every rating moves both ways and
/// deviations fall steadily.
fn result(i: usize, j: usize, round: usize) -> Option<Color> {
    match (i * 7 + j * 3 + round) % 3 {
        0 => Some(Color::Black),
        1 => Some(Color::White),
        _ => None,
    }
}

/// Rounds of the regulars' round robin.
const ROUNDS: usize = 8;
/// Games each regular plays.
const REGULAR_GAMES: usize = 3 * ROUNDS;

/// Wall time now, in milliseconds: the leaderboard lists players whose last rated game is recent, so the arranged
/// games are played in the last hour.
fn now_ms() -> i64 {
    i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

/// A round robin of four players, `ROUNDS` rounds: each plays [`REGULAR_GAMES`] and, once established (after 10
/// games, the pool being new), meets the other three established.
async fn round_robin(app: &App, rules: Rules, players: &[User], at: &mut i64) {
    for round in 0..ROUNDS {
        for i in 0..4 {
            for j in i + 1..4 {
                *at += 10;
                let (b, w) = if round % 2 == 0 { (i, j) } else { (j, i) };
                app.rated_game(rules, &players[b], &players[w], result(i, j, round), *at)
                    .await;
            }
        }
    }
}

/// Arranges a renju pool: four regulars in a round robin ([`REGULAR_GAMES`] each), two players with 12 games
/// each between themselves (established, the pool being new, but with one established opponent only), one with 2
/// games; and four freestyle regulars.
async fn arrange(app: &App) -> (Vec<User>, Vec<User>) {
    let renju = Rules::renju(ForbiddenPolicy::Reject);
    let mut at = now_ms() - 3_600_000;
    let mut regulars = Vec::new();
    for name in ["Ann", "Ben", "Cid", "Dee"] {
        regulars.push(app.user(name).await);
    }
    round_robin(app, renju, &regulars, &mut at).await;
    let eve = app.user("Eve").await;
    let fay = app.user("Fay").await;
    for round in 0..12 {
        at += 10;
        app.rated_game(renju, &eve, &fay, result(0, 1, round), at)
            .await;
    }
    let gus = app.user("Gus").await;
    app.rated_game(renju, &gus, &eve, Some(Color::Black), at + 1)
        .await;
    app.rated_game(renju, &fay, &gus, Some(Color::White), at + 2)
        .await;
    let mut freestyle = Vec::new();
    for name in ["Hal", "Ivy", "Jon", "Kim"] {
        freestyle.push(app.user(name).await);
    }
    round_robin(app, Rules::freestyle(), &freestyle, &mut at).await;
    let mut others = vec![eve, fay, gus];
    others.extend(freestyle);
    (regulars, others)
}

/// Whether a standing is listed, by the rule of `ratings::established`.
fn listed(s: &store::PoolStanding) -> bool {
    let standing = ratings::established::Standing {
        games: s.games,
        established: s.established,
        established_opponents: s.established_opponents,
    };
    ratings::established::listed(&standing, &s.rating, s.last_game_at, now_ms())
}

/// The leaderboard computed from the store's standings: listed players and their order.
async fn expected(app: &App, users: &[User], pool: Pool) -> Vec<store::PoolStanding> {
    let mut listed_ones = Vec::new();
    for user in users {
        for s in app.store.standings(user.id).await.unwrap() {
            if s.pool == pool && listed(&s) {
                listed_ones.push(s);
            }
        }
    }
    listed_ones.sort_by(|a, b| b.rating.rating.total_cmp(&a.rating.rating));
    listed_ones
}

async fn the_leaderboard_lists_established_players_of_the_pool_by_rating(db: Db) {
    let app = app(db).await;
    let (regulars, others) = arrange(&app).await;
    let everyone: Vec<User> = regulars.iter().chain(&others).cloned().collect();
    let want = expected(&app, &everyone, server::gomoku::RENJU).await;
    // The arrangement must exercise every filter.
    assert_eq!(want.len(), 4, "the four regulars are listed");
    let eve = &app.store.standings(others[0].id).await.unwrap()[0];
    assert!(
        eve.games >= 10 && eve.established && eve.established_opponents == 1,
        "Eve: established, but with one established opponent: {eve:?}"
    );

    let body = app
        .get_json("/api/leaderboard?pool=renju&limit=50&offset=0", 200)
        .await;

    assert_eq!(body["pool"], "renju");
    assert_eq!(body["min_games"], 10);
    assert_eq!(body["min_opponents"], 3);
    assert_eq!(body["max_deviation"], 150.0);
    assert_eq!(body["active_days"], 30);
    let entries = body["entries"].as_array().unwrap();
    assert_eq!(entries.len(), want.len());
    for (i, (entry, s)) in entries.iter().zip(&want).enumerate() {
        assert_eq!(entry["rank"], i + 1);
        assert_eq!(entry["name"], s.name.as_str());
        assert_eq!(entry["pool"], "renju");
        assert_close(entry["rating"].as_f64().unwrap(), s.rating.rating);
        assert_close(entry["deviation"].as_f64().unwrap(), s.rating.deviation);
        assert_eq!(entry["provisional"], s.rating.is_provisional());
        assert_eq!(entry["tier"], Tier::of(&s.rating).name());
        assert_eq!(entry["tier_code"], Tier::of(&s.rating).code());
        assert_eq!(entry["games"], s.games);
        assert_eq!(
            (
                entry["wins"].clone(),
                entry["losses"].clone(),
                entry["draws"].clone()
            ),
            (json!(s.wins), json!(s.losses), json!(s.draws))
        );
        assert_eq!(s.games, s.wins + s.losses + s.draws);
    }
    let ratings: Vec<f64> = entries
        .iter()
        .map(|e| e["rating"].as_f64().unwrap())
        .collect();
    assert!(
        ratings.windows(2).all(|w| w[0] >= w[1]),
        "best first: {ratings:?}"
    );
    app.stop().await;
}

async fn each_pool_has_its_own_leaderboard(db: Db) {
    let app = app(db).await;
    let (_, others) = arrange(&app).await;

    let freestyle = app.get_json("/api/leaderboard?pool=freestyle", 200).await;
    let standard = app.get_json("/api/leaderboard?pool=standard", 200).await;

    let names: Vec<&str> = freestyle["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    let want: Vec<String> = expected(&app, &others, server::gomoku::FREESTYLE)
        .await
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, want);
    assert_eq!(names.len(), 4, "Hal, Ivy, Jon and Kim");
    assert_eq!(standard["entries"], json!([]));
    app.stop().await;
}

async fn the_leaderboard_pages_with_limit_and_offset(db: Db) {
    let app = app(db).await;
    arrange(&app).await;
    let all = app.get_json("/api/leaderboard?pool=renju", 200).await;

    let page = app
        .get_json("/api/leaderboard?pool=renju&limit=2&offset=1", 200)
        .await;

    let all = all["entries"].as_array().unwrap();
    let page = page["entries"].as_array().unwrap();
    assert_eq!(page.len(), 2);
    assert_eq!(page[0]["name"], all[1]["name"]);
    assert_eq!(page[1]["name"], all[2]["name"]);
    assert_eq!(page[0]["rank"], 2);
    app.stop().await;
}

async fn bad_leaderboard_queries_get_typed_errors(db: Db) {
    let app = app(db).await;
    for (query, code) in [
        ("pool=go", "unknown_pool"),
        ("pool=Renju", "unknown_pool"),
        ("", "invalid_query"),
        ("pool=renju&limit=0", "invalid_query"),
        ("pool=renju&limit=101", "invalid_query"),
        ("pool=renju&limit=ten", "invalid_query"),
        ("pool=renju&offset=-1", "invalid_query"),
        ("pool=renju&offset=10001", "invalid_query"),
    ] {
        let body = app
            .get_json(&format!("/api/leaderboard?{query}"), 400)
            .await;
        assert_eq!(body["code"], code, "{query}");
        assert!(body["message"].is_string());
    }
    app.stop().await;
}

async fn the_tier_table_comes_from_the_ratings_crate(db: Db) {
    let app = app(db).await;

    let body = app.get_json("/api/tiers", 200).await;

    assert_eq!(body["provisional_deviation"], 110.0);
    // Unranked stays in the table (rows stored before issue #36 may name it); no rating earns it any more.
    let tiers = body["tiers"].as_array().unwrap();
    assert_eq!(tiers.len(), TIERS.len() + 1);
    assert_eq!(
        tiers[0],
        json!({"code": "unranked", "name": "Unranked", "min_rating": null})
    );
    assert_eq!(
        tiers[1],
        json!({"code": "beginner", "name": "Beginner", "min_rating": null})
    );
    for (row, (name, code, min)) in tiers[2..].iter().zip(&TIERS[1..]) {
        assert_eq!(row, &json!({"code": code, "name": name, "min_rating": min}));
    }
    assert_eq!(tiers.last().unwrap()["name"], "Grand Master");
    app.stop().await;
}

async fn a_profile_shows_each_pool_with_history_and_the_latest_games(db: Db) {
    let app = app(db).await;
    let (regulars, _) = arrange(&app).await;
    let ann = &regulars[0];
    let standings = app.store.standings(ann.id).await.unwrap();
    let history = app.store.rating_history(ann.id).await.unwrap();

    let body = app.get_json("/api/players/aNN", 200).await;

    assert_eq!(body["name"], "Ann");
    let ratings = body["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 1, "Ann played renju only");
    let renju = &ratings[0];
    let s = &standings[0];
    assert_eq!(renju["pool"], "renju");
    assert_close(renju["rating"].as_f64().unwrap(), s.rating.rating);
    assert_eq!(renju["tier"], Tier::of(&s.rating).name());
    assert_eq!(
        (renju["games"].clone(), renju["wins"].clone()),
        (json!(REGULAR_GAMES), json!(s.wins))
    );
    let points = renju["history"].as_array().unwrap();
    assert_eq!(points.len(), REGULAR_GAMES, "one point per rated game");
    assert_eq!(points.len(), history.len());
    assert_close(
        points.last().unwrap()["rating"].as_f64().unwrap(),
        s.rating.rating,
    );
    assert!(points
        .windows(2)
        .all(|w| w[0]["time"].as_i64() <= w[1]["time"].as_i64()));
    let games = body["games"].as_array().unwrap();
    assert_eq!(games.len(), 20, "the latest 20");
    assert_eq!(body["next_before"], games[19]["id"], "older games follow");
    let latest = &games[0];
    assert_eq!(latest["pool"], "renju");
    assert_eq!(latest["rated"], true);
    assert_eq!(latest["state"], "over");
    // The newest game left Ann at her current rating.
    assert_close(latest["rating_after"].as_f64().unwrap(), s.rating.rating);
    let before = latest["rating_before"].as_f64().unwrap();
    let mine = latest["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "Ann")
        .unwrap();
    assert_close(mine["before"].as_f64().unwrap(), before);
    app.stop().await;
}

async fn a_game_summary_names_the_winner_and_both_rating_changes(db: Db) {
    let app = app(db).await;
    let a = app.user("winner").await;
    let b = app.user("loser").await;
    let id = app
        .rated_game(Rules::standard(), &a, &b, Some(Color::Black), 5_000)
        .await;

    let body = app.get_json("/api/players/loser/games", 200).await;

    let game = &body["games"][0];
    assert_eq!(game["id"], id);
    assert_eq!(game["black"], json!({"name": "winner", "guest": false}));
    assert_eq!(game["white"], json!({"name": "loser", "guest": false}));
    assert_eq!(game["winner"], "black");
    assert_eq!(game["winner_name"], "winner");
    assert_eq!(game["reason"], "resign");
    assert_eq!(game["ended_at"], 5_001);
    assert_eq!(game["rating_before"], 1500.0);
    assert!(game["rating_after"].as_f64().unwrap() < 1500.0);
    let changes = game["ratings"].as_array().unwrap();
    assert_eq!(changes[0]["name"], "winner");
    assert!(changes[0]["after"].as_f64().unwrap() > 1500.0);
    assert_eq!(changes[1]["name"], "loser");
    // The tier of the rating at once (issue #36), marked provisional.
    let after = changes[1]["after"].as_f64().unwrap();
    let tier = Tier::of(&ratings::Rating::new(after, 300.0, 0.06));
    assert_eq!(changes[1]["tier"], tier.name());
    assert_ne!(tier, Tier::UNRANKED);
    assert_eq!(changes[1]["provisional"], true);
    app.stop().await;
}

async fn a_players_games_filter_by_pool_rated_and_result(db: Db) {
    let app = app(db).await;
    let a = app.user("filtered").await;
    let b = app.user("opponent").await;
    let won = app
        .rated_game(Rules::freestyle(), &a, &b, Some(Color::Black), 10_000)
        .await;
    let lost_as_white = app
        .rated_game(Rules::freestyle(), &b, &a, Some(Color::Black), 10_010)
        .await;
    let drawn = app
        .rated_game(Rules::freestyle(), &a, &b, None, 10_020)
        .await;
    let lost_renju = app
        .rated_game(
            Rules::renju(rules::ForbiddenPolicy::Reject),
            &a,
            &b,
            Some(Color::White),
            10_030,
        )
        .await;
    let ids = |page: serde_json::Value| -> Vec<i64> {
        page["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_i64().unwrap())
            .collect()
    };
    for (query, expected) in [
        ("result=win", vec![won]),
        ("result=loss", vec![lost_renju, lost_as_white]),
        ("result=draw", vec![drawn]),
        ("pool=freestyle", vec![drawn, lost_as_white, won]),
        ("pool=renju&result=loss", vec![lost_renju]),
        ("rated=true&pool=renju", vec![lost_renju]),
        ("rated=false", vec![]),
        ("result=loss&limit=1", vec![lost_renju]),
    ] {
        let page = app
            .get_json(&format!("/api/players/filtered/games?{query}"), 200)
            .await;
        assert_eq!(ids(page), expected, "{query}");
    }
    // The next page of a filtered list keeps to the filter.
    let first = app
        .get_json("/api/players/filtered/games?result=loss&limit=1", 200)
        .await;
    let next = first["next_before"].as_i64().expect("a second loss");
    let second = app
        .get_json(
            &format!("/api/players/filtered/games?result=loss&limit=1&before={next}"),
            200,
        )
        .await;
    assert_eq!(ids(second), vec![lost_as_white]);
    for (query, status, code) in [
        ("result=lost", 400, "invalid_query"),
        ("rated=maybe", 400, "invalid_query"),
        ("pool=go", 400, "unknown_pool"),
    ] {
        let body = app
            .get_json(&format!("/api/players/filtered/games?{query}"), status)
            .await;
        assert_eq!(body["code"], code, "{query}");
    }
    app.stop().await;
}

async fn games_page_through_every_game_newest_first(db: Db) {
    let app = app(db).await;
    let a = app.user("pager").await;
    let b = app.user("partner").await;
    for i in 0..25 {
        app.rated_game(
            Rules::freestyle(),
            &a,
            &b,
            result(0, 1, i),
            10_000 + i as i64 * 10,
        )
        .await;
    }

    let profile = app.get_json("/api/players/pager", 200).await;
    let mut ids: Vec<i64> = profile["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    let mut before = profile["next_before"].clone();
    let mut pages = 0;
    while let Some(b) = before.as_i64() {
        let page = app
            .get_json(&format!("/api/players/pager/games?before={b}&limit=7"), 200)
            .await;
        let got = page["games"].as_array().unwrap();
        assert!(!got.is_empty() && got.len() <= 7);
        ids.extend(got.iter().map(|g| g["id"].as_i64().unwrap()));
        before = page["next_before"].clone();
        pages += 1;
    }

    assert_eq!(profile["games"].as_array().unwrap().len(), 20);
    assert_eq!(pages, 1, "20 on the profile, the other 5 on one page");
    assert_eq!(ids.len(), 25);
    assert!(
        ids.windows(2).all(|w| w[0] > w[1]),
        "newest first, no repeats"
    );
    let standing = &app.store.standings(a.id).await.unwrap()[0];
    assert_eq!(standing.games as usize, ids.len());
    app.stop().await;
}

async fn a_profile_says_whether_the_player_is_listed_exactly_as_the_leaderboard_does(db: Db) {
    let app = app(db).await;
    let (regulars, others) = arrange(&app).await;
    let board = app
        .get_json("/api/leaderboard?pool=renju&limit=100&offset=0", 200)
        .await;
    let listed: Vec<&str> = board["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();

    let mut seen = (0, 0);
    for user in regulars.iter().chain(&others) {
        let body = app
            .get_json(&format!("/api/players/{}", user.name), 200)
            .await;
        let Some(renju) = body["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["pool"] == "renju")
        else {
            continue;
        };
        let progress = &renju["leaderboard"];
        assert_eq!(progress["min_games"], 10);
        assert_eq!(progress["min_opponents"], 3);
        assert_eq!(progress["max_deviation"], 150.0);
        assert_eq!(progress["active_days"], 30);
        assert_eq!(progress["active"], true);
        let on_board = listed.contains(&user.name.as_str());
        assert_eq!(progress["listed"], on_board, "{}: {renju}", user.name);
        let by_rule = progress["established"] == true
            && renju["games"].as_u64().unwrap() >= 10
            && progress["established_opponents"].as_u64().unwrap() >= 3
            && renju["deviation"].as_f64().unwrap() <= 150.0;
        assert_eq!(on_board, by_rule, "{}", user.name);
        if on_board {
            seen.0 += 1
        } else {
            seen.1 += 1
        }
    }
    assert!(seen.0 > 0 && seen.1 > 0, "both kinds of player: {seen:?}");
    app.stop().await;
}

async fn an_unknown_player_is_not_found(db: Db) {
    let app = app(db).await;
    for path in [
        "/api/players/nobody",
        "/api/players/nobody/games",
        "/api/players/not%20a%20name",
    ] {
        let body = app.get_json(path, 404).await;
        assert_eq!(body["code"], "not_found", "{path}");
    }
    app.user("exists").await;
    let body = app
        .get_json("/api/players/exists/games?limit=500", 400)
        .await;
    assert_eq!(body["code"], "invalid_query");
    app.stop().await;
}

/// Issue #36: a player who wins every game is shown a tier from the first game (marked provisional), and is on the
/// leaderboard, at the top, after the rule's 10 games against different established opponents, although a
/// deviation that high kept them off the board before.
async fn a_player_who_wins_every_game_tops_the_board_after_the_rule_s_games(db: Db) {
    let app = app(db).await;
    let (regulars, _) = arrange(&app).await;
    let champion = app.user("Zed").await;
    let renju = Rules::renju(ForbiddenPolicy::Reject);
    let mut at = now_ms() - 60_000;
    for game in 1..=10usize {
        let opponent = &regulars[game % 4];
        let theirs = app.store.standings(opponent.id).await.unwrap()[0].rating;
        at += 10;
        app.rated_game(renju, &champion, opponent, Some(Color::Black), at)
            .await;
        assert_eq!(
            app.store.standings(opponent.id).await.unwrap()[0].rating,
            theirs,
            "a newcomer moves no established rating"
        );
        let profile = app.get_json("/api/players/Zed", 200).await;
        let mine = &profile["ratings"][0];
        assert_eq!(
            mine["provisional"],
            mine["deviation"].as_f64().unwrap() > 110.0
        );
        let rating = mine["rating"].as_f64().unwrap();
        assert_eq!(
            mine["tier"],
            Tier::of(&ratings::Rating::new(rating, 60.0, 0.06)).name(),
            "the tier at once"
        );
        assert_ne!(mine["tier"], "Unranked");
        let board = app.get_json("/api/leaderboard?pool=renju", 200).await;
        let top = board["entries"][0]["name"].as_str().unwrap().to_owned();
        if game < 10 {
            assert_eq!(mine["leaderboard"]["listed"], false, "after {game}: {mine}");
            assert_ne!(top, "Zed");
        } else {
            assert_eq!(mine["leaderboard"]["listed"], true, "{mine}");
            assert_eq!(mine["leaderboard"]["established"], true);
            assert_eq!(mine["leaderboard"]["established_opponents"], 4);
            assert!(
                mine["deviation"].as_f64().unwrap() > 110.0,
                "listed though provisional: {mine}"
            );
            assert_eq!(top, "Zed", "{board}");
            assert_eq!(board["entries"][0]["provisional"], true);
        }
    }
    app.stop().await;
}

on_both_stores!(
    the_leaderboard_lists_established_players_of_the_pool_by_rating,
    each_pool_has_its_own_leaderboard,
    the_leaderboard_pages_with_limit_and_offset,
    bad_leaderboard_queries_get_typed_errors,
    the_tier_table_comes_from_the_ratings_crate,
    a_profile_shows_each_pool_with_history_and_the_latest_games,
    a_game_summary_names_the_winner_and_both_rating_changes,
    games_page_through_every_game_newest_first,
    a_players_games_filter_by_pool_rated_and_result,
    an_unknown_player_is_not_found,
    a_profile_says_whether_the_player_is_listed_exactly_as_the_leaderboard_does,
    a_player_who_wins_every_game_tops_the_board_after_the_rule_s_games,
);
