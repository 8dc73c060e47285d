//! The games of a database written before issue #15 (`store/tests/data/`, the v1 fixture) read back through the
//! server's decoding (`server::gomoku::decode`: the configuration text the migration made of the old rules
//! columns, and the actions' JSON of the first release) into exactly the rules and actions the store read back
//! then (`v1.json`), and everything else as it was. SQLite always; Postgres when `TEST_DATABASE_URL` is set.
//! The store's own fixture test (`store/tests/store/fixture.rs`) checks the texts themselves.

mod decoded;
#[path = "../../../store/tests/fixture/dump.rs"]
mod dump;
#[path = "../../../store/tests/fixture/load.rs"]
mod load;

/// A casual game between two guests, of this kind, configuration and pool.
fn casual_game(kind: &str, config: String, pool: ratings::Pool) -> store::NewGame {
    let guest = |name: &str| store::PlayerRef {
        name: name.to_owned(),
        user_id: None,
    };
    store::NewGame {
        public_id: store::new_public_id(),
        room: "r".to_owned(),
        kind: kind.to_owned(),
        config,
        pool,
        time_control: r#"{"kind":"none"}"#.to_owned(),
        public: true,
        rated: false,
        black: guest("guest-a"),
        white: guest("guest-b"),
        started_at: 1,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_of_a_first_release_sqlite_database_decodes_into_the_rules_and_actions_it_had() {
    let (url, _dir) = load::sqlite_copy();
    let store = store::open(&url)
        .await
        .expect("open and migrate the fixture");
    let read = dump::dump(store.as_ref(), &decoded::DECODED).await;
    store.close().await;
    load::assert_same(&read, &load::expected());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_of_a_first_release_postgres_database_decodes_into_the_rules_and_actions_it_had()
{
    let Some(copy) = load::PostgresCopy::load("server").await else {
        return;
    };
    let store = store::open(&copy.url)
        .await
        .expect("open and migrate the fixture");
    let read = dump::dump(store.as_ref(), &decoded::DECODED).await;
    store.close().await;
    copy.drop_schema().await;
    load::assert_same(&read, &load::expected());
}

/// A game the server writes today (notation, `config`) reads back into the same rules and actions, and the
/// stored texts are the ones `games::storage` pins.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_written_today_stores_notation_and_reads_back_into_its_actions() {
    use rules::{Action, ForbiddenPolicy, Game, Opening, Rules};
    use server::gomoku;
    use store::StoredAction;

    let dir = tempfile::tempdir().expect("temporary folder");
    let store = store::open(&format!(
        "sqlite://{}",
        dir.path().join("today.db").display()
    ))
    .await
    .expect("open");
    let rules =
        Rules::renju(ForbiddenPolicy::Claim).with_opening(Opening::SwapAfterThreeFifthTwoOptions);
    let p = |t: &str| t.parse().expect("a point");
    let actions = [
        Action::place(p("h8")),
        Action::place(p("h9")),
        Action::place(p("j10")),
        Action::DecideSwap { swap: true },
        Action::place(p("g7")),
        Action::ProposeFifth {
            points: [p("k11"), p("f5")],
        },
        Action::ChooseFifth { point: p("k11") },
    ];
    let id = store
        .create_game(&casual_game(
            gomoku::KIND,
            gomoku::config_text(&rules),
            gomoku::pool_of(&rules),
        ))
        .await
        .expect("create");
    let mut game = Game::new(rules);
    let mut batch = Vec::new();
    for (seq, action) in actions.iter().enumerate() {
        game.apply(*action).expect("legal");
        batch.push((
            id,
            StoredAction {
                seq: seq as u32,
                text: gomoku::action_text(action),
                ply: gomoku::move_number(action, game.moves().len() as u32),
                used_ms: 0,
                remaining_ms: None,
                at: 2,
            },
        ));
    }
    store.append_actions(&batch).await.expect("append");
    let record = store.game(id).await.expect("read").expect("stored");
    store.close().await;

    assert_eq!(
        record.game.config,
        "size=15,rule_set=renju,forbidden_policy=claim,opening=swap_after_three_fifth_two_options"
    );
    let texts: Vec<(&str, Option<u32>)> = record
        .actions
        .iter()
        .map(|a| (a.text.as_str(), a.ply))
        .collect();
    assert_eq!(
        texts,
        [
            ("h8", Some(1)),
            ("h9", Some(2)),
            ("j10", Some(3)),
            ("swap", None),
            ("g7", Some(4)),
            ("propose:k11,f5", None),
            ("choose:k11", Some(5)),
        ]
    );
    let decoded = gomoku::decode(&record).expect("reads back");
    assert_eq!(decoded.rules, rules);
    assert_eq!(decoded.actions, actions);
}

/// Every stored text, pinned: each game's configuration and an action of each kind, as `games::storage` writes
/// them (the server's Gomoku through `server::gomoku`), kept by the store exactly as given, and read back into
/// the same values.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stored_texts_of_every_game_and_action_kind_are_pinned() {
    use games::{
        AnyAction, AnyConfig, DraughtsAction, DraughtsConfig, GameKind, GomokuConfig, OthelloConfig,
    };
    use rules::othello::{Move, Scoring};
    use rules::{Action, ForbiddenPolicy, Opening, Rules};
    use store::StoredAction;

    let renju =
        Rules::renju(ForbiddenPolicy::Claim).with_opening(Opening::SwapAfterThreeFifthTwoOptions);
    let point = |t: &str| t.parse().expect("a point");
    let disc = |t: &str| t.parse().expect("a square");
    let squares = |list: &[&str]| list.iter().map(|t| t.parse().expect("a square")).collect();
    let gomoku = |action: Action| AnyAction::Gomoku(action);
    /// A configuration with its pinned text, and actions with theirs.
    type Case = (AnyConfig, &'static str, Vec<(AnyAction, &'static str)>);
    let cases: Vec<Case> = vec![
        (
            AnyConfig::Gomoku(GomokuConfig::from(renju)),
            "size=15,rule_set=renju,forbidden_policy=claim,opening=swap_after_three_fifth_two_options",
            vec![
                (gomoku(Action::place(point("h8"))), "h8"),
                (gomoku(Action::DecideSwap { swap: true }), "swap"),
                (gomoku(Action::DecideSwap { swap: false }), "keep"),
                (gomoku(Action::ProposeFifth { points: [point("i9"), point("j10")] }), "propose:i9,j10"),
                (gomoku(Action::ChooseFifth { point: point("i9") }), "choose:i9"),
                (gomoku(Action::ClaimForbidden), "claim"),
            ],
        ),
        (
            AnyConfig::Gomoku(GomokuConfig::from(Rules::freestyle())),
            "size=15,rule_set=freestyle,forbidden_policy=reject,opening=none",
            vec![],
        ),
        (
            AnyConfig::Othello(OthelloConfig::new(Scoring::Japanese)),
            "scoring=japanese",
            vec![
                (AnyAction::Othello(Move::Place(disc("f5"))), "f5"),
                (AnyAction::Othello(Move::Pass), "pass"),
            ],
        ),
        (AnyConfig::Othello(OthelloConfig::new(Scoring::European)), "scoring=european", vec![]),
        (
            AnyConfig::Draughts(DraughtsConfig::international()),
            "variant=international",
            vec![
                (
                    AnyAction::Draughts(DraughtsAction::Move { path: squares(&["32", "28"]), capture: false }),
                    "32-28",
                ),
                (
                    AnyAction::Draughts(DraughtsAction::Move {
                        path: squares(&["28", "19", "10"]),
                        capture: true,
                    }),
                    "28x19x10",
                ),
            ],
        ),
    ];

    let dir = tempfile::tempdir().expect("temporary folder");
    let store = store::open(&format!(
        "sqlite://{}",
        dir.path().join("texts.db").display()
    ))
    .await
    .expect("open");
    for (config, config_text, actions) in cases {
        let stored = config.stored();
        let pool = ratings::Pool::new(stored.game, "any");
        let id = store
            .create_game(&casual_game(stored.game, stored.text, pool))
            .await
            .expect("create");
        let batch: Vec<_> = actions
            .iter()
            .enumerate()
            .map(|(seq, (action, _))| {
                let text = action.encode();
                (
                    id,
                    StoredAction {
                        seq: seq as u32,
                        text,
                        ply: None,
                        used_ms: 0,
                        remaining_ms: None,
                        at: 2,
                    },
                )
            })
            .collect();
        store.append_actions(&batch).await.expect("append");
        let record = store.game(id).await.expect("read").expect("stored");

        let kind: GameKind = record.game.kind.parse().expect("a game");
        assert_eq!(record.game.config, config_text, "{kind}");
        assert_eq!(
            AnyConfig::decode(kind.as_str(), &record.game.config).as_ref(),
            Ok(&config)
        );
        if let AnyConfig::Gomoku(c) = &config {
            assert_eq!(server::gomoku::config_text(&c.rules()), config_text);
        }
        for ((action, text), stored) in actions.iter().zip(&record.actions) {
            assert_eq!(stored.text, *text, "{kind}");
            assert_eq!(
                AnyAction::decode(kind, &stored.text).as_ref(),
                Ok(action),
                "{text}"
            );
            if let AnyAction::Gomoku(a) = action {
                assert_eq!(server::gomoku::action_text(a), *text);
            }
        }
        assert_eq!(record.actions.len(), actions.len());
    }
    store.close().await;
}
