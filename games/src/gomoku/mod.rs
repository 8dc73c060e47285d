//! Gomoku and Renju on the seam: [`rules::Game`] wrapped, with its configuration, view, delta and legal listing.

use rules::{
    name_opening, points_equivalent, Action, CanonicalOpening, Color, Event, ForbiddenKind,
    ForbiddenPolicy, IllegalAction, Offers, Opening, Phase, Point, RuleSet, Rules, RulesError,
    WinReason,
};

use crate::game::{
    fischer, Coded, Game, GameConfig, Listed, Outcome, PoolKey, QuickClock, QuickPreset,
    RecordFormat, RecordHeader, Seat, Status,
};
use crate::notation::{gomoku_text, parse_gomoku, NotationError};
use crate::storage::{ConfigError, DecodeError};
use crate::GameKind;

pub(crate) mod stored;

/// How many empty points nearest the stones Swap2's sampled `add:w,b` answers are drawn from
/// ([`Game::legal_actions`]): their ordered pairs, at most 56 actions, instead of some fifty thousand.
pub const SAMPLE_POINTS: usize = 8;

/// How many fifth-move classes nearest the stones the sampled proposals and offers are drawn from
/// ([`Game::legal_actions`]); at least as many as the offers asked for. Proposals are every pair of them
/// (66), offers every run of consecutive ones.
pub const SAMPLE_CLASSES: usize = 12;

/// The game's name, as stored (`gomoku`).
const GOMOKU: &str = "gomoku";

/// Gomoku's rating pools, one per rule set, in display order.
const POOLS: [PoolKey; 3] = [
    PoolKey {
        game: GOMOKU,
        variant: "freestyle",
    },
    PoolKey {
        game: GOMOKU,
        variant: "standard",
    },
    PoolKey {
        game: GOMOKU,
        variant: "renju",
    },
];

/// A validated Gomoku/Renju configuration: board size, rule set, forbidden-move policy, opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GomokuConfig {
    rules: Rules,
}

impl GomokuConfig {
    /// Checks and builds a configuration (the rules crate's checks: 15x15, or 19x19 outside Renju).
    pub fn new(
        size: u8,
        rule_set: RuleSet,
        forbidden_policy: ForbiddenPolicy,
        opening: Opening,
    ) -> Result<GomokuConfig, RulesError> {
        Rules::new(size, rule_set, forbidden_policy, opening).map(GomokuConfig::from)
    }

    /// The rules this configuration plays.
    pub const fn rules(&self) -> Rules {
        self.rules
    }
}

impl From<Rules> for GomokuConfig {
    /// [`Rules`] are validated already, so every value of them is a configuration.
    fn from(rules: Rules) -> GomokuConfig {
        GomokuConfig { rules }
    }
}

impl GameConfig for GomokuConfig {
    fn kind(&self) -> GameKind {
        GameKind::Gomoku
    }

    /// One pool per rule set: opening rules and forbidden policies do not split pools (as `ratings` has it).
    fn pool(&self) -> PoolKey {
        PoolKey {
            game: GOMOKU,
            variant: stored::rule_set_text(self.rules.rule_set()),
        }
    }

    fn encode(&self) -> String {
        stored::config_text(self)
    }
}

/// What an outcome of Gomoku carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GomokuDetail {
    /// A five (or a winning overline): its stones, from one end.
    Five {
        /// The line's points.
        line: Vec<Point>,
    },
    /// Black's forbidden stone that lost the game (`forbidden_move`, `forbidden_claimed`).
    Forbidden {
        /// The stone.
        point: Point,
        /// Why it was forbidden.
        kind: ForbiddenKind,
    },
    /// The board filled up without a winner (`board_full`).
    BoardFull,
    /// Renju under the `reject` policy: black is to place and every empty point is forbidden to black
    /// (`no_legal_point`, a draw).
    NoLegalPoint,
}

/// The public position of a Gomoku game, as a snapshot carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GomokuView {
    /// Board side.
    pub size: u8,
    /// The stones in the order they were placed: black first, colours alternating (so this is the board).
    pub moves: Vec<Point>,
    /// The colour to act, while the game runs.
    pub to_act: Option<Color>,
    /// What it must do, while the game runs.
    pub phase: Option<Phase>,
    /// Whether the players exchanged colours after move 3.
    pub swapped: bool,
    /// Black's forbidden points with their kinds, under Renju while black is to place (or to propose).
    pub forbidden: Vec<(Point, ForbiddenKind)>,
    /// Under the claim policy: black's forbidden stone that white may claim now.
    pub claimable: Option<(Point, ForbiddenKind)>,
    /// The two proposed fifth moves while white chooses.
    pub fifth_options: Option<[Point; 2]>,
    /// Soosõrv and Taraguchi: black's offered fifth moves while white chooses one.
    pub offers: Option<Vec<Point>>,
    /// The canonical opening (of the 26) the first three stones make, once they make one, whatever the opening
    /// rule: shown beside the board, kept after the game.
    pub opening_name: Option<&'static CanonicalOpening>,
}

/// What one accepted Gomoku action changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GomokuChange {
    /// A stone was placed (by `place` or `choose`).
    Placed {
        /// Its colour.
        colour: Color,
        /// Where.
        point: Point,
        /// Stones on the board after it (the first stone is ply 1).
        ply: u32,
        /// Under the claim policy: the stone is forbidden for this reason and white may claim it now.
        claimable: Option<ForbiddenKind>,
    },
    /// The player holding white decided after move 3.
    SwapDecided {
        /// Whether the colours were exchanged.
        swapped: bool,
    },
    /// Black offered two fifth moves.
    FifthProposed {
        /// The two points, in the order given.
        points: [Point; 2],
    },
    /// Swap2: white's fourth and black's fifth stone were placed together (stones 4 and 5 on the board).
    TwoPlaced {
        /// White's stone, then black's.
        points: [Point; 2],
    },
    /// Soosõrv: white declared how many fifth moves black offers.
    OffersDeclared {
        /// How many.
        count: u8,
    },
    /// Black offered fifth moves (Soosõrv, Taraguchi's second choice).
    FifthsOffered {
        /// The points, in the order given.
        points: Vec<Point>,
    },
    /// White claimed black's forbidden stone and won.
    ForbiddenClaimed {
        /// The stone.
        point: Point,
        /// Why it was forbidden.
        kind: ForbiddenKind,
    },
}

/// An accepted action's delta: the change, and the position's new status and hints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GomokuDelta {
    /// What changed.
    pub change: GomokuChange,
    /// The new status (who acts next and what they must do, or the outcome).
    pub status: Status<Phase, GomokuDetail>,
    /// Black's forbidden points in the new position (as [`GomokuView::forbidden`]).
    pub forbidden: Vec<(Point, ForbiddenKind)>,
}

/// The legal actions of a Gomoku position. Everything empty once the game is over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GomokuLegal {
    /// Where a `place` is legal now.
    pub places: Vec<Point>,
    /// Whether the swap decision is due (both `swap` and `keep` are legal).
    pub swap: bool,
    /// While black proposes fifth moves: every point that may be offered, in classes of points symmetric to each
    /// other with respect to the position. Two offers are legal together exactly when they come from different
    /// classes (either order).
    pub fifth_classes: Vec<Vec<Point>>,
    /// While white chooses: the two options (`choose` either).
    pub choose: Option<[Point; 2]>,
    /// Whether white may claim black's forbidden stone now.
    pub claim: bool,
    /// Swap2's third answer: the points either of the two extra stones may go on (`add:a,b` with `a` and `b`
    /// two different ones of them).
    pub add: Vec<Point>,
    /// Soosõrv: white declares 1 to this many fifth moves (`declare:N`).
    pub declare: Option<u8>,
    /// How many fifth moves black offers now (`offer:…`): that many points from different classes of
    /// [`GomokuLegal::fifth_classes`].
    pub offer_count: Option<u8>,
    /// While white chooses among black's offers: the offers (`choose` any).
    pub choose_offer: Vec<Point>,
}

impl GomokuLegal {
    /// Whether the listing holds an action.
    pub fn contains(&self, action: &Action) -> bool {
        match action {
            Action::Place { point } => self.places.contains(point),
            Action::DecideSwap { .. } => self.swap,
            Action::ProposeFifth { points: [a, b] } if self.offer_count.is_none() => {
                let class = |p: &Point| self.fifth_classes.iter().position(|c| c.contains(p));
                matches!((class(a), class(b)), (Some(x), Some(y)) if x != y)
            }
            Action::ProposeFifth { .. } => false,
            Action::ChooseFifth { point } => {
                self.choose.is_some_and(|o| o.contains(point)) || self.choose_offer.contains(point)
            }
            Action::ClaimForbidden => self.claim,
            Action::PlaceTwo { points: [a, b] } => {
                a != b && self.add.contains(a) && self.add.contains(b)
            }
            Action::DeclareOffers { count } => {
                self.declare.is_some_and(|m| (1..=m).contains(count))
            }
            Action::OfferFifths { offers } => {
                if self.offer_count != Some(offers.len() as u8) {
                    return false;
                }
                let mut classes = Vec::new();
                for p in offers.as_slice() {
                    match self.fifth_classes.iter().position(|c| c.contains(p)) {
                        Some(k) if !classes.contains(&k) => classes.push(k),
                        _ => return false,
                    }
                }
                true
            }
        }
    }

    /// Whether nothing is legal (the game is over).
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
            && !self.swap
            && self.fifth_classes.is_empty()
            && self.choose.is_none()
            && !self.claim
            && self.add.is_empty()
            && self.declare.is_none()
            && self.choose_offer.is_empty()
    }
}

impl Coded for Phase {
    fn code(&self) -> &'static str {
        self.as_str()
    }
}

impl Coded for IllegalAction {
    fn code(&self) -> &'static str {
        IllegalAction::code(*self)
    }
}

/// A game of Gomoku or Renju on the seam.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gomoku {
    config: GomokuConfig,
    game: rules::Game,
    /// The seat that held black at the start.
    start: Seat,
}

impl Gomoku {
    /// The rules crate's game underneath (for what only Gomoku has: the board, five points…).
    pub fn rules_game(&self) -> &rules::Game {
        &self.game
    }

    /// Black's forbidden points now, whoever is to act (empty outside Renju).
    pub fn forbidden_points(&self) -> Vec<(Point, ForbiddenKind)> {
        self.game.forbidden_points()
    }

    /// Black's forbidden points as the room shows them: under Renju, while black is to place or propose.
    fn hints(&self) -> Vec<(Point, ForbiddenKind)> {
        let black_places = matches!(
            self.game.status(),
            rules::Status::Ongoing {
                to_act: Color::Black,
                phase: Phase::Place
                    | Phase::ProposeFifth
                    | Phase::OfferFifths { .. }
                    | Phase::TaraguchiChoice { .. }
            }
        );
        if black_places && self.game.rules().restricts_black() {
            self.game.forbidden_points()
        } else {
            Vec::new()
        }
    }

    /// The points black may offer as fifth moves, in classes of mutually symmetric points.
    fn fifth_classes(&self) -> Vec<Vec<Point>> {
        let board = self.game.board();
        let rules = self.game.rules();
        let forbidden: Vec<Point> =
            if rules.restricts_black() && rules.forbidden_policy() == ForbiddenPolicy::Reject {
                self.game
                    .forbidden_points()
                    .into_iter()
                    .map(|(p, _)| p)
                    .collect()
            } else {
                Vec::new()
            };
        // A symmetry of the stones fixes their centroid, so symmetric points lie equally far from it: only points
        // at the same (scaled, exact) distance need the full test.
        let stones: Vec<Point> = board.points().filter(|&p| !board.is_empty_at(p)).collect();
        let n = stones.len() as i64;
        let (sx, sy) = stones.iter().fold((0i64, 0i64), |(x, y), p| {
            (x + i64::from(p.x()), y + i64::from(p.y()))
        });
        let distance = |p: Point| {
            let dx = n * i64::from(p.x()) - sx;
            let dy = n * i64::from(p.y()) - sy;
            dx * dx + dy * dy
        };
        let mut classes: Vec<(i64, Vec<Point>)> = Vec::new();
        for p in board
            .points()
            .filter(|&p| board.is_empty_at(p) && !forbidden.contains(&p))
        {
            let d = distance(p);
            match classes
                .iter_mut()
                .find(|(cd, c)| *cd == d && points_equivalent(board, c[0], p))
            {
                Some((_, class)) => class.push(p),
                None => classes.push((d, vec![p])),
            }
        }
        classes.into_iter().map(|(_, c)| c).collect()
    }

    /// Empty points nearest the stones (Chebyshev distance to the nearest stone, then board order), at most
    /// `limit`, restricted to `allowed`: the few a representative sample of a combinatorial phase draws from.
    fn nearest(&self, allowed: impl Iterator<Item = Point>, limit: usize) -> Vec<Point> {
        let board = self.game.board();
        let stones: Vec<Point> = board.points().filter(|&p| !board.is_empty_at(p)).collect();
        let distance = |p: Point| {
            stones
                .iter()
                .map(|s| s.x().abs_diff(p.x()).max(s.y().abs_diff(p.y())))
                .min()
                .unwrap_or(0)
        };
        let mut points: Vec<(u8, usize, Point)> = allowed
            .enumerate()
            .map(|(k, p)| (distance(p), k, p))
            .collect();
        points.sort_unstable();
        points.into_iter().take(limit).map(|(_, _, p)| p).collect()
    }

    /// One point of each of the fifth-move classes nearest the stones (symmetric points lie equally far from
    /// them, so any member stands for its class): at least `min` of them when there are so many.
    fn class_representatives(&self, classes: &[Vec<Point>], min: usize) -> Vec<Point> {
        self.nearest(classes.iter().map(|c| c[0]), SAMPLE_CLASSES.max(min))
    }

    /// Swap2's third answer, sampled: ordered pairs of different points among the [`SAMPLE_POINTS`] empty
    /// points nearest the stones, each checked by the rules (black's stone may be forbidden, or make a five).
    fn sample_place_two(&self, add: &[Point]) -> Vec<Action> {
        let near = self.nearest(add.iter().copied(), SAMPLE_POINTS);
        let mut out = Vec::new();
        for &w in &near {
            for &b in &near {
                let action = Action::PlaceTwo { points: [w, b] };
                if w != b && self.game.check(action).is_ok() {
                    out.push(action);
                }
            }
        }
        out
    }

    /// The two fifth-move options, sampled: every pair (in one order) of representatives of different classes.
    fn sample_proposals(&self, classes: &[Vec<Point>]) -> Vec<Action> {
        let reps = self.class_representatives(classes, 2);
        let mut out = Vec::new();
        for (k, &a) in reps.iter().enumerate() {
            for &b in &reps[k + 1..] {
                out.push(Action::ProposeFifth { points: [a, b] });
            }
        }
        out
    }

    /// Soosõrv's and Taraguchi's offers of `count` fifth moves, sampled: each run of `count` consecutive
    /// representatives (nearest first) of different classes.
    fn sample_offers(&self, classes: &[Vec<Point>], count: u8) -> Vec<Action> {
        let count = usize::from(count);
        let reps = self.class_representatives(classes, count);
        if count == 0 || reps.len() < count {
            return Vec::new();
        }
        reps.windows(count)
            .filter_map(Offers::new)
            .map(|offers| Action::OfferFifths { offers })
            .collect()
    }

    fn delta(&self, event: Event) -> GomokuDelta {
        let change = match event {
            Event::Placed {
                color,
                point,
                ply,
                claimable,
            } => GomokuChange::Placed {
                colour: color,
                point,
                ply: u32::from(ply),
                claimable,
            },
            Event::ColoursSwapped => GomokuChange::SwapDecided { swapped: true },
            Event::SwapDeclined => GomokuChange::SwapDecided { swapped: false },
            Event::FifthProposed { points } => GomokuChange::FifthProposed { points },
            Event::TwoPlaced { points } => GomokuChange::TwoPlaced { points },
            Event::OffersDeclared { count } => GomokuChange::OffersDeclared { count },
            Event::FifthsOffered { offers } => GomokuChange::FifthsOffered {
                points: offers.as_slice().to_vec(),
            },
            Event::ForbiddenClaimed { point, kind } => {
                GomokuChange::ForbiddenClaimed { point, kind }
            }
        };
        GomokuDelta {
            change,
            status: self.status(),
            forbidden: self.hints(),
        }
    }
}

impl Game for Gomoku {
    type Config = GomokuConfig;
    type Action = Action;
    type Illegal = IllegalAction;
    type Phase = Phase;
    type Detail = GomokuDetail;
    type View = GomokuView;
    type Delta = GomokuDelta;
    type Legal = GomokuLegal;

    fn new(config: GomokuConfig, first_seat: Seat) -> Gomoku {
        Gomoku {
            config,
            game: rules::Game::new(config.rules),
            start: first_seat,
        }
    }

    fn config(&self) -> GomokuConfig {
        self.config
    }

    fn status(&self) -> Status<Phase, GomokuDetail> {
        match self.game.status() {
            rules::Status::Ongoing { to_act, phase } => Status::Ongoing { to_act, phase },
            rules::Status::Won { winner, reason } => Status::Over(Outcome {
                winner: Some(winner),
                reason: reason.code(),
                detail: match reason {
                    WinReason::Five { line } => GomokuDetail::Five {
                        line: line.points(),
                    },
                    WinReason::ForbiddenMove { point, kind }
                    | WinReason::ForbiddenClaimed { point, kind } => {
                        GomokuDetail::Forbidden { point, kind }
                    }
                },
            }),
            rules::Status::Drawn if self.game.board().is_full() => Status::Over(Outcome {
                winner: None,
                reason: "board_full",
                detail: GomokuDetail::BoardFull,
            }),
            rules::Status::Drawn => Status::Over(Outcome {
                winner: None,
                reason: "no_legal_point",
                detail: GomokuDetail::NoLegalPoint,
            }),
        }
    }

    fn first_colour(&self) -> Color {
        Color::Black
    }

    fn first_seat(&self) -> Seat {
        if self.game.colours_swapped() {
            self.start.other()
        } else {
            self.start
        }
    }

    fn apply(&mut self, action: Action) -> Result<GomokuDelta, IllegalAction> {
        let event = self.game.apply(action)?;
        Ok(self.delta(event))
    }

    fn apply_as(&mut self, seat: Seat, action: Action) -> Result<GomokuDelta, IllegalAction> {
        let colour = self.colour_of(seat);
        let event = self.game.apply_as(colour, action)?;
        Ok(self.delta(event))
    }

    fn undo(&mut self) -> Option<Action> {
        self.game.undo()
    }

    fn action_count(&self) -> usize {
        self.game.actions().len()
    }

    fn actions(&self) -> Vec<Action> {
        self.game.actions().to_vec()
    }

    fn ply(&self) -> u32 {
        self.game.ply() as u32
    }

    fn is_move(action: &Action) -> bool {
        matches!(
            action,
            Action::Place { .. } | Action::ChooseFifth { .. } | Action::PlaceTwo { .. }
        )
    }

    fn is_opening_decision(action: &Action) -> bool {
        matches!(
            action,
            Action::DecideSwap { .. }
                | Action::ProposeFifth { .. }
                | Action::ChooseFifth { .. }
                | Action::PlaceTwo { .. }
                | Action::DeclareOffers { .. }
                | Action::OfferFifths { .. }
        )
    }

    /// Everything but `place`: the decisions, proposals, offers and choices, and a claim ends the game. (Under
    /// Soosõrv and Taraguchi one seat may `swap` or `keep` more than once a game; the room tells a retry from a
    /// new decision by whether the game takes the action now.)
    fn at_most_once(action: &Action) -> bool {
        !matches!(action, Action::Place { .. })
    }

    fn legal(&self) -> GomokuLegal {
        let rules::Status::Ongoing { to_act, phase } = self.game.status() else {
            return GomokuLegal::default();
        };
        let mut legal = GomokuLegal {
            claim: to_act == Color::White && self.game.claimable().is_some(),
            ..GomokuLegal::default()
        };
        match phase {
            Phase::Place => legal.places = self.game.legal_places(),
            Phase::SwapDecision => legal.swap = true,
            Phase::ProposeFifth => legal.fifth_classes = self.fifth_classes(),
            Phase::ChooseFifth { options } => legal.choose = Some(options),
            Phase::PlaceOpening => legal.places = self.game.legal_places(),
            Phase::Swap2Decision => {
                legal.swap = true;
                let board = self.game.board();
                legal.add = board.points().filter(|&p| board.is_empty_at(p)).collect();
            }
            Phase::DeclareOffers { max } => legal.declare = Some(max),
            Phase::OfferFifths { count } => {
                legal.offer_count = Some(count);
                legal.fifth_classes = self.fifth_classes();
            }
            Phase::TaraguchiChoice { count } => {
                legal.swap = true;
                legal.offer_count = Some(count);
                legal.fifth_classes = self.fifth_classes();
            }
            Phase::ChooseOffer { offers } => legal.choose_offer = offers.as_slice().to_vec(),
        }
        legal
    }

    /// Every legal action, with three phases sampled because their spaces are combinatorial (see
    /// [`SAMPLE_POINTS`] and [`SAMPLE_CLASSES`]): Swap2's two extra stones (`add:w,b`), the two fifth-move
    /// options (`propose:a,b`) and the offers of Soosõrv and Taraguchi (`offer:…`). Everything else is listed
    /// in full: the points where a stone may go (black's forbidden points left out under the `reject` policy;
    /// under `claim` they are legal and listed), the claim, both swap decisions, every declaration from 1 to
    /// N, and both options or every offer to choose from.
    fn legal_actions(&self) -> Vec<Action> {
        let legal = self.legal();
        let mut out = Vec::new();
        if legal.claim {
            out.push(Action::ClaimForbidden);
        }
        out.extend(legal.places.iter().map(|&point| Action::Place { point }));
        if legal.swap {
            out.push(Action::DecideSwap { swap: false });
            out.push(Action::DecideSwap { swap: true });
        }
        if let Some(options) = legal.choose {
            out.extend(options.map(|point| Action::ChooseFifth { point }));
        }
        out.extend(
            legal
                .choose_offer
                .iter()
                .map(|&point| Action::ChooseFifth { point }),
        );
        if let Some(max) = legal.declare {
            out.extend((1..=max).map(|count| Action::DeclareOffers { count }));
        }
        if !legal.add.is_empty() {
            out.extend(self.sample_place_two(&legal.add));
        }
        if !legal.fifth_classes.is_empty() {
            match legal.offer_count {
                None => out.extend(self.sample_proposals(&legal.fifth_classes)),
                Some(count) => out.extend(self.sample_offers(&legal.fifth_classes, count)),
            }
        }
        out
    }

    fn view(&self, room_result: bool) -> GomokuView {
        let status = self.status();
        let running = !room_result && !status.is_over();
        GomokuView {
            size: self.config.rules.size(),
            moves: self.game.moves().to_vec(),
            to_act: status.to_act().filter(|_| running),
            phase: status.phase().copied().filter(|_| running),
            swapped: self.game.colours_swapped(),
            forbidden: if running { self.hints() } else { Vec::new() },
            claimable: self.game.claimable().filter(|_| running),
            fifth_options: match status.phase() {
                Some(Phase::ChooseFifth { options }) if running => Some(*options),
                _ => None,
            },
            offers: match status.phase() {
                Some(Phase::ChooseOffer { offers }) if running => Some(offers.as_slice().to_vec()),
                _ => None,
            },
            opening_name: name_opening(self.game.moves(), self.config.rules.size()),
        }
    }

    fn notation(action: &Action) -> String {
        gomoku_text(action)
    }

    fn parse_action(&self, text: &str) -> Result<Action, NotationError> {
        parse_gomoku(text)
    }
}

impl Listed for Gomoku {
    const KIND: GameKind = GameKind::Gomoku;
    const RECORD: RecordFormat = RecordFormat {
        extension: "txt",
        mime: "text/plain; charset=utf-8",
    };

    fn pools() -> &'static [PoolKey] {
        &POOLS
    }

    /// Freestyle on 15x15 (the first pool), no opening rule.
    fn default_config() -> GomokuConfig {
        GomokuConfig::new(
            15,
            RuleSet::Freestyle,
            ForbiddenPolicy::Reject,
            Opening::None,
        )
        .expect("15x15 freestyle is playable")
    }

    /// Renju plays Soosõrv-8, the balanced opening of the renju federation's championships (without one black
    /// wins too often by force, and a rating pool of such games means little), with forbidden moves refused;
    /// freestyle plays without an opening rule.
    fn quick_presets() -> Vec<QuickPreset<GomokuConfig>> {
        let renju = GomokuConfig::new(
            15,
            RuleSet::Renju,
            ForbiddenPolicy::Reject,
            Opening::SOOSORV_8,
        )
        .expect("15x15 renju with Soosõrv-8 is playable");
        let freestyle = Self::default_config();
        let p = |id, config, clock| QuickPreset { id, config, clock };
        vec![
            p("renju-3+2", renju, fischer(3, 2)),
            p("renju-5+3", renju, fischer(5, 3)),
            p("renju-10+5", renju, fischer(10, 5)),
            p("renju-15+10", renju, fischer(15, 10)),
            p("freestyle-3+2", freestyle, fischer(3, 2)),
            p("freestyle-5+3", freestyle, fischer(5, 3)),
            p(
                "renju-byoyomi-10m-30sx3",
                renju,
                QuickClock::ByoYomi {
                    minutes: 10,
                    periods: 3,
                    period_s: 30,
                },
            ),
        ]
    }

    fn read_notation(text: &str) -> Result<Action, NotationError> {
        parse_gomoku(text)
    }

    fn decode_config(text: &str) -> Result<GomokuConfig, ConfigError> {
        GomokuConfig::decode(text)
    }

    /// The notation, or the JSON the rules crate's serde derives wrote before the notation.
    fn decode_action(text: &str) -> Result<Action, DecodeError> {
        if text.starts_with('{') {
            stored::legacy_gomoku_action(text)
        } else {
            Ok(parse_gomoku(text)?)
        }
    }

    /// Every action's notation, space-separated (`.psq` and RenLib text are other formats of the export).
    fn record(&self, _header: &RecordHeader<'_>) -> String {
        let moves: Vec<String> = self.game.actions().iter().map(gomoku_text).collect();
        format!("{}\n", moves.join(" "))
    }
}
