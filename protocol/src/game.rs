//! A game on the wire, for every game of the seam: the trait each game's wire module implements ([`WireGame`]),
//! and the macro that makes the tagged unions from the one list in `games/mod.rs`: the room's configuration
//! ([`GameSpec`](crate::GameSpec)), the snapshot's position ([`GameView`](crate::GameView)), the `action` event's
//! change ([`GameChange`](crate::GameChange)) and a result's detail ([`GameDetail`](crate::GameDetail)), each
//! tagged by `"game"`, with the one call that builds each from the seam's values. The phase of any game is its own
//! code ([`GamePhase`]).
//!
//! Every encoding is written out in the game's own module (protocol-owned types with their own names), not
//! derived from the `games` or `rules` types, so that renaming something there cannot change a frame;
//! `tests/protocol/golden.rs` pins every form.

use std::borrow::Cow;
use std::fmt;

use games::{Coded, Listed};
use rules::Color;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Why a [`GameSpec`](crate::GameSpec) is not a playable configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameSpecError {
    /// The rules crate refuses the configuration (its reason).
    Rules(rules::RulesError),
}

impl GameSpecError {
    /// The stable code sent in the error frame (the rules crate's: `unsupported_board_size`, …).
    pub fn code(&self) -> &'static str {
        match self {
            GameSpecError::Rules(e) => e.code(),
        }
    }
}

impl fmt::Display for GameSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSpecError::Rules(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GameSpecError {}

/// What the side to act must do, in any game: the game's own phase code (`place`, `pass`, `move`,
/// `swap_decision`, …; each game lists its codes in [`WireGame::PHASES`]), as the `phase` of an `action` event
/// and of a view.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GamePhase(Cow<'static, str>);

impl GamePhase {
    /// The phase of a game's own code.
    pub const fn new(code: &'static str) -> GamePhase {
        GamePhase(Cow::Borrowed(code))
    }

    /// The phase's code.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The phase of a seam phase: its code.
    pub fn of(phase: &impl Coded) -> GamePhase {
        GamePhase::new(phase.code())
    }
}

impl PartialEq<str> for GamePhase {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for GamePhase {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl fmt::Display for GamePhase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A game's wire forms: what the protocol needs of each game of the list, written in the game's own module
/// (`protocol/src/games/<game>.rs`).
pub trait WireGame: Listed {
    /// What the schema says of the game's variant in every tagged union (`Othello.`).
    const DOC: &'static str;
    /// Every phase code of the game (`place`, `pass`), for the schema of [`GamePhase`].
    const PHASES: &'static [&'static str];

    /// The configuration's fields (`create_room.game` without its tag).
    type Spec: Clone
        + Copy
        + fmt::Debug
        + PartialEq
        + Eq
        + Serialize
        + DeserializeOwned
        + JsonSchema;
    /// The public position in a snapshot, with every accepted action's notation.
    type Position: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + JsonSchema;
    /// What one accepted action changed.
    type Changed: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + JsonSchema;
    /// What a result carries beside its winner and reason (Gomoku's never carries one: its results have their own
    /// fields).
    type Outcome: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + JsonSchema;

    /// The wire form of a configuration.
    fn spec(config: &Self::Config) -> Self::Spec;

    /// The validated configuration of a wire form, or why it is not playable.
    fn config(spec: &Self::Spec) -> Result<Self::Config, GameSpecError>;

    /// The wire position of a seam view, with the notation of every action that led to it.
    fn position(view: &Self::View, actions: Vec<String>) -> Self::Position;

    /// The accepted actions' notation of a wire position.
    fn position_actions(position: &Self::Position) -> &[String];

    /// What an accepted action changed, from its delta and the game after it (`None` only if the caller holds
    /// another game, which the room never does).
    fn changed(delta: &Self::Delta, after: Option<&Self>) -> Self::Changed;

    /// Who acts after a delta and what they must do (`None` twice once the rules ended the game).
    fn next(delta: &Self::Delta) -> (Option<Color>, Option<GamePhase>);

    /// A result's wire detail from the seam's, if the game sends one.
    fn outcome(detail: &Self::Detail) -> Option<Self::Outcome>;

    /// The schema of [`WireGame::Outcome`] in [`GameDetail`](crate::GameDetail), `None` when the game sends none.
    fn outcome_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        Some(Self::Outcome::json_schema(generator))
    }
}

/// Every item's text, in order (squares, moves: what the games' wire forms list as strings).
pub(crate) fn texts<T: ToString>(items: &[T]) -> Vec<String> {
    items.iter().map(T::to_string).collect()
}

/// The schema of an enum tagged by `"game"` whose variants each hold one struct: each variant is the struct's own
/// schema with the tag among its properties (not a reference beside them), so every variant describes all its
/// fields in one object, as the tagged form has them.
pub(crate) fn tagged_by_game(
    description: &str,
    variants: Vec<(&str, &str, Option<Schema>)>,
) -> Schema {
    let one_of: Vec<serde_json::Value> = variants
        .into_iter()
        .filter_map(|(tag, doc, schema)| Some((tag, doc, schema?)))
        .map(|(tag, doc, schema)| {
            let mut v = serde_json::Value::from(schema);
            v["properties"]["game"] = serde_json::json!({"type": "string", "const": tag});
            match v["required"].as_array_mut() {
                Some(required) => required.insert(0, "game".into()),
                None => v["required"] = serde_json::json!(["game"]),
            }
            v["description"] = doc.into();
            v
        })
        .collect();
    schemars::json_schema!({"description": description, "oneOf": one_of})
}

/// The list of games on the wire (see `games/mod.rs`): each entry `Variant(Type) = "name"`, the type a
/// [`WireGame`].
macro_rules! wire_games {
    ($( $V:ident($G:ty) = $name:literal ),+ $(,)?) => {
        /// A room's game and its configuration, as a client asks for it (`create_room.game`) and as snapshots and
        /// the lobby show it for games other than Gomoku: the game's fields, tagged by `"game"`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(tag = "game")]
        pub enum GameSpec {
            $(
                #[doc = concat!("`", $name, "`.")]
                #[serde(rename = $name)]
                $V(<$G as WireGame>::Spec),
            )+
        }

        /// A game's public position in a `room` snapshot (`RoomSnapshot::view`), with the actions that led to it,
        /// so a client can replay them into a game of its own.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "game")]
        pub enum GameView {
            $(
                #[doc = concat!("`", $name, "`.")]
                #[serde(rename = $name)]
                $V(<$G as WireGame>::Position),
            )+
        }

        /// What one accepted action changed (the `change` of an `action` event).
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "game")]
        pub enum GameChange {
            $(
                #[doc = concat!("`", $name, "`.")]
                #[serde(rename = $name)]
                $V(<$G as WireGame>::Changed),
            )+
        }

        /// What a result carries for games that send a detail (`GameResult::detail`; Gomoku's five and forbidden
        /// stone have their own fields).
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "game")]
        pub enum GameDetail {
            $(
                #[doc = concat!("`", $name, "`.")]
                #[serde(rename = $name)]
                $V(<$G as WireGame>::Outcome),
            )+
        }

        impl GameSpec {
            /// The game it names.
            pub const fn kind(&self) -> ::games::GameKind {
                match self { $( GameSpec::$V(_) => ::games::GameKind::$V, )+ }
            }

            /// The validated configuration, or why it is not playable.
            pub fn to_config(&self) -> Result<::games::AnyConfig, GameSpecError> {
                match self { $( GameSpec::$V(s) => <$G as WireGame>::config(s).map(::games::AnyConfig::$V), )+ }
            }
        }

        impl From<::games::AnyConfig> for GameSpec {
            fn from(config: ::games::AnyConfig) -> GameSpec {
                match config { $( ::games::AnyConfig::$V(c) => GameSpec::$V(<$G as WireGame>::spec(&c)), )+ }
            }
        }

        impl GameView {
            /// The view of a game as a room shows it: `room_result` as in `games::Game::view` (the room holds a
            /// result, so nobody is to act), with every accepted action's notation.
            pub fn of(game: &::games::AnyGame, room_result: bool) -> GameView {
                use ::games::Game as _;
                GameView::from_view(&game.view(room_result), &game.actions())
            }

            /// A seam view and the actions that led to it.
            pub fn from_view(view: &::games::AnyView, actions: &[::games::AnyAction]) -> GameView {
                let actions: Vec<String> = actions.iter().map(::games::AnyAction::notation).collect();
                match view { $( ::games::AnyView::$V(v) => GameView::$V(<$G as WireGame>::position(v, actions)), )+ }
            }

            /// The accepted actions' notation, in order.
            pub fn actions(&self) -> &[String] {
                match self { $( GameView::$V(p) => <$G as WireGame>::position_actions(p), )+ }
            }
        }

        impl GameChange {
            /// What an accepted action changed, from its delta and the game after it (for what the delta leaves
            /// to the game: Gomoku's stone count, draughts' next legal moves).
            pub fn from_delta(delta: &::games::AnyDelta, after: &::games::AnyGame) -> GameChange {
                match delta {
                    $( ::games::AnyDelta::$V(d) => {
                        #[allow(unreachable_patterns)]
                        let after = match after {
                            ::games::AnyGame::$V(g) => Some(g),
                            _ => None,
                        };
                        GameChange::$V(<$G as WireGame>::changed(d, after))
                    } )+
                }
            }
        }

        /// Who acts next and what they must do after a delta (`None` twice once the rules ended the game).
        pub fn next_to_act(delta: &::games::AnyDelta) -> (Option<::rules::Color>, Option<GamePhase>) {
            match delta { $( ::games::AnyDelta::$V(d) => <$G as WireGame>::next(d), )+ }
        }

        impl GameDetail {
            /// A result's detail from the seam's; `None` for a game whose results carry none (Gomoku's carry
            /// `line` and `forbidden` instead).
            pub fn of(detail: &::games::AnyDetail) -> Option<GameDetail> {
                match detail { $( ::games::AnyDetail::$V(d) => <$G as WireGame>::outcome(d).map(GameDetail::$V), )+ }
            }
        }

        impl JsonSchema for GameSpec {
            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed("GameSpec")
            }

            fn json_schema(generator: &mut SchemaGenerator) -> Schema {
                $crate::game::tagged_by_game(
                    "A room's game and its configuration, as a client asks for it (`create_room.game`) and as \
                     snapshots and the lobby show it for games other than Gomoku.",
                    vec![$( ($name, <$G as WireGame>::DOC, Some(<<$G as WireGame>::Spec>::json_schema(generator))), )+],
                )
            }
        }

        impl JsonSchema for GameView {
            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed("GameView")
            }

            fn json_schema(generator: &mut SchemaGenerator) -> Schema {
                $crate::game::tagged_by_game(
                    "A game's public position in a `room` snapshot, with the actions that led to it.",
                    vec![$( ($name, <$G as WireGame>::DOC, Some(<<$G as WireGame>::Position>::json_schema(generator))), )+],
                )
            }
        }

        impl JsonSchema for GameChange {
            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed("GameChange")
            }

            fn json_schema(generator: &mut SchemaGenerator) -> Schema {
                $crate::game::tagged_by_game(
                    "What one accepted action changed (the `change` of an `action` event).",
                    vec![$( ($name, <$G as WireGame>::DOC, Some(<<$G as WireGame>::Changed>::json_schema(generator))), )+],
                )
            }
        }

        impl JsonSchema for GameDetail {
            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed("GameDetail")
            }

            fn json_schema(generator: &mut SchemaGenerator) -> Schema {
                $crate::game::tagged_by_game(
                    "What a result carries for games other than Gomoku (`GameResult::detail`; Gomoku's five and \
                     forbidden stone have their own fields).",
                    vec![$( ($name, <$G as WireGame>::DOC, <$G as WireGame>::outcome_schema(generator)), )+],
                )
            }
        }

        impl JsonSchema for GamePhase {
            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed("GamePhase")
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                let mut codes: Vec<&str> = Vec::new();
                $( codes.extend(<$G as WireGame>::PHASES); )+
                let mut seen = std::collections::HashSet::new();
                codes.retain(|c| seen.insert(*c));
                schemars::json_schema!({
                    "description": "What the side to act must do: the game's own phase code.",
                    "type": "string",
                    "enum": codes,
                })
            }
        }
    };
}

pub(crate) use wire_games;
