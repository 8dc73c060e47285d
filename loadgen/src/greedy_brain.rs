//! The greedy picker ([`crate::picker`]) as a Gomocup brain: `loadgen greedy-brain` speaks the Piskvork protocol
//! on stdin and stdout through the engine's protocol reader ([`engine::piskvork::Brain`]), so the match harness
//! can play the engine against the opponent every load test simulates (issue #17's "level 8 against the load
//! generator's greedy picker").

use std::sync::atomic::AtomicBool;

use engine::piskvork::{Brain, Mover};
use engine::TimeBudget;
use rand::rngs::StdRng;
use rand::SeedableRng;
use rules::{Game, Point};

/// The picker with its own seeded randomness: the same seed and the same games give the same moves.
#[derive(Debug)]
pub struct Greedy {
    rng: StdRng,
}

impl Greedy {
    /// A picker whose random choices follow `seed`.
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl Mover for Greedy {
    fn choose(
        &mut self,
        game: &Game,
        _time: &TimeBudget,
        _cancel: &AtomicBool,
    ) -> Result<Point, String> {
        let me = game.to_act().ok_or("the game is over")?;
        crate::picker::pick(game, me, &mut self.rng).ok_or_else(|| "no legal move".to_string())
    }

    fn name(&self) -> &str {
        "loadgen-greedy"
    }
}

/// A Piskvork brain playing the greedy picker.
pub fn brain(seed: u64) -> Brain {
    Brain::with_mover(Box::new(Greedy::new(seed)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(brain: &mut Brain, lines: &[&str]) -> Vec<String> {
        lines.iter().flat_map(|l| brain.handle(l).lines).collect()
    }

    /// How many of 100 seeded brains answer the position with one of `wanted`; every answer must be a move.
    fn hits(board: &[&str], wanted: &[&str]) -> usize {
        (0..100)
            .filter(|&seed| {
                let mut b = brain(seed);
                let mut lines = vec!["START 15", "BOARD"];
                lines.extend_from_slice(board);
                lines.push("DONE");
                let out = answers(&mut b, &lines);
                assert_eq!(out.len(), 2, "{out:?}");
                assert!(engine::piskvork::parse_move(&out[1]).is_some(), "{out:?}");
                wanted.contains(&out[1].as_str())
            })
            .count()
    }

    #[test]
    fn it_takes_its_own_five_nine_times_in_ten() {
        // Black (the brain, to move) has four on row 7 from x=3 to x=6, white's stones are in the corners.
        let board = [
            "3,7,1", "0,0,2", "4,7,1", "14,0,2", "5,7,1", "0,14,2", "6,7,1", "14,14,2",
        ];
        let n = hits(&board, &["7,7", "2,7"]);
        assert!((80..=100).contains(&n), "{n} of 100");
    }

    #[test]
    fn it_blocks_an_open_four_nine_times_in_ten() {
        // White (the brain) faces black's open four on row 7: one of its ends must be taken.
        let board = [
            "3,7,2", "0,0,1", "4,7,2", "14,0,1", "5,7,2", "0,14,1", "6,7,2", "14,13,1",
        ];
        let n = hits(&board, &["7,7", "2,7"]);
        assert!((80..=100).contains(&n), "{n} of 100");
    }

    #[test]
    fn the_same_seed_plays_the_same_game() {
        // The opponent's stones go to the corners, away from the brain's own near the centre.
        let play = |seed| {
            let mut b = brain(seed);
            answers(
                &mut b,
                &["START 15", "BEGIN", "TURN 0,0", "TURN 14,14", "TURN 0,14"],
            )
        };
        let game = play(7);
        assert_eq!(game.len(), 5, "{game:?}");
        assert!(
            game[1..]
                .iter()
                .all(|m| engine::piskvork::parse_move(m).is_some()),
            "{game:?}"
        );
        assert_eq!(game, play(7));
    }

    #[test]
    fn about_names_the_picker() {
        let mut b = brain(1);
        let out = answers(&mut b, &["ABOUT"]);
        assert!(out[0].starts_with("name=\"loadgen-greedy\""), "{out:?}");
    }
}
