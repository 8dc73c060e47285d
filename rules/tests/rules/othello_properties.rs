//! Properties of `rules::othello` over random games: the board's symmetries, legality both ways against a naive
//! array walk, disc conservation, undo, and records that replay into the same game.

use proptest::prelude::*;
use rules::othello::{
    Game, IllegalMove, Move, Position, PositionStatus, Square, SquareSet, Symmetry,
};
use rules::Color;

/// A small deterministic generator, seeded by proptest, so that shrinking works on the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random game of up to `plies` moves (passes when forced), stopping at the end.
fn random_game(seed: u64, plies: usize) -> Game {
    let mut rng = Rng(seed | 1);
    let mut game = Game::new();
    for _ in 0..plies {
        match game.status() {
            PositionStatus::Over(_) => break,
            PositionStatus::MustPass => {
                game.play(Move::Pass).unwrap();
            }
            PositionStatus::Play => {
                let legal = game.position().legal_moves().to_vec();
                let square = legal[rng.below(legal.len())];
                game.play(Move::Place(square)).unwrap();
            }
        }
    }
    game
}

/// The flips of a disc on a square by walking an 8x8 array, independent of the bitboards.
fn naive_flips(position: &Position, square: Square) -> Vec<Square> {
    let me = position.to_move();
    if position.disc(square).is_some() {
        return Vec::new();
    }
    let mut flipped = Vec::new();
    for (dc, dr) in [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ] {
        let mut run = Vec::new();
        let (mut c, mut r) = (
            i32::from(square.column()) + dc,
            i32::from(square.row()) + dr,
        );
        while let Some(s) = Square::at(c as u8, r as u8).filter(|_| c >= 0 && r >= 0) {
            match position.disc(s) {
                Some(colour) if colour == me => {
                    flipped.append(&mut run);
                    break;
                }
                Some(_) => run.push(s),
                None => break,
            }
            c += dc;
            r += dr;
        }
    }
    flipped.sort();
    flipped
}

fn image(symmetry: Symmetry, set: SquareSet) -> SquareSet {
    set.map(|s| symmetry.square(s)).collect()
}

fn transformed(symmetry: Symmetry, position: &Position) -> Position {
    Position::from_bits(
        symmetry.bits(position.black()),
        symmetry.bits(position.white()),
        position.to_move(),
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_eight_symmetries_commute_with_legal_moves_and_flips(seed in any::<u64>(), plies in 0usize..70) {
        let game = random_game(seed, plies);
        let position = game.position();
        for symmetry in Symmetry::ALL {
            let image_position = transformed(symmetry, position);
            prop_assert_eq!(image_position.legal_moves(), image(symmetry, position.legal_moves()), "{:?}", symmetry);
            prop_assert_eq!(image_position.status(), position.status());
            for square in position.legal_moves() {
                prop_assert_eq!(
                    image_position.flips(symmetry.square(square)),
                    image(symmetry, position.flips(square)),
                    "{:?} {}", symmetry, square
                );
            }
        }
    }

    #[test]
    fn every_listed_move_plays_and_every_other_square_is_refused(seed in any::<u64>(), plies in 0usize..70) {
        let game = random_game(seed, plies);
        let position = *game.position();
        let legal = position.legal_moves();
        for square in Square::all() {
            let naive = naive_flips(&position, square);
            let result = position.play(Move::Place(square));
            if legal.contains(square) {
                let (_, flipped) = result.expect("a listed move plays");
                prop_assert_eq!(flipped.to_vec(), naive);
            } else {
                prop_assert!(naive.is_empty(), "{} flips {:?} but is not listed", square, naive);
                let want = match position.status() {
                    PositionStatus::Over(_) => IllegalMove::GameOver,
                    PositionStatus::MustPass => IllegalMove::MustPass,
                    PositionStatus::Play if position.disc(square).is_some() => IllegalMove::Occupied,
                    PositionStatus::Play => IllegalMove::NoFlip,
                };
                prop_assert_eq!(result, Err(want));
            }
        }
        // A pass plays exactly when the side to move has no move and the opponent has one.
        let pass = position.play(Move::Pass);
        match position.status() {
            PositionStatus::MustPass => prop_assert!(pass.is_ok()),
            PositionStatus::Play => prop_assert_eq!(pass, Err(IllegalMove::CannotPass)),
            PositionStatus::Over(_) => prop_assert_eq!(pass, Err(IllegalMove::GameOver)),
        }
    }

    #[test]
    fn discs_are_conserved(seed in any::<u64>(), plies in 0usize..70) {
        let game = random_game(seed, plies);
        let before = *game.position();
        let mover = before.to_move();
        let count = |p: &Position, c: Color| match c {
            Color::Black => p.black().count_ones(),
            Color::White => p.white().count_ones(),
        };
        for square in before.legal_moves() {
            let (after, flipped) = before.play(Move::Place(square)).unwrap();
            prop_assert_eq!(count(&after, mover), count(&before, mover) + 1 + flipped.len());
            prop_assert_eq!(count(&after, mover.opposite()), count(&before, mover.opposite()) - flipped.len());
            prop_assert_eq!(after.to_move(), mover.opposite());
            prop_assert_eq!(after.black() & after.white(), 0);
        }
    }

    #[test]
    fn a_replayed_record_is_the_same_game(seed in any::<u64>(), plies in 0usize..130) {
        let game = random_game(seed, plies);
        prop_assert_eq!(&Game::from_record(&game.record()).unwrap(), &game);
        prop_assert_eq!(&Game::from_record(&game.record().to_uppercase()).unwrap(), &game);
        prop_assert_eq!(&Game::from_moves(game.moves()).unwrap(), &game);
        // A transcript leaves passes out; importing it puts back every pass but a last one.
        let mut without_trailing_pass = game.clone();
        if game.moves().last() == Some(&Move::Pass) {
            without_trailing_pass.undo();
        }
        let imported = Game::from_record(&game.transcript()).unwrap();
        prop_assert_eq!(&imported, &without_trailing_pass);
        // Moves spaced out, passes in another program's spelling.
        let spaced: Vec<String> = game.moves().iter().map(|m| match m {
            Move::Pass => "PA".to_owned(),
            Move::Place(s) => s.to_string(),
        }).collect();
        prop_assert_eq!(&Game::from_record(&spaced.join(" ")).unwrap(), &game);
    }

    #[test]
    fn undo_restores_every_earlier_game(seed in any::<u64>(), plies in 0usize..130) {
        let game = random_game(seed, plies);
        let mut undone = game.clone();
        for n in (0..game.moves().len()).rev() {
            let mv = undone.undo().unwrap();
            prop_assert_eq!(mv, game.moves()[n]);
            prop_assert_eq!(&undone, &Game::from_moves(&game.moves()[..n]).unwrap());
        }
        prop_assert_eq!(undone.undo(), None);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Arbitrary move sequences never panic; every refusal leaves the game as it was.
    #[test]
    fn arbitrary_moves_never_panic_and_refusals_change_nothing(moves in proptest::collection::vec(0u8..65, 0..150)) {
        let mut game = Game::new();
        for m in moves {
            let mv = Square::new(m).map_or(Move::Pass, Move::Place);
            let before = game.clone();
            if game.play(mv).is_err() {
                prop_assert_eq!(&game, &before);
            }
        }
    }

    /// Arbitrary text, and text made of move-like pieces, never panics the record reader.
    #[test]
    fn arbitrary_records_never_panic(text in ".{0,300}", pieces in proptest::collection::vec("[a-iA-I][0-9]|pass|pa|--| ", 0..80)) {
        let _ = Game::from_record(&text);
        if let Ok(game) = Game::from_record(&pieces.concat()) {
            prop_assert_eq!(Game::from_record(&game.record()).unwrap(), game);
        }
    }
}
