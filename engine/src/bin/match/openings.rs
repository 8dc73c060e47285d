//! The match's openings: the 26 canonical renju openings, for every rule set.
//!
//! Opening `g` is `CANONICAL_OPENINGS[g mod 26]` (1D … 13D, then 1I … 13I), turned by one of the board's eight
//! symmetries that the seed and `g` choose, so that another seed gives the engines the same positions in other
//! orientations (their move ordering is not symmetric) while the set stays the same.
//!
//! Under Renju these are the positions tournaments start from. Under freestyle and standard they serve as well:
//! three stones in the central 5x5, two black and one white, touching or nearly so, hold no threat of any kind
//! (a three needs three stones of a colour), so neither side is forced from the first move; and between them
//! they cover every shape of that kind up to symmetry. Black's first-move advantage is real in all rule sets,
//! which is why each opening is played twice with the colours both ways.

use rules::{Action, CanonicalOpening, Game, Rules, Symmetry, CANONICAL_OPENINGS};

/// One opening of the match, ready to play.
pub struct MatchOpening {
    /// The position after the three stones (under swap after three, white's holder decides next).
    pub game: Game,
    /// Which of the 26 it is.
    pub canonical: &'static CanonicalOpening,
    /// How it was turned.
    pub symmetry: Symmetry,
}

/// A 64-bit mix (splitmix64's finaliser) for the seeded choice of symmetry.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Opening `index` of a match under `rules` with this seed.
pub fn opening(rules: Rules, index: u32, seed: u64) -> MatchOpening {
    let canonical = &CANONICAL_OPENINGS[index as usize % CANONICAL_OPENINGS.len()];
    let symmetry = Symmetry::ALL[(mix(seed ^ mix(u64::from(index))) % 8) as usize];
    let size = rules.size();
    let actions: Vec<Action> = canonical
        .stones(size)
        .iter()
        .map(|&p| Action::place(symmetry.apply(p, size)))
        .collect();
    // Two black stones and one white in the central 5x5 are legal under every rule set (the tests check all 26
    // in all eight orientations), so this cannot fail.
    let game = Game::from_actions(rules, &actions).expect("a canonical opening is legal");
    MatchOpening {
        game,
        canonical,
        symmetry,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{name_opening, Board, Color, ForbiddenPolicy, Opening, Phase, Point, Status};

    fn all_rules() -> [Rules; 5] {
        [
            Rules::freestyle(),
            Rules::standard(),
            Rules::renju(ForbiddenPolicy::Reject),
            Rules::renju(ForbiddenPolicy::Reject).with_opening(Opening::SwapAfterThree),
            Rules::standard().with_opening(Opening::SwapAfterThree),
        ]
    }

    /// The smallest of a position's eight images, as sorted `(x, y, white)` stones: equal for two positions
    /// exactly when one is a symmetry of the other.
    fn canonical_form(board: &Board) -> Vec<(u8, u8, bool)> {
        Symmetry::ALL
            .iter()
            .map(|s| {
                let b = s.apply_board(board);
                let mut stones: Vec<(u8, u8, bool)> = b
                    .points()
                    .filter_map(|p| b.get(p).map(|c| (p.x(), p.y(), c == Color::White)))
                    .collect();
                stones.sort_unstable();
                stones
            })
            .min()
            .expect("eight images")
    }

    #[test]
    fn the_26_openings_are_distinct_positions_up_to_symmetry() {
        let rules = Rules::renju(ForbiddenPolicy::Reject);
        let mut forms: Vec<Vec<(u8, u8, bool)>> = (0..26)
            .map(|g| canonical_form(opening(rules, g, 1).game.board()))
            .collect();
        assert!(forms.iter().all(|f| f.len() == 3));
        forms.sort_unstable();
        forms.dedup();
        assert_eq!(forms.len(), 26);
    }

    #[test]
    fn each_opening_is_legal_under_renju_in_every_orientation_and_names_itself() {
        let rules = Rules::renju(ForbiddenPolicy::Reject);
        for (g, o) in CANONICAL_OPENINGS.iter().enumerate() {
            for s in Symmetry::ALL {
                let stones: Vec<Point> = o.stones(15).iter().map(|&p| s.apply(p, 15)).collect();
                let actions: Vec<Action> = stones.iter().map(|&p| Action::place(p)).collect();
                let game = Game::from_actions(rules, &actions).expect("legal");
                assert!(
                    matches!(
                        game.status(),
                        Status::Ongoing {
                            to_act: Color::White,
                            phase: Phase::Place
                        }
                    ),
                    "{}",
                    o.code
                );
                assert_eq!(name_opening(&stones, 15), Some(o), "{} {s:?}", o.code);
            }
            // The match's own choice of orientation gives the same opening.
            let m = opening(rules, g as u32, 99);
            assert_eq!(m.canonical, o);
            assert_eq!(name_opening(m.game.moves(), 15), Some(o));
        }
    }

    #[test]
    fn game_g_plays_opening_g_mod_26_under_every_rule_set() {
        for rules in all_rules() {
            for g in [0u32, 5, 25, 26, 31, 77] {
                let m = opening(rules, g, 3);
                assert_eq!(m.canonical.code, CANONICAL_OPENINGS[g as usize % 26].code);
                assert_eq!(m.game.ply(), 3);
                assert!(!m.game.status().is_over());
            }
        }
    }

    #[test]
    fn the_seed_turns_the_openings_but_the_same_seed_gives_the_same_games() {
        let rules = Rules::freestyle();
        let moves = |seed: u64| -> Vec<Vec<Point>> {
            (0..26)
                .map(|g| opening(rules, g, seed).game.moves().to_vec())
                .collect()
        };
        assert_eq!(moves(7), moves(7));
        assert_ne!(moves(7), moves(8));
        let used: std::collections::HashSet<String> = (0..26)
            .map(|g| format!("{:?}", opening(rules, g, 1).symmetry))
            .collect();
        assert!(used.len() > 1, "{used:?}");
    }
}
