//! The closed enums over the games (as shakmaty's `VariantPosition`), made from the one list in `lib.rs` by
//! [`games!`](crate::games): [`GameKind`](crate::GameKind) and the `Any…` types the room, the protocol and the
//! store hold, each an enum with one variant per game, and every dispatch over them. [`AnyGame`](crate::AnyGame)
//! is itself a [`Game`](crate::Game), so the layers above are typed against the trait and these enums alone.
//! A game added to the list adds a variant to each enum and an arm to each match here, written by the macro.

use std::fmt;

use crate::game::{Outcome, Status};
use crate::storage::DecodeError;

/// Why a stored game does not replay: an action's text does not decode, or the action is illegal there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoredReplayError {
    /// The stored text is no action of the game.
    Decode(DecodeError),
    /// The action is illegal at that point of the game.
    Illegal(crate::AnyIllegal),
}

impl StoredReplayError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        use crate::Coded;
        match self {
            StoredReplayError::Decode(e) => e.code(),
            StoredReplayError::Illegal(e) => e.code(),
        }
    }
}

impl fmt::Display for StoredReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoredReplayError::Decode(e) => e.fmt(f),
            StoredReplayError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StoredReplayError {}

/// A member's status as any game's.
pub(crate) fn any_status<P, D, AP, AD>(
    status: Status<P, D>,
    phase: impl FnOnce(P) -> AP,
    detail: impl FnOnce(D) -> AD,
) -> Status<AP, AD> {
    match status {
        Status::Ongoing { to_act, phase: p } => Status::Ongoing {
            to_act,
            phase: phase(p),
        },
        Status::Over(o) => Status::Over(Outcome {
            winner: o.winner,
            reason: o.reason,
            detail: detail(o.detail),
        }),
    }
}

/// The list of games made into [`GameKind`](crate::GameKind), the `Any…` enums and their dispatch. Each entry is
/// `Variant(Type) = "name"` with its doc: the type implements [`Listed`](crate::Listed), and its name is stored and
/// sent as it is.
#[macro_export]
#[doc(hidden)]
macro_rules! games {
    ($( $(#[$doc:meta])* $V:ident($G:ty) = $name:literal ),+ $(,)?) => {
        /// Which game: the tag of every `Any…` value, stored and sent as its name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameKind {
            $( #[doc = concat!("`", $name, "`.")] $(#[$doc])* $V, )+
        }

        impl GameKind {
            /// How many games there are.
            pub const COUNT: usize = [$( $name ),+].len();

            /// Every game, in the list's order (the order pools and tiles are shown in).
            pub const ALL: [GameKind; GameKind::COUNT] = [$( GameKind::$V ),+];

            /// Stable name, as stored and sent (`gomoku`).
            pub const fn as_str(self) -> &'static str {
                match self { $( GameKind::$V => $name, )+ }
            }

            /// An action of this game from its notation (see [`crate::notation`]).
            pub fn parse_action(self, text: &str) -> Result<AnyAction, $crate::NotationError> {
                match self {
                    $( GameKind::$V => <$G as $crate::Listed>::read_notation(text).map(AnyAction::$V), )+
                }
            }

            /// The game's rating pools, in display order.
            pub fn pools(self) -> &'static [$crate::PoolKey] {
                match self { $( GameKind::$V => <$G as $crate::Listed>::pools(), )+ }
            }

            /// The configuration a room of this game has when it names no other.
            pub fn default_config(self) -> AnyConfig {
                match self { $( GameKind::$V => AnyConfig::$V(<$G as $crate::Listed>::default_config()), )+ }
            }

            /// The game's quick-pairing presets, in the order the lobby shows them.
            pub fn quick_presets(self) -> Vec<$crate::QuickPreset<AnyConfig>> {
                match self {
                    $( GameKind::$V => <$G as $crate::Listed>::quick_presets()
                        .into_iter()
                        .map(|p| $crate::QuickPreset { id: p.id, config: AnyConfig::$V(p.config), clock: p.clock })
                        .collect(), )+
                }
            }

            /// How the game's record is exported.
            pub const fn record_format(self) -> $crate::RecordFormat {
                match self { $( GameKind::$V => <$G as $crate::Listed>::RECORD, )+ }
            }
        }

        /// Any game's configuration.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum AnyConfig {
            $( #[doc = concat!("`", $name, "`.")] $(#[$doc])* $V(<$G as $crate::Game>::Config), )+
        }

        /// Any game's action (not `Copy`: a draughts move holds its path).
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum AnyAction {
            $( #[doc = concat!("`", $name, "`.")] $(#[$doc])* $V(<$G as $crate::Game>::Action), )+
        }

        /// Any game's refusal of an action.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum AnyIllegal {
            $( #[doc = concat!("`", $name, "`.")] $(#[$doc])* $V(<$G as $crate::Game>::Illegal), )+
            /// An action of another game than the one it was applied to.
            WrongGame,
        }

        /// Any game's phase.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum AnyPhase {
            $( #[doc = concat!("`", $name, "`.")] $(#[$doc])* $V(<$G as $crate::Game>::Phase), )+
        }

        /// Any game's outcome detail.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyDetail {
            $( #[doc = concat!("`", $name, "`.")] $(#[$doc])* $V(<$G as $crate::Game>::Detail), )+
        }

        /// Any game's public view.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyView {
            $( #[doc = concat!("`", $name, "`.")] $(#[$doc])* $V(<$G as $crate::Game>::View), )+
        }

        /// Any game's per-action delta.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyDelta {
            $( #[doc = concat!("`", $name, "`.")] $(#[$doc])* $V(<$G as $crate::Game>::Delta), )+
        }

        /// Any game's legal-action listing.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyLegal {
            $( #[doc = concat!("`", $name, "`.")] $(#[$doc])* $V(<$G as $crate::Game>::Legal), )+
        }

        /// Any game.
        // A room holds one game for its life and moves it rarely; boxing the larger boards would cost every access
        // an indirection to save a few hundred bytes.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyGame {
            $( #[doc = concat!("`", $name, "`.")] $(#[$doc])* $V($G), )+
        }

        impl AnyAction {
            /// The game the action belongs to.
            pub const fn kind(&self) -> GameKind {
                match self { $( AnyAction::$V(_) => GameKind::$V, )+ }
            }

            /// The action's notation.
            pub fn notation(&self) -> String {
                match self { $( AnyAction::$V(a) => <$G as $crate::Game>::notation(a), )+ }
            }

            /// The action's stored text: its notation.
            pub fn encode(&self) -> String {
                self.notation()
            }

            /// An action of a game back from its stored text ([`crate::Listed::decode_action`]).
            pub fn decode(kind: GameKind, text: &str) -> Result<AnyAction, $crate::DecodeError> {
                match kind {
                    $( GameKind::$V => <$G as $crate::Listed>::decode_action(text).map(AnyAction::$V), )+
                }
            }
        }

        impl ::std::fmt::Display for AnyAction {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(&self.notation())
            }
        }

        impl $crate::GameConfig for AnyConfig {
            fn kind(&self) -> GameKind {
                match self { $( AnyConfig::$V(c) => c.kind(), )+ }
            }

            fn pool(&self) -> $crate::PoolKey {
                match self { $( AnyConfig::$V(c) => c.pool(), )+ }
            }

            fn encode(&self) -> String {
                match self { $( AnyConfig::$V(c) => c.encode(), )+ }
            }
        }

        impl AnyConfig {
            /// The configuration as stored.
            pub fn stored(&self) -> $crate::StoredConfig {
                use $crate::GameConfig;
                $crate::StoredConfig {
                    game: self.kind().as_str(),
                    text: self.encode(),
                }
            }

            /// A configuration back from its stored game name and text.
            pub fn decode(game: &str, text: &str) -> Result<AnyConfig, $crate::ConfigError> {
                match game.parse::<GameKind>() {
                    $( Ok(GameKind::$V) => <$G as $crate::Listed>::decode_config(text).map(AnyConfig::$V), )+
                    Err(_) => Err($crate::ConfigError::UnknownGame),
                }
            }
        }

        impl $crate::Coded for AnyIllegal {
            fn code(&self) -> &'static str {
                match self {
                    $( AnyIllegal::$V(e) => $crate::Coded::code(e), )+
                    AnyIllegal::WrongGame => "wrong_game",
                }
            }
        }

        impl ::std::fmt::Display for AnyIllegal {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    $( AnyIllegal::$V(e) => e.fmt(f), )+
                    AnyIllegal::WrongGame => f.write_str("the action belongs to another game"),
                }
            }
        }

        impl ::std::error::Error for AnyIllegal {}

        impl $crate::Coded for AnyPhase {
            fn code(&self) -> &'static str {
                match self { $( AnyPhase::$V(p) => p.code(), )+ }
            }
        }

        impl AnyGame {
            /// The game's kind.
            pub fn kind(&self) -> GameKind {
                match self { $( AnyGame::$V(_) => GameKind::$V, )+ }
            }

            /// The record in the game's usual text ([`GameKind::record_format`]).
            pub fn record(&self, header: &$crate::RecordHeader<'_>) -> String {
                match self { $( AnyGame::$V(g) => <$G as $crate::Listed>::record(g, header), )+ }
            }

            /// Replays a stored game: its configuration, the seat that held the first colour at the start, and
            /// its actions' stored texts in order (notation, or a game's older stored form).
            pub fn replay_stored<S: AsRef<str>>(
                config: AnyConfig,
                first_seat: $crate::Seat,
                texts: &[S],
            ) -> Result<AnyGame, $crate::ReplayError<$crate::StoredReplayError>> {
                use $crate::{Game, GameConfig};
                let kind = config.kind();
                let mut game = AnyGame::new(config, first_seat);
                for (index, text) in texts.iter().enumerate() {
                    let action = AnyAction::decode(kind, text.as_ref()).map_err(|e| $crate::ReplayError {
                        index,
                        reason: $crate::StoredReplayError::Decode(e),
                    })?;
                    game.apply(action).map_err(|e| $crate::ReplayError {
                        index,
                        reason: $crate::StoredReplayError::Illegal(e),
                    })?;
                }
                Ok(game)
            }
        }

        impl $crate::Game for AnyGame {
            type Config = AnyConfig;
            type Action = AnyAction;
            type Illegal = AnyIllegal;
            type Phase = AnyPhase;
            type Detail = AnyDetail;
            type View = AnyView;
            type Delta = AnyDelta;
            type Legal = AnyLegal;

            fn new(config: AnyConfig, first_seat: $crate::Seat) -> AnyGame {
                match config { $( AnyConfig::$V(c) => AnyGame::$V(<$G>::new(c, first_seat)), )+ }
            }

            fn config(&self) -> AnyConfig {
                match self { $( AnyGame::$V(g) => AnyConfig::$V(g.config()), )+ }
            }

            fn status(&self) -> $crate::Status<AnyPhase, AnyDetail> {
                match self {
                    $( AnyGame::$V(g) => $crate::any::any_status(g.status(), AnyPhase::$V, AnyDetail::$V), )+
                }
            }

            fn first_colour(&self) -> ::rules::Color {
                match self { $( AnyGame::$V(g) => g.first_colour(), )+ }
            }

            fn first_seat(&self) -> $crate::Seat {
                match self { $( AnyGame::$V(g) => g.first_seat(), )+ }
            }

            fn apply(&mut self, action: AnyAction) -> Result<AnyDelta, AnyIllegal> {
                match (self, action) {
                    $( (AnyGame::$V(g), AnyAction::$V(a)) => g.apply(a).map(AnyDelta::$V).map_err(AnyIllegal::$V), )+
                    #[allow(unreachable_patterns)]
                    _ => Err(AnyIllegal::WrongGame),
                }
            }

            fn apply_as(&mut self, seat: $crate::Seat, action: AnyAction) -> Result<AnyDelta, AnyIllegal> {
                match (self, action) {
                    $( (AnyGame::$V(g), AnyAction::$V(a)) => {
                        g.apply_as(seat, a).map(AnyDelta::$V).map_err(AnyIllegal::$V)
                    } )+
                    #[allow(unreachable_patterns)]
                    _ => Err(AnyIllegal::WrongGame),
                }
            }

            fn undo(&mut self) -> Option<AnyAction> {
                match self { $( AnyGame::$V(g) => g.undo().map(AnyAction::$V), )+ }
            }

            fn action_count(&self) -> usize {
                match self { $( AnyGame::$V(g) => g.action_count(), )+ }
            }

            fn actions(&self) -> Vec<AnyAction> {
                match self { $( AnyGame::$V(g) => g.actions().into_iter().map(AnyAction::$V).collect(), )+ }
            }

            fn ply(&self) -> u32 {
                match self { $( AnyGame::$V(g) => g.ply(), )+ }
            }

            fn is_move(action: &AnyAction) -> bool {
                match action { $( AnyAction::$V(a) => <$G>::is_move(a), )+ }
            }

            fn is_opening_decision(action: &AnyAction) -> bool {
                match action { $( AnyAction::$V(a) => <$G>::is_opening_decision(a), )+ }
            }

            fn at_most_once(action: &AnyAction) -> bool {
                match action { $( AnyAction::$V(a) => <$G>::at_most_once(a), )+ }
            }

            fn legal(&self) -> AnyLegal {
                match self { $( AnyGame::$V(g) => AnyLegal::$V(g.legal()), )+ }
            }

            fn legal_actions(&self) -> Vec<AnyAction> {
                match self {
                    $( AnyGame::$V(g) => g.legal_actions().into_iter().map(AnyAction::$V).collect(), )+
                }
            }

            fn forced(&self) -> Option<AnyAction> {
                match self { $( AnyGame::$V(g) => g.forced().map(AnyAction::$V), )+ }
            }

            fn view(&self, room_result: bool) -> AnyView {
                match self { $( AnyGame::$V(g) => AnyView::$V(g.view(room_result)), )+ }
            }

            fn notation(action: &AnyAction) -> String {
                action.notation()
            }

            fn parse_action(&self, text: &str) -> Result<AnyAction, $crate::NotationError> {
                self.kind().parse_action(text)
            }
        }
    };
}
