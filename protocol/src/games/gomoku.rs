//! Gomoku and Renju on the wire (the generic forms; Gomoku rooms of protocol version 1 also speak the older
//! fields of `RoomSnapshot` and their own events).

use games::{Game, GomokuChange, GomokuConfig, GomokuDelta, GomokuView};
use rules::{Color, ForbiddenKind, ForbiddenPolicy, Opening, Point, RuleSet};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};

use crate::game::{GamePhase, GameSpecError, WireGame};
use crate::types::{ForbiddenPoint, RulesSpec};
use crate::GameSpec;

/// Gomoku's configuration on the wire: the fields of [`RulesSpec`], with its defaults (written out, not nested,
/// so the schema of the tagged form describes every field itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GomokuSpec {
    /// Board side, 15 (default) or 19 (not for renju).
    #[serde(
        default = "crate::types::default_size",
        deserialize_with = "crate::whole::number"
    )]
    pub size: u8,
    /// `freestyle`, `standard` or `renju`.
    #[schemars(with = "crate::schema::RuleSetDef")]
    pub rule_set: RuleSet,
    /// `lose`, `reject` (default) or `claim`; meaningful under renju only.
    #[serde(default)]
    #[schemars(with = "crate::schema::ForbiddenPolicyDef")]
    pub forbidden_policy: ForbiddenPolicy,
    /// `none` (default), `swap_after_three`, `swap_after_three_fifth_two_options`, `swap1`, `swap2`,
    /// `soosorv` / `soosorv_N` or `taraguchi` / `taraguchi_N` (as in [`RulesSpec`]).
    #[serde(default)]
    #[schemars(with = "crate::schema::OpeningDef")]
    pub opening: Opening,
}

impl From<RulesSpec> for GomokuSpec {
    fn from(r: RulesSpec) -> GomokuSpec {
        GomokuSpec {
            size: r.size,
            rule_set: r.rule_set,
            forbidden_policy: r.forbidden_policy,
            opening: r.opening,
        }
    }
}

impl From<GomokuSpec> for RulesSpec {
    fn from(s: GomokuSpec) -> RulesSpec {
        RulesSpec {
            size: s.size,
            rule_set: s.rule_set,
            forbidden_policy: s.forbidden_policy,
            opening: s.opening,
        }
    }
}

impl From<RulesSpec> for GameSpec {
    fn from(r: RulesSpec) -> GameSpec {
        GameSpec::Gomoku(r.into())
    }
}

impl GameSpec {
    /// Gomoku's rules, when it names Gomoku.
    pub fn rules(&self) -> Option<RulesSpec> {
        match self {
            GameSpec::Gomoku(s) => Some((*s).into()),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }
}

/// A Gomoku position as [`crate::GameView`] carries it.
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

/// Gomoku's results carry no [`crate::GameDetail`] (their `line` and `forbidden` fields say what a client shows):
/// a type with no value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum GomokuOutcome {}

fn forbidden_points(points: &[(Point, ForbiddenKind)]) -> Vec<ForbiddenPoint> {
    points
        .iter()
        .map(|&(point, kind)| ForbiddenPoint { point, kind })
        .collect()
}

impl WireGame for games::Gomoku {
    const DOC: &'static str = "Gomoku or Renju.";
    const PHASES: &'static [&'static str] = &[
        "place",
        "swap_decision",
        "propose_fifth",
        "choose_fifth",
        "place_opening",
        "swap2_decision",
        "declare_offers",
        "offer_fifths",
        "taraguchi_choice",
        "choose_offer",
    ];
    type Spec = GomokuSpec;
    type Position = GomokuPosition;
    type Changed = GomokuChanged;
    type Outcome = GomokuOutcome;

    fn spec(config: &GomokuConfig) -> GomokuSpec {
        RulesSpec::from(config.rules()).into()
    }

    fn config(s: &GomokuSpec) -> Result<GomokuConfig, GameSpecError> {
        GomokuConfig::new(s.size, s.rule_set, s.forbidden_policy, s.opening)
            .map_err(GameSpecError::Rules)
    }

    fn position(v: &GomokuView, actions: Vec<String>) -> GomokuPosition {
        GomokuPosition {
            size: v.size,
            moves: v.moves.clone(),
            to_act: v.to_act,
            phase: v.phase.as_ref().map(GamePhase::of),
            swapped: v.swapped,
            forbidden: forbidden_points(&v.forbidden),
            claimable: v
                .claimable
                .map(|(point, kind)| ForbiddenPoint { point, kind }),
            fifth_options: v.fifth_options,
            offers: v.offers.clone(),
            offer_count: match v.phase {
                Some(
                    rules::Phase::OfferFifths { count } | rules::Phase::TaraguchiChoice { count },
                ) => Some(count),
                _ => None,
            },
            declare_max: match v.phase {
                Some(rules::Phase::DeclareOffers { max }) => Some(max),
                _ => None,
            },
            opening_name: v.opening_name.map(OpeningName::from),
            actions,
        }
    }

    fn position_actions(p: &GomokuPosition) -> &[String] {
        &p.actions
    }

    fn changed(d: &GomokuDelta, after: Option<&games::Gomoku>) -> GomokuChanged {
        let mut change = GomokuChanged {
            placed: None,
            ply: after.map_or(0, Game::ply),
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
        change
    }

    fn next(d: &GomokuDelta) -> (Option<Color>, Option<GamePhase>) {
        (d.status.to_act(), d.status.phase().map(GamePhase::of))
    }

    fn outcome(_: &games::GomokuDetail) -> Option<GomokuOutcome> {
        None
    }

    fn outcome_schema(_: &mut SchemaGenerator) -> Option<Schema> {
        None
    }
}
