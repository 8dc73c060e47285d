//! Writes the games of the v1 fixture through today's store API, as the server writes them (its configuration
//! and action texts, `server::gomoku`), covering every kind of game the server stores, and a JSON dump of
//! everything the store API reads back of it, read back through the server's decoding. The v1 files themselves
//! were made by this program's ancestor in the store (`store/examples/fixture.rs` at commit `fa37cb0`, when the
//! store still held rules values; `store/tests/data/README.md` says how); `store/tests/store/fixture.rs` and
//! `server/tests/web/stored_games.rs` read them.
//!
//! ```sh
//! cargo run -p server --example store_fixture -- sqlite:///tmp/today.sqlite /tmp/today.json
//! cargo run -p server --example store_fixture -- 'postgres://postgres@127.0.0.1/db?options=-c%20search_path%3Dfixture_v1' /tmp/pg.json
//! ```
//! The database must be empty (a new file, or an empty schema). Every action sequence is checked with
//! `rules::Game::from_actions` first, so the fixture holds only games the server could have played.

#[path = "../tests/web/stored_games/decoded.rs"]
mod decoded;
#[path = "../../store/tests/fixture/dump.rs"]
mod dump;

use rules::{Action, Color, ForbiddenPolicy, Game, Opening, Point, Rules};
use server::gomoku;
use store::{
    Finish, GameEnd, GameId, Guest, NewGame, PlayerRef, Rater, SessionOwner, Store, StoredAction,
    User,
};

/// Milliseconds of the fixture's first game.
const T0: i64 = 1_763_000_000_000;
/// Far after [`dump::NOW`]: sessions that are still live when the dump is read.
const LATER: i64 = 4_102_444_800_000;

fn p(text: &str) -> Point {
    text.parse().expect("a point")
}

fn place(text: &str) -> Action {
    Action::place(p(text))
}

/// A game's actions, checked by the rules, with clocks when `clock` is given (remaining ms at the start).
fn actions(
    rules: Rules,
    list: &[Action],
    clock: Option<i64>,
    start: i64,
) -> (Game, Vec<StoredAction>) {
    let game = Game::from_actions(rules, list).expect("the fixture's actions are legal");
    let mut remaining = clock.map(|ms| [ms, ms]);
    let stored = list
        .iter()
        .enumerate()
        .map(|(i, action)| {
            let used = 300 + 17 * i as i64;
            if let Some(r) = remaining.as_mut() {
                r[i % 2] -= used;
            }
            StoredAction {
                seq: i as u32,
                text: gomoku::action_text(action),
                ply: gomoku::move_number(action, moves_after(rules, &list[..=i])),
                used_ms: used,
                remaining_ms: remaining,
                at: start + 1_000 * (i as i64 + 1),
            }
        })
        .collect();
    (game, stored)
}

struct Fixture {
    store: std::sync::Arc<dyn Store>,
    next: i64,
}

/// One game to write.
struct Spec<'a> {
    rules: Rules,
    time_control: &'a str,
    clock: Option<i64>,
    public: bool,
    rated: bool,
    black: PlayerRef,
    white: PlayerRef,
    actions: Vec<Action>,
    end: Option<(Option<Color>, bool, &'a str)>,
}

impl Fixture {
    async fn game(&mut self, spec: Spec<'_>) -> GameId {
        let n = self.next;
        self.next += 1;
        let started_at = T0 + n * 3_600_000;
        let id = self
            .store
            .create_game(&NewGame {
                public_id: format!("fixture{n:09}"),
                room: format!("room{n:03}"),
                kind: "gomoku".to_owned(),
                config: gomoku::config_text(&spec.rules),
                // As the server names them (and migration 20261201000500 fills them in for v1's games).
                pool: gomoku::pool_of(&spec.rules),
                time_control: spec.time_control.to_owned(),
                public: spec.public,
                rated: spec.rated,
                black: spec.black,
                white: spec.white,
                started_at,
            })
            .await
            .expect("create");
        let (replay, stored) = actions(spec.rules, &spec.actions, spec.clock, started_at);
        if let Some((winner, _, "five" | "forbidden_move")) = spec.end {
            // An ending decided on the board is the one the rules reach.
            assert!(
                matches!(replay.status(), rules::Status::Won { winner: w, .. } if Some(w) == winner),
                "{:?}",
                replay.status()
            );
        }
        // In two batches, as rooms append them.
        let half = stored.len() / 2;
        let batch: Vec<_> = stored[..half].iter().map(|a| (id, a.clone())).collect();
        self.store.append_actions(&batch).await.expect("append");
        let batch: Vec<_> = stored[half..].iter().map(|a| (id, a.clone())).collect();
        self.store.append_actions(&batch).await.expect("append");
        if let Some((winner, aborted, reason)) = spec.end {
            let end = GameEnd {
                winner: winner.map(server::stored::side),
                aborted,
                reason: reason.to_owned(),
                ended_at: started_at + 1_000 * (stored.len() as i64 + 2),
            };
            let finish = Finish {
                end,
                seats: gomoku::seats_now(&replay),
                rater: Rater(ratings::glicko2::rate_game),
            };
            self.store.finish_game(id, &finish).await.expect("finish");
        }
        id
    }
}

/// The stones on the board after these actions.
fn moves_after(rules: Rules, actions: &[Action]) -> u32 {
    let game = Game::from_actions(rules, actions).expect("the fixture's actions are legal");
    game.moves().len() as u32
}

fn user(u: &User) -> PlayerRef {
    PlayerRef {
        name: u.name.clone(),
        user_id: Some(u.id),
    }
}

fn guest(name: &str) -> PlayerRef {
    PlayerRef {
        name: name.to_owned(),
        user_id: None,
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [url, json_path] = args.as_slice() else {
        return Err("usage: fixture DATABASE_URL DUMP.json".into());
    };
    let store = store::open(url).await?;
    let mut users = Vec::new();
    for (i, name) in dump::USERS.iter().enumerate() {
        let hash = format!("$argon2id$v=19$m=19456,t=2,p=1$fixture{i}$hash{i}");
        users.push(
            store
                .create_user(name, &hash, T0 - 1_000 + i as i64)
                .await?,
        );
    }
    let [ann, bob, cid, dee] = [&users[0], &users[1], &users[2], &users[3]];
    store
        .create_session(dump::TOKENS[0], &SessionOwner::User(ann.clone()), LATER)
        .await?;
    let fox = Guest {
        id: "0123456789abcdef0123".to_owned(),
        name: dump::GUESTS[0].to_owned(),
    };
    store
        .create_guest_session(dump::TOKENS[1], &fox, LATER, T0)
        .await?;
    let gnu = Guest {
        id: "fedcba9876543210fedc".to_owned(),
        name: dump::GUESTS[1].to_owned(),
    };
    // Expired before the dump's moment: neither its token nor its name is live.
    store
        .create_guest_session(dump::TOKENS[2], &gnu, T0 + 5, T0)
        .await?;

    let fischer = r#"{"kind":"fischer","base_ms":300000,"increment_ms":5000}"#;
    let byo = r#"{"kind":"byo_yomi","base_ms":600000,"periods":3,"period_ms":30000}"#;
    let none = r#"{"kind":"none"}"#;
    let five_black = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"].map(place);
    let mut f = Fixture {
        store: store.clone(),
        next: 1,
    };

    // 1. Freestyle, rated, black makes five, Fischer clock.
    f.game(Spec {
        rules: Rules::freestyle(),
        time_control: fischer,
        clock: Some(300_000),
        public: true,
        rated: true,
        black: user(ann),
        white: user(bob),
        actions: five_black.to_vec(),
        end: Some((Some(Color::Black), false, "five")),
    })
    .await;
    // 2. Standard, rated, black resigns, byo-yomi.
    f.game(Spec {
        rules: Rules::standard(),
        time_control: byo,
        clock: Some(600_000),
        public: true,
        rated: true,
        black: user(bob),
        white: user(ann),
        actions: ["h8", "h9", "i8", "i9"].map(place).to_vec(),
        end: Some((Some(Color::White), false, "resign")),
    })
    .await;
    // 3. Renju, swap after three, swap accepted: ann started black and ends white; white (ann) wins.
    let swap_rules = Rules::renju(ForbiddenPolicy::Reject).with_opening(Opening::SwapAfterThree);
    let mut swapped = ["h8", "h9", "i9"].map(place).to_vec();
    swapped.extend([
        Action::DecideSwap { swap: true },
        place("j10"),
        place("a1"),
        place("g7"),
    ]);
    f.game(Spec {
        rules: swap_rules,
        time_control: fischer,
        clock: Some(300_000),
        public: true,
        rated: true,
        black: user(ann),
        white: user(bob),
        actions: swapped.clone(),
        end: Some((Some(Color::White), false, "resign")),
    })
    .await;
    // 4. Renju, swap after three, swap declined; black flags: white wins on time.
    let mut declined = ["h8", "h9", "i9"].map(place).to_vec();
    declined.extend([
        Action::DecideSwap { swap: false },
        place("j10"),
        place("a1"),
    ]);
    f.game(Spec {
        rules: swap_rules,
        time_control: fischer,
        clock: Some(300_000),
        public: true,
        rated: true,
        black: user(cid),
        white: user(dee),
        actions: declined,
        end: Some((Some(Color::White), false, "timeout")),
    })
    .await;
    // 5. Renju, fifth with two options, lose policy: black plays a double three and loses.
    let fifth_rules =
        Rules::renju(ForbiddenPolicy::Lose).with_opening(Opening::SwapAfterThreeFifthTwoOptions);
    let mut fifth = ["h8", "h9", "i8"].map(place).to_vec();
    fifth.extend([
        Action::DecideSwap { swap: false },
        place("a1"),
        Action::ProposeFifth {
            points: [p("j10"), p("c14")],
        },
        Action::ChooseFifth { point: p("j10") },
        place("a3"),
        place("j9"),
        place("a5"),
        place("j8"),
    ]);
    f.game(Spec {
        rules: fifth_rules,
        time_control: none,
        clock: None,
        public: true,
        rated: true,
        black: user(dee),
        white: user(cid),
        actions: fifth,
        end: Some((Some(Color::White), false, "forbidden_move")),
    })
    .await;
    // 6. Renju with the claim policy, casual, against a guest, agreed draw, private.
    f.game(Spec {
        rules: Rules::renju(ForbiddenPolicy::Claim),
        time_control: none,
        clock: None,
        public: false,
        rated: false,
        black: guest(&fox.name),
        white: user(ann),
        actions: ["h8", "h9", "i8", "i9"].map(place).to_vec(),
        end: Some((None, false, "draw_agreed")),
    })
    .await;
    // 7. Rated, aborted after one move.
    f.game(Spec {
        rules: Rules::standard(),
        time_control: fischer,
        clock: Some(300_000),
        public: true,
        rated: true,
        black: user(ann),
        white: user(cid),
        actions: vec![place("h8")],
        end: Some((None, true, "aborted")),
    })
    .await;
    // 8. Rated draw in freestyle.
    f.game(Spec {
        rules: Rules::freestyle(),
        time_control: none,
        clock: None,
        public: true,
        rated: true,
        black: user(bob),
        white: user(cid),
        actions: ["h8", "a1", "h9"].map(place).to_vec(),
        end: Some((None, false, "draw_agreed")),
    })
    .await;
    // 9. Casual game between two guests, abandoned.
    f.game(Spec {
        rules: Rules::freestyle(),
        time_control: fischer,
        clock: Some(300_000),
        public: true,
        rated: false,
        black: guest(&fox.name),
        white: guest(&gnu.name),
        actions: ["h8", "a1"].map(place).to_vec(),
        end: Some((Some(Color::Black), false, "abandoned")),
    })
    .await;
    // 10. Unfinished rated renju game after an accepted swap, with a clock, one action taken back.
    let unfinished = f
        .game(Spec {
            rules: swap_rules,
            time_control: fischer,
            clock: Some(300_000),
            public: true,
            rated: true,
            black: user(bob),
            white: user(dee),
            actions: swapped,
            end: None,
        })
        .await;
    store.truncate_actions(unfinished, 6).await?;
    // 11. Unfinished casual private game without a clock.
    f.game(Spec {
        rules: Rules::standard(),
        time_control: none,
        clock: None,
        public: false,
        rated: false,
        black: user(cid),
        white: guest(&fox.name),
        actions: ["h8", "h9", "i8"].map(place).to_vec(),
        end: None,
    })
    .await;
    // 12. Unfinished game without actions.
    f.game(Spec {
        rules: Rules::freestyle(),
        time_control: byo,
        clock: Some(600_000),
        public: true,
        rated: true,
        black: user(dee),
        white: user(ann),
        actions: Vec::new(),
        end: None,
    })
    .await;
    // 13. A game the same user played against themself (never rated).
    f.game(Spec {
        rules: Rules::freestyle(),
        time_control: none,
        clock: None,
        public: true,
        rated: true,
        black: user(bob),
        white: user(bob),
        actions: five_black.to_vec(),
        end: Some((Some(Color::Black), false, "five")),
    })
    .await;
    // 14–29. Enough rated standard games between ann and bob for both to leave the provisional range and
    // reach the leaderboard; colours alternate and bob wins one in three.
    for i in 0..16 {
        let (black, white) = if i % 2 == 0 { (ann, bob) } else { (bob, ann) };
        let winner = if i % 3 == 2 {
            if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            }
        } else if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        f.game(Spec {
            rules: Rules::standard(),
            time_control: none,
            clock: None,
            public: i % 5 != 4,
            rated: true,
            black: user(black),
            white: user(white),
            actions: ["h8", "a1", "h9", "a2"].map(place).to_vec(),
            end: Some((Some(winner), false, "resign")),
        })
        .await;
    }
    let dumped = dump::dump(store.as_ref(), &decoded::DECODED).await;
    store.close().await;
    std::fs::write(json_path, serde_json::to_string_pretty(&dumped)? + "\n")?;
    Ok(())
}
