//! Score systems and N-game matches.

use tournament::matches::{Match, MatchError, MatchScore, MatchWinner, MAX_GAMES};
use tournament::Outcome::{Draw, Loss, Win};
use tournament::{Colour, ScoreSystem};

#[test]
fn each_score_system_values_the_results_as_its_source_says() {
    assert_eq!(
        ScoreSystem::CHESS
            .display(ScoreSystem::CHESS.total([Win, Draw, Loss, Draw]))
            .to_string(),
        "2"
    );
    assert_eq!(
        ScoreSystem::CHESS
            .display(ScoreSystem::CHESS.total([Win, Draw]))
            .to_string(),
        "1½"
    );
    assert_eq!(ScoreSystem::CHESS.display(1).to_string(), "½");
    assert_eq!(ScoreSystem::TWO_ONE_ZERO.total([Win, Draw, Loss]), 3);
    assert_eq!(
        ScoreSystem::PLUS_TWO_MINUS_TWO.total([Win, Draw, Loss, Loss]),
        -2
    );
    assert_eq!(
        ScoreSystem::PLUS_TWO_MINUS_TWO.display(-2).to_string(),
        "-2"
    );
    assert_eq!(ScoreSystem::CHESS.display(-1).to_string(), "-½");
    assert_eq!(ScoreSystem::CHESS.display(-3).to_string(), "-1½");
    assert_eq!(ScoreSystem::CHESS.display(3).as_f64(), 1.5);
}

#[test]
fn match_colours_alternate_from_the_first_game() {
    let m = Match::new(4, Colour::Black, ScoreSystem::CHESS).unwrap();
    let colours: Vec<Colour> = (0..4).map(|i| m.colour_of_a(i)).collect();
    assert_eq!(
        colours,
        vec![Colour::Black, Colour::White, Colour::Black, Colour::White]
    );
}

#[test]
fn a_match_is_decided_once_the_leader_cannot_be_caught() {
    let m = Match::new(4, Colour::White, ScoreSystem::CHESS).unwrap();
    assert_eq!(
        m.score(&[Win, Win]).unwrap().winner,
        None,
        "2-0 with two to play can still be 2-2"
    );
    assert_eq!(
        m.score(&[Win, Win, Draw]).unwrap(),
        MatchScore {
            a: 5,
            b: 1,
            played: 3,
            winner: Some(MatchWinner::A)
        }
    );
    assert_eq!(
        m.score(&[Loss, Draw, Loss]).unwrap().winner,
        Some(MatchWinner::B)
    );
    assert_eq!(
        m.score(&[Win, Loss, Draw, Draw]).unwrap().winner,
        Some(MatchWinner::Tied)
    );
}

#[test]
fn a_match_in_the_draughts_system_scores_plus_and_minus_two() {
    let m = Match::new(2, Colour::White, ScoreSystem::PLUS_TWO_MINUS_TWO).unwrap();
    let s = m.score(&[Win, Draw]).unwrap();
    assert_eq!((s.a, s.b, s.winner), (2, -2, Some(MatchWinner::A)));
}

#[test]
fn match_limits_are_enforced() {
    assert_eq!(
        Match::new(0, Colour::White, ScoreSystem::CHESS),
        Err(MatchError::NoGames)
    );
    assert!(Match::new(1, Colour::White, ScoreSystem::CHESS).is_ok());
    assert!(Match::new(MAX_GAMES, Colour::White, ScoreSystem::CHESS).is_ok());
    assert_eq!(
        Match::new(MAX_GAMES + 1, Colour::White, ScoreSystem::CHESS),
        Err(MatchError::TooManyGames)
    );
    let m = Match::new(1, Colour::White, ScoreSystem::CHESS).unwrap();
    assert_eq!(m.score(&[Win, Win]), Err(MatchError::TooManyResults));
}
