//! A published 60-player, 15-round case: bbpPairings' `test/tests/issue_7` (the final round of a tournament,
//! with forfeits, topscorers and colour-constrained players), paired by the FIDE-endorsed bbpPairings under the
//! 2025 rules. Our pairing follows the 2017 text with the approximations of README.md, so it need not agree
//! board for board: this test checks the absolute rules on it and records how many boards agree, so that a
//! change that moves away from the reference shows.

use std::collections::HashSet;
use tournament::swiss::{GameKind, RoundEntry};
use tournament::{pair, trf, Board};

/// bbpPairings' expected output (`issue_7.output.expected`), white first.
const EXPECTED: [(u32, u32); 30] = [
    (1, 15),
    (3, 2),
    (11, 17),
    (7, 10),
    (8, 14),
    (4, 6),
    (5, 12),
    (9, 16),
    (13, 25),
    (24, 22),
    (18, 29),
    (20, 23),
    (19, 33),
    (21, 38),
    (39, 26),
    (28, 36),
    (31, 40),
    (37, 35),
    (44, 46),
    (30, 32),
    (27, 48),
    (47, 42),
    (51, 55),
    (34, 50),
    (49, 45),
    (53, 58),
    (41, 59),
    (56, 43),
    (60, 52),
    (54, 57),
];

#[test]
fn the_final_round_of_bbp_issue_7_keeps_the_rules_and_agrees_with_the_reference_on_two_thirds_of_the_boards(
) {
    let swiss = trf::import(include_str!("data/bbp_issue_7.trf")).unwrap();
    assert_eq!(
        (swiss.players.len(), swiss.rounds_played(), swiss.rounds),
        (60, 14, 15)
    );
    let round = pair(&swiss, &[]).unwrap();
    assert_eq!(round.boards.len(), 30);
    assert_eq!(round.bye, None);
    let mut seen = HashSet::new();
    for b in &round.boards {
        assert!(seen.insert(b.white) && seen.insert(b.black));
        let met = swiss.players[b.white as usize - 1].history.iter().any(|e| {
            matches!(e, RoundEntry::Game { opponent, kind, .. } if *opponent == b.black && *kind != GameKind::Forfeit)
        });
        assert!(!met, "a rematch: {b:?}");
    }
    let ours: HashSet<Board> = round.boards.iter().copied().collect();
    let same_board = EXPECTED
        .iter()
        .filter(|&&(white, black)| ours.contains(&Board { white, black }))
        .count();
    let same_pair = EXPECTED
        .iter()
        .filter(|&&(w, b)| {
            ours.contains(&Board { white: w, black: b })
                || ours.contains(&Board { white: b, black: w })
        })
        .count();
    eprintln!(
        "bbp issue_7: {same_pair} of 30 pairs as the reference, {same_board} with the same colours"
    );
    eprintln!(
        "ours: {:?}",
        round
            .boards
            .iter()
            .map(|b| (b.white, b.black))
            .collect::<Vec<_>>()
    );
    // Today: the nine top boards and eleven more, 20 of 30, all with the reference's colours; the others differ
    // in the middle score groups, where the 2025 rules' score-difference minimisation (C.7 and the PSD, which
    // we do not evaluate) decides.
    assert!(
        same_board >= 20,
        "only {same_board} of 30 boards agree with bbpPairings"
    );
}
