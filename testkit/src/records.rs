//! Records arranged straight in the store (no sockets, no rate limits): finished rated games for tests that need
//! players with a history.

use rules::{Action, Color, Point, Rules};
use store::{Finish, GameEnd, GameId, NewGame, PlayerRef, SeatsAtEnd, Store, StoredAction, User};

/// Stores and finishes a game between two users, `winner` as seated (or a draw), and returns its id.
pub async fn rated_game(
    db: &dyn Store,
    rules: Rules,
    black: &User,
    white: &User,
    winner: Option<Color>,
    at: i64,
) -> GameId {
    let id = db
        .create_game(&NewGame {
            public_id: store::new_public_id(),
            room: format!("r{at}"),
            kind: server::gomoku::KIND.to_owned(),
            pool: server::gomoku::pool_of(&rules),
            config: server::gomoku::config_text(&rules),
            time_control: "{\"kind\":\"none\"}".into(),
            public: true,
            rated: true,
            black: PlayerRef {
                name: black.name.clone(),
                user_id: Some(black.id),
            },
            white: PlayerRef {
                name: white.name.clone(),
                user_id: Some(white.id),
            },
            started_at: at,
        })
        .await
        .expect("create game");
    let point: Point = "h8".parse().expect("point");
    let action = Action::Place { point };
    db.append_actions(&[(
        id,
        StoredAction {
            seq: 0,
            text: server::gomoku::action_text(&action),
            ply: server::gomoku::move_number(&action, 1),
            used_ms: 0,
            remaining_ms: None,
            at,
        },
    )])
    .await
    .expect("append");
    db.finish_game(
        id,
        &Finish {
            end: GameEnd {
                winner: winner.map(server::stored::side),
                aborted: false,
                reason: if winner.is_some() {
                    "resign"
                } else {
                    "draw_agreed"
                }
                .into(),
                ended_at: at + 1,
            },
            seats: SeatsAtEnd::AsStarted,
            rater: server::stored::RATER,
        },
    )
    .await
    .expect("finish")
    .expect("finished once");
    id
}
