//! The Gomoku form of the wire, made in one place from the Gomoku member of the game seam: the `move`,
//! `swap_decided` and `fifth_proposed` events from a [`GomokuDelta`], the snapshot's and `game_started`'s and
//! `taken_back`'s `moves`, `swapped`, `phase`, `forbidden`, `claimable` and `fifth_options` from a
//! [`GomokuView`], a result's five line and forbidden stone from a [`GomokuDetail`], the `rules` a Gomoku room
//! is described by, and the seam's actions for the Gomoku messages (`Act::Place`, `Act::Rules`). The rest of
//! the room speaks only the seam's `Any*` types.
//!
//! A room of another game, and a Gomoku room under the opening rules of #19 (Swap1, Swap2, Soosõrv, Taraguchi:
//! see [`generic`]), gets none of these fields (they stay empty): it is described by `game`, its position is the
//! snapshot's `view` (and `game_started`'s, for the starting position), its actions are announced by the generic
//! `action` event, a takeback by `actions_taken_back` with the new `view`, and its results carry `detail`
//! (`protocol`'s conversions from the seam). Which form a room speaks is decided here, and only here.

use games::{
    AnyAction, AnyConfig, AnyDelta, AnyDetail, AnyGame, AnyView, Game, GomokuChange, GomokuDelta,
    GomokuDetail, GomokuView,
};
use protocol::{
    Clocks, ForbiddenPoint, GameDetail, GamePhase, GameSpec, GameView, RoomEvent, RoomPhase,
    RulesSpec,
};
use rules::{Color, ForbiddenKind, Phase, Point};

/// The seam's action for a Gomoku `place`.
pub(super) fn place(point: Point) -> AnyAction {
    AnyAction::Gomoku(rules::Action::Place { point })
}

/// The seam's action for a Gomoku rules message (`decide_swap`, `propose_fifth`, `choose_fifth`,
/// `claim_forbidden`).
pub(super) fn action(action: rules::Action) -> AnyAction {
    AnyAction::Gomoku(action)
}

/// A Gomoku position as the snapshot, `game_started` and `taken_back` carry it.
#[derive(Debug, Default)]
pub(super) struct Board {
    /// The stones in the order they were placed.
    pub(super) moves: Vec<Point>,
    /// Whether the players exchanged colours after move 3.
    pub(super) swapped: bool,
    /// What the side to act must do (`none` once the room holds a result or the rules ended the game).
    pub(super) phase: RoomPhase,
    /// Black's forbidden points, while black is to place under Renju.
    pub(super) forbidden: Vec<ForbiddenPoint>,
    /// Black's forbidden stone that white may claim now.
    pub(super) claimable: Option<ForbiddenPoint>,
    /// The two proposed fifth moves while white chooses.
    pub(super) fifth_options: Option<[Point; 2]>,
}

impl Board {
    /// The Gomoku fields of a view (`AnyGame::view`); empty for another game's view.
    pub(super) fn of(view: AnyView) -> Board {
        let AnyView::Gomoku(GomokuView {
            moves,
            phase,
            swapped,
            forbidden,
            claimable,
            fifth_options,
            ..
        }) = view
        else {
            return Board::default();
        };
        Board {
            moves,
            swapped,
            phase: room_phase(phase),
            forbidden: forbidden_points(forbidden),
            claimable: claimable.map(|(point, kind)| ForbiddenPoint { point, kind }),
            fifth_options,
        }
    }
}

fn room_phase(phase: Option<Phase>) -> RoomPhase {
    phase.map_or(RoomPhase::None, RoomPhase::from)
}

fn forbidden_points(points: Vec<(Point, ForbiddenKind)>) -> Vec<ForbiddenPoint> {
    points
        .into_iter()
        .map(|(point, kind)| ForbiddenPoint { point, kind })
        .collect()
}

/// A game's position for the snapshot, from one view: the Gomoku fields for a Gomoku game, the generic `view`
/// (with every action's notation) for another, and for Gomoku under the opening rules of #19.
pub(super) fn position(game: &AnyGame, room_result: bool) -> (Board, Option<GameView>) {
    match game.view(room_result) {
        view @ AnyView::Gomoku(_) if !generic(&game.config()) => (Board::of(view), None),
        view => (
            Board::default(),
            Some(GameView::from_view(&view, &game.actions())),
        ),
    }
}

/// Whether a room of this configuration speaks the generic form (`game`, `view`, `action`,
/// `actions_taken_back`): every game but Gomoku, and Gomoku under Swap1, Swap2, Soosõrv and Taraguchi (#19),
/// whose steps (two extra stones, a declaration, several offers) the Gomoku events cannot say. Gomoku under the
/// older openings keeps the Gomoku form it always had.
pub(super) fn generic(config: &AnyConfig) -> bool {
    match config {
        AnyConfig::Gomoku(c) => matches!(
            c.rules().opening(),
            rules::Opening::Swap1
                | rules::Opening::Swap2
                | rules::Opening::Soosorv { .. }
                | rules::Opening::Taraguchi { .. }
        ),
        _ => true,
    }
}

/// The event announcing an accepted action, from its delta (`game` is the game after it, `by` the colour that
/// acted). Gomoku's: `move` (a stone, by `place` or `choose`), `swap_decided` (`name` gives the player now
/// holding a colour), `fifth_proposed`, and `None` for a claim of a forbidden stone (its result announces it).
/// Another game's: the generic `action` event.
pub(super) fn event(
    delta: AnyDelta,
    game: &AnyGame,
    by: Color,
    clocks: Option<Clocks>,
    name: impl Fn(Color) -> String,
) -> Option<RoomEvent> {
    if generic(&game.config()) {
        // Announced under the action as the game recorded it (a draughts move under its listed path).
        let at = game.action_count().checked_sub(1)?;
        let recorded = game.actions().pop()?;
        return Some(RoomEvent::action(
            at as u32, by, &recorded, &delta, game, clocks,
        ));
    }
    let AnyDelta::Gomoku(GomokuDelta {
        change,
        status,
        forbidden,
    }) = delta
    else {
        return None;
    };
    let to_act = status.to_act();
    let phase = room_phase(status.phase().copied());
    match change {
        GomokuChange::Placed {
            colour,
            point,
            ply,
            claimable,
        } => Some(RoomEvent::Move {
            colour,
            point,
            ply,
            claimable,
            to_act,
            phase,
            clocks,
            forbidden: forbidden_points(forbidden),
        }),
        GomokuChange::SwapDecided { swapped } => Some(RoomEvent::SwapDecided {
            swapped,
            black: name(Color::Black),
            white: name(Color::White),
            to_act,
            phase,
            clocks,
        }),
        GomokuChange::FifthProposed { points } => Some(RoomEvent::FifthProposed {
            points,
            to_act,
            phase,
            clocks,
        }),
        GomokuChange::ForbiddenClaimed { .. } => None,
        GomokuChange::TwoPlaced { .. }
        | GomokuChange::OffersDeclared { .. }
        | GomokuChange::FifthsOffered { .. } => None,
    }
}

/// The event announcing a takeback, from the game after it: Gomoku's `taken_back` (its ply, stones, phase and
/// forbidden points), another game's `actions_taken_back` (its action count and generic `view`).
pub(super) fn taken_back(
    game: &AnyGame,
    room_result: bool,
    to_act: Option<Color>,
    clocks: Option<Clocks>,
) -> RoomEvent {
    match game.view(room_result) {
        view @ AnyView::Gomoku(_) if !generic(&game.config()) => {
            let board = Board::of(view);
            RoomEvent::TakenBack {
                ply: game.ply(),
                moves: board.moves,
                to_act,
                phase: board.phase,
                clocks,
                forbidden: board.forbidden,
            }
        }
        view => {
            let view = GameView::from_view(&view, &game.actions());
            RoomEvent::ActionsTakenBack {
                at: game.action_count() as u32,
                ply: game.ply(),
                // Nobody acts once the room holds a result.
                phase: game
                    .status()
                    .phase()
                    .filter(|_| to_act.is_some())
                    .map(GamePhase::of),
                view,
                to_act,
                clocks,
            }
        }
    }
}

/// The starting position `game_started` carries: the generic `view` for a game other than Gomoku, none for
/// Gomoku (its `game_started` keeps the fields it always had).
pub(super) fn started_view(game: &AnyGame, room_result: bool) -> Option<GameView> {
    position(game, room_result).1
}

/// What a result shows beside its winner and reason, from the rules' outcome detail (`None`: the room ended the
/// game): a Gomoku result's five line or black's forbidden stone; another game's `detail`.
pub(crate) fn result_marks(
    detail: Option<&AnyDetail>,
) -> (
    Option<Vec<Point>>,
    Option<ForbiddenPoint>,
    Option<GameDetail>,
) {
    match detail {
        Some(AnyDetail::Gomoku(GomokuDetail::Five { line })) => (Some(line.clone()), None, None),
        Some(AnyDetail::Gomoku(GomokuDetail::Forbidden { point, kind })) => (
            None,
            Some(ForbiddenPoint {
                point: *point,
                kind: *kind,
            }),
            None,
        ),
        Some(detail) => (None, None, GameDetail::of(detail)),
        None => (None, None, None),
    }
}

/// The rules a Gomoku room is described by (snapshot, lobby); `None` for another game.
pub(super) fn rules_spec(config: &AnyConfig) -> Option<RulesSpec> {
    match config {
        AnyConfig::Gomoku(c) => Some(RulesSpec::from(c.rules())),
        _ => None,
    }
}

/// The `game` a room in the generic form is described by (snapshot, lobby); `None` for Gomoku in its own form,
/// described by its `rules` as before (a generic Gomoku room has both).
pub(super) fn game_spec(config: &AnyConfig) -> Option<GameSpec> {
    generic(config).then(|| GameSpec::from(*config))
}
