//! A game on the wire, for every game of the seam: the snapshot's [`GameView`], the `action` event's
//! [`GameChange`], the phase ([`GamePhase`]) and a result's [`GameDetail`], each tagged by `"game"`, with the one
//! call that builds each from the seam's values (`games::AnyView`, `AnyDelta`, `AnyDetail`) and the room's data.
//!
//! As in [`crate::GameSpec`], every encoding is written out here, so that no rename in `games` or `rules` changes
//! a frame (`tests/protocol/golden.rs` pins them).

use games::{
    AnyAction, AnyDelta, AnyDetail, AnyGame, AnyPhase, AnyView, DraughtsChange, DraughtsCounters,
    DraughtsDetail, DraughtsLegalMove, Game, GomokuChange, OthelloChange, Status,
};
use rules::draughts::{Piece, Role};
use rules::{Color, ForbiddenKind, Point};
use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};

use crate::game::OthelloScoring;
use crate::types::{ForbiddenPoint, RoomPhase};

/// What the side to act must do, in any game (the `phase` of an `action` event and of a view).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GamePhase {
    /// Place a stone or a disc (Gomoku, Othello).
    Place,
    /// Pass: no disc can go anywhere, but the opponent can move (Othello).
    Pass,
    /// Move a piece (draughts).
    Move,
    /// Gomoku: the player holding white decides whether to swap colours.
    SwapDecision,
    /// Gomoku: black proposes two fifth moves.
    ProposeFifth,
    /// Gomoku: white chooses one of them.
    ChooseFifth,
    /// Gomoku (Swap1, Swap2, Soosõrv): the first player places the next of the first three stones.
    PlaceOpening,
    /// Gomoku (Swap2): swap, keep, or place two more stones.
    Swap2Decision,
    /// Gomoku (Soosõrv): white declares how many fifth moves black offers.
    DeclareOffers,
    /// Gomoku (Soosõrv, Taraguchi): black offers fifth moves.
    OfferFifths,
    /// Gomoku (Taraguchi): black swaps or keeps, or offers N fifth moves.
    TaraguchiChoice,
    /// Gomoku (Soosõrv, Taraguchi): white chooses one of black's offers.
    ChooseOffer,
}

impl From<AnyPhase> for GamePhase {
    fn from(p: AnyPhase) -> GamePhase {
        match p {
            AnyPhase::Gomoku(p) => match RoomPhase::from(p) {
                RoomPhase::SwapDecision => GamePhase::SwapDecision,
                RoomPhase::ProposeFifth => GamePhase::ProposeFifth,
                RoomPhase::ChooseFifth => GamePhase::ChooseFifth,
                RoomPhase::PlaceOpening => GamePhase::PlaceOpening,
                RoomPhase::Swap2Decision => GamePhase::Swap2Decision,
                RoomPhase::DeclareOffers => GamePhase::DeclareOffers,
                RoomPhase::OfferFifths => GamePhase::OfferFifths,
                RoomPhase::TaraguchiChoice => GamePhase::TaraguchiChoice,
                RoomPhase::ChooseOffer => GamePhase::ChooseOffer,
                RoomPhase::Place | RoomPhase::None => GamePhase::Place,
            },
            AnyPhase::Othello(games::OthelloPhase::Place) => GamePhase::Place,
            AnyPhase::Othello(games::OthelloPhase::Pass) => GamePhase::Pass,
            AnyPhase::Draughts(games::DraughtsPhase::Move) => GamePhase::Move,
        }
    }
}

/// A game's public position in a `room` snapshot (`RoomSnapshot::view`), with the actions that led to it, so a
/// client can replay them into a game of its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum GameView {
    /// Gomoku or Renju (Gomoku rooms send their snapshot fields instead; this form is for uniform clients).
    Gomoku(GomokuPosition),
    /// Othello.
    Othello(OthelloPosition),
    /// International draughts.
    Draughts(DraughtsPosition),
}

/// A Gomoku position as [`GameView::Gomoku`] carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GomokuPosition {
    /// Board side.
    pub size: u8,
    /// The stones in order, black first.
    #[schemars(with = "Vec<crate::schema::PointDef>")]
    pub moves: Vec<Point>,
    /// Who acts, while the game runs.
    #[schemars(with = "Option<crate::schema::ColorDef>")]
    pub to_act: Option<Color>,
    /// What they must do, while the game runs.
    pub phase: Option<GamePhase>,
    /// Whether the players exchanged colours after move 3.
    pub swapped: bool,
    /// Black's forbidden points, under renju while black is to place.
    pub forbidden: Vec<ForbiddenPoint>,
    /// Under the claim policy: black's forbidden stone white may claim now.
    pub claimable: Option<ForbiddenPoint>,
    /// The two proposed fifth moves while white chooses.
    #[schemars(with = "Option<[crate::schema::PointDef; 2]>")]
    pub fifth_options: Option<[Point; 2]>,
    /// Soosõrv and Taraguchi: black's offered fifth moves while white chooses one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<crate::schema::PointDef>>")]
    pub offers: Option<Vec<Point>>,
    /// How many fifth moves black must offer now (`offer_fifths`, `taraguchi_choice`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_count: Option<u8>,
    /// Soosõrv: the most fifth moves white may declare now (`declare_offers`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declare_max: Option<u8>,
    /// The canonical opening the first three stones make, once they make one of the 26.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_name: Option<OpeningName>,
    /// Every accepted action's notation, in order (`h8`, `swap`, `propose:i9,j10`, …).
    pub actions: Vec<String>,
}

/// One of the 26 canonical renju openings, as a client shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OpeningName {
    /// `1D` … `13D`, `1I` … `13I`.
    pub code: String,
    /// The Japanese name in romaji (`Kagetsu`).
    pub romaji: String,
    /// The Japanese name in kanji (`花月`).
    pub japanese: String,
    /// The Chinese name (`花月`).
    pub chinese: String,
    /// An English rendering (`Flower moon`).
    pub english: String,
}

impl From<&rules::CanonicalOpening> for OpeningName {
    fn from(o: &rules::CanonicalOpening) -> OpeningName {
        OpeningName {
            code: o.code.to_owned(),
            romaji: o.romaji.to_owned(),
            japanese: o.japanese.to_owned(),
            chinese: o.chinese.to_owned(),
            english: o.english.to_owned(),
        }
    }
}

/// An Othello position as [`GameView::Othello`] carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OthelloPosition {
    /// The 64 squares `a1`, `b1`, …, `h1`, then `a2`, …: `.` empty, `b` black, `w` white.
    pub board: String,
    /// Black discs.
    pub black: u8,
    /// White discs.
    pub white: u8,
    /// Who acts, while the game runs.
    #[schemars(with = "Option<crate::schema::ColorDef>")]
    pub to_act: Option<Color>,
    /// `place` or `pass`, while the game runs.
    pub phase: Option<GamePhase>,
    /// Where the side to act may place, while the game runs (empty when it must pass).
    pub legal: Vec<String>,
    /// The last action (`f5` or `pass`), to mark on the board.
    pub last: Option<String>,
    /// Every accepted action's notation, in order.
    pub actions: Vec<String>,
}

/// A draughts position as [`GameView::Draughts`] carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DraughtsPosition {
    /// The 50 squares, square 1 first: `.` empty, `w`/`b` a white/black man, `W`/`B` a king.
    pub board: String,
    /// Who acts, while the game runs.
    #[schemars(with = "Option<crate::schema::ColorDef>")]
    pub to_act: Option<Color>,
    /// The legal moves, while the game runs (already cut to the majority captures).
    pub legal: Vec<LegalDraughtsMove>,
    /// The draw counters.
    pub counters: DrawCounters,
    /// Moves made.
    pub ply: u32,
    /// Every accepted move's notation (its listed path), in order.
    pub actions: Vec<String>,
}

/// One legal draughts move, as a client draws its route.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LegalDraughtsMove {
    /// Its notation, to send as `act.action` (`32-28`, `28x19x10`).
    #[serde(rename = "move")]
    pub notation: String,
    /// The squares the piece stands on, start first.
    pub path: Vec<u8>,
    /// The squares of the pieces it takes, in increasing order.
    pub captured: Vec<u8>,
    /// Whether a man ends on the far row and is crowned.
    pub crowned: bool,
}

/// The draughts draw counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DrawCounters {
    /// Plies in a row of king moves without capture (the 25-move rule draws at 50).
    pub king_plies: u32,
    /// While an endgame limit runs: its moves each and the plies played under it.
    pub endgame: Option<EndgameCount>,
    /// How often the position now has occurred with this side to move (a third time draws).
    pub repetitions: u32,
}

/// A running endgame limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EndgameCount {
    /// The limit: 16 or 5 moves by each side.
    pub moves_each: u32,
    /// Plies played under it.
    pub played: u32,
}

/// What one accepted action changed (the `change` of an `action` event).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum GameChange {
    /// Gomoku or Renju.
    Gomoku(GomokuChanged),
    /// Othello.
    Othello(OthelloChanged),
    /// International draughts.
    Draughts(DraughtsChanged),
}

/// What a Gomoku action changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GomokuChanged {
    /// The stone placed (by a placement or a fifth-move choice), else `null`.
    #[schemars(with = "Option<crate::schema::PointDef>")]
    pub placed: Option<Point>,
    /// Stones on the board after it.
    pub ply: u32,
    /// Under the claim policy: the stone is forbidden for this reason and white may claim it now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<crate::schema::ForbiddenKindDef>")]
    pub claimable: Option<ForbiddenKind>,
    /// After a swap decision: whether the colours were exchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swapped: Option<bool>,
    /// After a fifth-move proposal: the two points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<[crate::schema::PointDef; 2]>")]
    pub proposed: Option<[Point; 2]>,
    /// After a claim: black's forbidden stone that lost the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimed: Option<ForbiddenPoint>,
    /// Swap2's third answer: white's and black's extra stones (stones 4 and 5), in that order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<[crate::schema::PointDef; 2]>")]
    pub added: Option<[Point; 2]>,
    /// Soosõrv: the number of fifth moves white declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared: Option<u8>,
    /// Black's offered fifth moves, in the order given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<crate::schema::PointDef>>")]
    pub offered: Option<Vec<Point>>,
    /// Black's forbidden points in the new position.
    pub forbidden: Vec<ForbiddenPoint>,
}

/// What an Othello action changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OthelloChanged {
    /// The disc placed, `null` for a pass.
    pub placed: Option<String>,
    /// The discs it flipped, in index order.
    pub flipped: Vec<String>,
    /// Black discs after it.
    pub black: u8,
    /// White discs after it.
    pub white: u8,
    /// Where the side to act next may place (empty when it must pass or the game is over).
    pub legal: Vec<String>,
}

/// What a draughts move changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DraughtsChanged {
    /// The move's listed path.
    pub path: Vec<u8>,
    /// The pieces taken off, in increasing order.
    pub captured: Vec<u8>,
    /// Whether the man was crowned.
    pub crowned: bool,
    /// Moves made after it (the first move is ply 1).
    pub ply: u32,
    /// The draw counters after it.
    pub counters: DrawCounters,
    /// The next side's legal moves (empty once the game is over).
    pub legal: Vec<LegalDraughtsMove>,
}

/// What a result carries for games other than Gomoku (`GameResult::detail`; Gomoku's five and forbidden stone
/// have their own fields).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum GameDetail {
    /// Othello: the discs and the score.
    Othello {
        /// The discs on the board.
        discs: Discs,
        /// The final counts with the empty squares given out.
        scored: Discs,
        /// The scoring used.
        scoring: OthelloScoring,
        /// The result as shown, from `scored`: `black 40–24`, `white 33–31`, `draw 32–32` (empty from a server
        /// that predates it).
        #[serde(default)]
        score: String,
    },
    /// Draughts: the rule that decided it (`no_pieces`, `no_moves`, `threefold`, `twenty_five_moves`,
    /// `endgame_limit`).
    Draughts {
        /// The rule's code.
        rule: String,
    },
}

/// Disc counts of Othello.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Discs {
    /// Black's.
    pub black: u8,
    /// White's.
    pub white: u8,
}

/// The schema of an enum tagged by `"game"` whose variants each hold one struct: each variant is the struct's own
/// schema with the tag among its properties (not a reference beside them), so every variant describes all its
/// fields in one object, as the tagged form has them.
fn tagged_by_game(description: &str, variants: Vec<(&str, &str, Schema)>) -> Schema {
    let one_of: Vec<serde_json::Value> = variants
        .into_iter()
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

impl JsonSchema for GameView {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("GameView")
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        tagged_by_game(
            "A game's public position in a `room` snapshot, with the actions that led to it.",
            vec![
                (
                    "gomoku",
                    "Gomoku or Renju (a form for uniform clients; Gomoku rooms send their snapshot fields).",
                    GomokuPosition::json_schema(generator),
                ),
                ("othello", "Othello.", OthelloPosition::json_schema(generator)),
                (
                    "draughts",
                    "International draughts.",
                    DraughtsPosition::json_schema(generator),
                ),
            ],
        )
    }
}

impl JsonSchema for GameChange {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("GameChange")
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        tagged_by_game(
            "What one accepted action changed (the `change` of an `action` event).",
            vec![
                (
                    "gomoku",
                    "Gomoku or Renju.",
                    GomokuChanged::json_schema(generator),
                ),
                (
                    "othello",
                    "Othello.",
                    OthelloChanged::json_schema(generator),
                ),
                (
                    "draughts",
                    "International draughts.",
                    DraughtsChanged::json_schema(generator),
                ),
            ],
        )
    }
}

fn forbidden_points(points: &[(Point, ForbiddenKind)]) -> Vec<ForbiddenPoint> {
    points
        .iter()
        .map(|&(point, kind)| ForbiddenPoint { point, kind })
        .collect()
}

fn squares(set: impl IntoIterator<Item = rules::draughts::Square>) -> Vec<u8> {
    set.into_iter().map(|s| s.number()).collect()
}

fn texts<T: ToString>(items: &[T]) -> Vec<String> {
    items.iter().map(T::to_string).collect()
}

fn legal_moves(moves: &[DraughtsLegalMove]) -> Vec<LegalDraughtsMove> {
    moves
        .iter()
        .map(|m| LegalDraughtsMove {
            notation: games::draughts_text(&m.action()),
            path: squares(m.path.iter().copied()),
            captured: squares(m.captured.iter()),
            crowned: m.crowned,
        })
        .collect()
}

impl From<DraughtsCounters> for DrawCounters {
    fn from(c: DraughtsCounters) -> DrawCounters {
        DrawCounters {
            king_plies: c.king_plies,
            endgame: c
                .endgame
                .map(|(moves_each, played)| EndgameCount { moves_each, played }),
            repetitions: c.repetitions,
        }
    }
}

fn piece_char(piece: Option<Piece>) -> char {
    match piece {
        None => '.',
        Some(Piece {
            colour: Color::White,
            role: Role::Man,
        }) => 'w',
        Some(Piece {
            colour: Color::Black,
            role: Role::Man,
        }) => 'b',
        Some(Piece {
            colour: Color::White,
            role: Role::King,
        }) => 'W',
        Some(Piece {
            colour: Color::Black,
            role: Role::King,
        }) => 'B',
    }
}

fn disc_char(disc: Option<Color>) -> char {
    match disc {
        None => '.',
        Some(Color::Black) => 'b',
        Some(Color::White) => 'w',
    }
}

impl GameView {
    /// The view of a game as a room shows it: `room_result` as in `games::Game::view` (the room holds a result,
    /// so nobody is to act), with every accepted action's notation.
    pub fn of(game: &AnyGame, room_result: bool) -> GameView {
        GameView::from_view(&game.view(room_result), &game.actions())
    }

    /// A seam view and the actions that led to it.
    pub fn from_view(view: &AnyView, actions: &[AnyAction]) -> GameView {
        let actions: Vec<String> = actions.iter().map(AnyAction::notation).collect();
        match view {
            AnyView::Gomoku(v) => GameView::Gomoku(GomokuPosition {
                size: v.size,
                moves: v.moves.clone(),
                to_act: v.to_act,
                phase: v.phase.map(|p| AnyPhase::Gomoku(p).into()),
                swapped: v.swapped,
                forbidden: forbidden_points(&v.forbidden),
                claimable: v
                    .claimable
                    .map(|(point, kind)| ForbiddenPoint { point, kind }),
                fifth_options: v.fifth_options,
                offers: v.offers.clone(),
                offer_count: match v.phase {
                    Some(
                        rules::Phase::OfferFifths { count }
                        | rules::Phase::TaraguchiChoice { count },
                    ) => Some(count),
                    _ => None,
                },
                declare_max: match v.phase {
                    Some(rules::Phase::DeclareOffers { max }) => Some(max),
                    _ => None,
                },
                opening_name: v.opening_name.map(OpeningName::from),
                actions,
            }),
            AnyView::Othello(v) => GameView::Othello(OthelloPosition {
                board: v.cells.iter().copied().map(disc_char).collect(),
                black: v.black,
                white: v.white,
                to_act: v.to_act,
                phase: v.phase.map(|p| AnyPhase::Othello(p).into()),
                legal: texts(&v.legal),
                last: v.last.map(|m| m.to_string()),
                actions,
            }),
            AnyView::Draughts(v) => GameView::Draughts(DraughtsPosition {
                board: v.squares.iter().copied().map(piece_char).collect(),
                to_act: v.to_act,
                legal: legal_moves(&v.legal),
                counters: v.counters.into(),
                ply: v.ply,
                actions,
            }),
        }
    }

    /// The accepted actions' notation, in order.
    pub fn actions(&self) -> &[String] {
        match self {
            GameView::Gomoku(v) => &v.actions,
            GameView::Othello(v) => &v.actions,
            GameView::Draughts(v) => &v.actions,
        }
    }
}

impl GameChange {
    /// What an accepted action changed, from its delta and the game after it (for what the delta leaves to the
    /// game: Gomoku's stone count, draughts' next legal moves).
    pub fn from_delta(delta: &AnyDelta, after: &AnyGame) -> GameChange {
        match delta {
            AnyDelta::Gomoku(d) => {
                let mut change = GomokuChanged {
                    placed: None,
                    ply: after.ply(),
                    claimable: None,
                    swapped: None,
                    proposed: None,
                    claimed: None,
                    added: None,
                    declared: None,
                    offered: None,
                    forbidden: forbidden_points(&d.forbidden),
                };
                match &d.change {
                    GomokuChange::Placed {
                        point,
                        ply,
                        claimable,
                        ..
                    } => {
                        change.placed = Some(*point);
                        change.ply = *ply;
                        change.claimable = *claimable;
                    }
                    GomokuChange::SwapDecided { swapped } => change.swapped = Some(*swapped),
                    GomokuChange::FifthProposed { points } => change.proposed = Some(*points),
                    GomokuChange::ForbiddenClaimed { point, kind } => {
                        change.claimed = Some(ForbiddenPoint {
                            point: *point,
                            kind: *kind,
                        });
                    }
                    GomokuChange::TwoPlaced { points } => change.added = Some(*points),
                    GomokuChange::OffersDeclared { count } => change.declared = Some(*count),
                    GomokuChange::FifthsOffered { points } => change.offered = Some(points.clone()),
                }
                GameChange::Gomoku(change)
            }
            AnyDelta::Othello(d) => {
                let (placed, flipped) = match &d.change {
                    OthelloChange::Placed {
                        square, flipped, ..
                    } => (Some(square.to_string()), texts(flipped)),
                    OthelloChange::Passed { .. } => (None, Vec::new()),
                };
                GameChange::Othello(OthelloChanged {
                    placed,
                    flipped,
                    black: d.black,
                    white: d.white,
                    legal: texts(&d.legal),
                })
            }
            AnyDelta::Draughts(d) => {
                let DraughtsChange::Moved {
                    path,
                    captured,
                    crowned,
                    ..
                } = &d.change;
                let legal = match after {
                    AnyGame::Draughts(g) if !d.status.is_over() => legal_moves(&g.legal().moves),
                    _ => Vec::new(),
                };
                GameChange::Draughts(DraughtsChanged {
                    path: squares(path.iter().copied()),
                    captured: squares(captured.iter()),
                    crowned: *crowned,
                    ply: d.ply,
                    counters: d.counters.into(),
                    legal,
                })
            }
        }
    }
}

/// Who acts next and what they must do after a delta (`None` twice once the rules ended the game).
pub fn next_to_act(delta: &AnyDelta) -> (Option<Color>, Option<GamePhase>) {
    fn split<P: Copy, D>(
        status: &Status<P, D>,
        phase: impl Fn(P) -> AnyPhase,
    ) -> (Option<Color>, Option<GamePhase>) {
        (
            status.to_act(),
            status.phase().map(|&p| GamePhase::from(phase(p))),
        )
    }
    match delta {
        AnyDelta::Gomoku(d) => split(&d.status, AnyPhase::Gomoku),
        AnyDelta::Othello(d) => split(&d.status, AnyPhase::Othello),
        AnyDelta::Draughts(d) => split(&d.status, AnyPhase::Draughts),
    }
}

impl GameDetail {
    /// A result's detail from the seam's; `None` for Gomoku, whose results carry `line` and `forbidden` instead.
    pub fn of(detail: &AnyDetail) -> Option<GameDetail> {
        match detail {
            AnyDetail::Gomoku(_) => None,
            AnyDetail::Othello(d) => Some(GameDetail::Othello {
                discs: Discs {
                    black: d.discs.black,
                    white: d.discs.white,
                },
                scored: Discs {
                    black: d.scored.black,
                    white: d.scored.white,
                },
                scoring: d.scoring.into(),
                score: d.result_text(),
            }),
            AnyDetail::Draughts(d) => Some(GameDetail::Draughts {
                rule: match d {
                    DraughtsDetail::Win(reason) => reason.code(),
                    DraughtsDetail::Draw(reason) => reason.code(),
                }
                .to_owned(),
            }),
        }
    }
}
