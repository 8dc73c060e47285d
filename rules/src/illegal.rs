//! Why an action is illegal. Every reason has a stable snake_case code that the server sends as it is.

use std::fmt;

use crate::renju::ForbiddenKind;

/// The reason an action was refused. The game is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalAction {
    /// The game has ended.
    GameOver,
    /// The actor is not the one who must act now ([`crate::Game::apply_as`] only).
    NotYourTurn,
    /// The point is not on the board.
    OffBoard,
    /// The point already holds a stone.
    Occupied,
    /// Black may not play there under Renju with the reject policy.
    Forbidden(ForbiddenKind),
    /// Swap after three: black's first stone goes on the centre.
    MustPlayCentre,
    /// Swap after three: white's first stone must touch black's.
    MustTouchFirstStone,
    /// The player holding white must first decide whether to swap.
    SwapDecisionPending,
    /// There is no swap decision to take now.
    NoSwapPending,
    /// Black must propose two fifth moves rather than place one.
    FifthProposalRequired,
    /// Fifth moves are not being proposed now.
    NoFifthProposalExpected,
    /// The two proposed fifth moves are the same point.
    FifthOptionsIdentical,
    /// The two proposed fifth moves are symmetric to each other with respect to the position.
    FifthOptionsSymmetric,
    /// White must first choose one of the proposed fifth moves.
    FifthChoicePending,
    /// No fifth-move choice is pending.
    NoFifthChoicePending,
    /// The chosen point is not one of the two proposed.
    NotAFifthOption,
    /// There is no forbidden move to claim (wrong rule, no forbidden stone, or the claim lapsed).
    NothingToClaim,
    /// Soosõrv: the first three stones must make one of the 26 canonical openings (black's second stone inside
    /// the central 5x5 square).
    NotACanonicalOpening,
    /// Taraguchi: the stone must go inside the central square this move allows (3x3, 5x5, 7x7, 9x9).
    OutsideCentralSquare,
    /// Swap2: two more stones are not being placed now.
    NoPlaceTwoExpected,
    /// Soosõrv: white must first declare how many fifth moves black offers.
    DeclarationPending,
    /// No declaration of fifth moves is expected now.
    NoDeclarationExpected,
    /// The declared number of fifth moves is not between 1 and the opening's N.
    DeclarationOutOfRange,
    /// Black must offer fifth moves rather than place one.
    OffersRequired,
    /// Fifth moves are not being offered now.
    NoOffersExpected,
    /// Not as many fifth moves as the opening asks for.
    WrongNumberOfOffers,
    /// The same point is offered twice.
    DuplicateOffer,
    /// Two offered fifth moves are symmetric to each other with respect to the position.
    SymmetricOffer,
}

impl IllegalAction {
    /// Every reason, for documentation and tests.
    pub const ALL: [IllegalAction; 30] = [
        IllegalAction::GameOver,
        IllegalAction::NotYourTurn,
        IllegalAction::OffBoard,
        IllegalAction::Occupied,
        IllegalAction::Forbidden(ForbiddenKind::DoubleThree),
        IllegalAction::Forbidden(ForbiddenKind::DoubleFour),
        IllegalAction::Forbidden(ForbiddenKind::Overline),
        IllegalAction::MustPlayCentre,
        IllegalAction::MustTouchFirstStone,
        IllegalAction::SwapDecisionPending,
        IllegalAction::NoSwapPending,
        IllegalAction::FifthProposalRequired,
        IllegalAction::NoFifthProposalExpected,
        IllegalAction::FifthOptionsIdentical,
        IllegalAction::FifthOptionsSymmetric,
        IllegalAction::FifthChoicePending,
        IllegalAction::NoFifthChoicePending,
        IllegalAction::NotAFifthOption,
        IllegalAction::NothingToClaim,
        IllegalAction::NotACanonicalOpening,
        IllegalAction::OutsideCentralSquare,
        IllegalAction::NoPlaceTwoExpected,
        IllegalAction::DeclarationPending,
        IllegalAction::NoDeclarationExpected,
        IllegalAction::DeclarationOutOfRange,
        IllegalAction::OffersRequired,
        IllegalAction::NoOffersExpected,
        IllegalAction::WrongNumberOfOffers,
        IllegalAction::DuplicateOffer,
        IllegalAction::SymmetricOffer,
    ];

    /// Stable snake_case code.
    pub const fn code(self) -> &'static str {
        match self {
            IllegalAction::GameOver => "game_over",
            IllegalAction::NotYourTurn => "not_your_turn",
            IllegalAction::OffBoard => "off_board",
            IllegalAction::Occupied => "occupied",
            IllegalAction::Forbidden(ForbiddenKind::DoubleThree) => "forbidden_double_three",
            IllegalAction::Forbidden(ForbiddenKind::DoubleFour) => "forbidden_double_four",
            IllegalAction::Forbidden(ForbiddenKind::Overline) => "forbidden_overline",
            IllegalAction::MustPlayCentre => "must_play_centre",
            IllegalAction::MustTouchFirstStone => "must_touch_first_stone",
            IllegalAction::SwapDecisionPending => "swap_decision_pending",
            IllegalAction::NoSwapPending => "no_swap_pending",
            IllegalAction::FifthProposalRequired => "fifth_proposal_required",
            IllegalAction::NoFifthProposalExpected => "no_fifth_proposal_expected",
            IllegalAction::FifthOptionsIdentical => "fifth_options_identical",
            IllegalAction::FifthOptionsSymmetric => "fifth_options_symmetric",
            IllegalAction::FifthChoicePending => "fifth_choice_pending",
            IllegalAction::NoFifthChoicePending => "no_fifth_choice_pending",
            IllegalAction::NotAFifthOption => "not_a_fifth_option",
            IllegalAction::NothingToClaim => "nothing_to_claim",
            IllegalAction::NotACanonicalOpening => "not_a_canonical_opening",
            IllegalAction::OutsideCentralSquare => "outside_central_square",
            IllegalAction::NoPlaceTwoExpected => "no_place_two_expected",
            IllegalAction::DeclarationPending => "declaration_pending",
            IllegalAction::NoDeclarationExpected => "no_declaration_expected",
            IllegalAction::DeclarationOutOfRange => "declaration_out_of_range",
            IllegalAction::OffersRequired => "offers_required",
            IllegalAction::NoOffersExpected => "no_offers_expected",
            IllegalAction::WrongNumberOfOffers => "wrong_number_of_offers",
            IllegalAction::DuplicateOffer => "duplicate_offer",
            IllegalAction::SymmetricOffer => "symmetric_offer",
        }
    }
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            IllegalAction::GameOver => "the game is over",
            IllegalAction::NotYourTurn => "it is not your turn",
            IllegalAction::OffBoard => "that point is not on the board",
            IllegalAction::Occupied => "that point is already taken",
            IllegalAction::Forbidden(ForbiddenKind::DoubleThree) => {
                "forbidden for black: double-three"
            }
            IllegalAction::Forbidden(ForbiddenKind::DoubleFour) => {
                "forbidden for black: double-four"
            }
            IllegalAction::Forbidden(ForbiddenKind::Overline) => "forbidden for black: overline",
            IllegalAction::MustPlayCentre => "black's first stone must be on the centre",
            IllegalAction::MustTouchFirstStone => {
                "white's first stone must touch black's first stone"
            }
            IllegalAction::SwapDecisionPending => "white must first decide whether to swap colours",
            IllegalAction::NoSwapPending => "there is no swap decision to take now",
            IllegalAction::FifthProposalRequired => {
                "black must propose two points for the fifth move"
            }
            IllegalAction::NoFifthProposalExpected => {
                "fifth-move options are not being proposed now"
            }
            IllegalAction::FifthOptionsIdentical => {
                "the two fifth-move options must be different points"
            }
            IllegalAction::FifthOptionsSymmetric => {
                "the two fifth-move options are symmetric to each other"
            }
            IllegalAction::FifthChoicePending => {
                "white must first choose one of the two fifth moves"
            }
            IllegalAction::NoFifthChoicePending => "there is no fifth-move choice to make",
            IllegalAction::NotAFifthOption => "that point is not one of the two proposed",
            IllegalAction::NothingToClaim => "there is no forbidden move to claim",
            IllegalAction::NotACanonicalOpening => {
                "the first three stones must make one of the 26 canonical openings"
            }
            IllegalAction::OutsideCentralSquare => {
                "this stone must go inside the central square the opening allows"
            }
            IllegalAction::NoPlaceTwoExpected => "two more stones are not being placed now",
            IllegalAction::DeclarationPending => {
                "white must first declare how many fifth moves black offers"
            }
            IllegalAction::NoDeclarationExpected => "there is no number of fifth moves to declare",
            IllegalAction::DeclarationOutOfRange => {
                "the number of fifth moves must be between 1 and the opening's limit"
            }
            IllegalAction::OffersRequired => "black must offer fifth moves",
            IllegalAction::NoOffersExpected => "fifth moves are not being offered now",
            IllegalAction::WrongNumberOfOffers => "not as many fifth moves as the opening asks for",
            IllegalAction::DuplicateOffer => "the same point is offered twice",
            IllegalAction::SymmetricOffer => "two offered fifth moves are symmetric to each other",
        };
        f.write_str(text)
    }
}

impl std::error::Error for IllegalAction {}
