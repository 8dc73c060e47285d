//! Published and hand-derived examples of the Dutch system; each example's source is in `tests/tournament/data/README.md`.

use tournament::trf;
use tournament::{pair, Board, BoardResult, Bye, Colour, PairingError, Round, Swiss, SwissError};

fn boards(pairs: &[(u32, u32)]) -> Vec<Board> {
    pairs
        .iter()
        .map(|&(white, black)| Board { white, black })
        .collect()
}

fn field(n: usize) -> Swiss {
    let names: Vec<String> = (1..=n).map(|i| format!("Player {i}")).collect();
    let players: Vec<(&str, u16)> = names
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), 2500 - 10 * i as u16))
        .collect();
    Swiss::new("example", 5, &players).unwrap()
}

#[test]
fn bbp_2025_c5_gives_the_bye_to_the_lowest_score_even_if_the_top_pair_must_split() {
    let text = include_str!("data/bbp_dutch_2025_C5.trf");
    let (swiss, pending) = trf::import_with_pending(text).unwrap();
    assert_eq!(pending, vec![(4, Bye::Zero)]);
    let round = pair(&swiss, &[4]).unwrap();
    assert_eq!(
        round,
        Round {
            boards: boards(&[(1, 5), (3, 2)]),
            bye: Some(6)
        }
    );
}

#[test]
fn bbp_2025_c9_gives_the_bye_to_a_player_without_unplayed_rounds() {
    let swiss = trf::import(include_str!("data/bbp_dutch_2025_C9.trf")).unwrap();
    let round = pair(&swiss, &[]).unwrap();
    assert_eq!(
        round,
        Round {
            boards: boards(&[(2, 1), (3, 5)]),
            bye: Some(4)
        }
    );
}

#[test]
fn round_one_pairs_the_top_half_against_the_bottom_half_with_alternating_colours() {
    let round = pair(&field(10), &[]).unwrap();
    assert_eq!(
        round,
        Round {
            boards: boards(&[(1, 6), (7, 2), (3, 8), (9, 4), (5, 10)]),
            bye: None
        }
    );
}

#[test]
fn round_one_with_black_as_initial_colour_swaps_every_board() {
    let mut swiss = field(10);
    swiss.initial_colour = Colour::Black;
    let round = pair(&swiss, &[]).unwrap();
    assert_eq!(
        round,
        Round {
            boards: boards(&[(6, 1), (2, 7), (8, 3), (4, 9), (10, 5)]),
            bye: None
        }
    );
}

#[test]
fn round_one_with_an_odd_field_gives_the_bye_to_the_last_player() {
    let round = pair(&field(7), &[]).unwrap();
    assert_eq!(
        round,
        Round {
            boards: boards(&[(1, 4), (5, 2), (3, 6)]),
            bye: Some(7)
        }
    );
}

#[test]
fn round_two_pairs_winners_and_losers_and_alternates_colours() {
    let mut swiss = field(4);
    let r1 = pair(&swiss, &[]).unwrap();
    assert_eq!(r1.boards, boards(&[(1, 3), (4, 2)]));
    swiss
        .record(&r1, &[BoardResult::WhiteWins, BoardResult::BlackWins], &[])
        .unwrap();
    let r2 = pair(&swiss, &[]).unwrap();
    assert_eq!(
        r2,
        Round {
            boards: boards(&[(2, 1), (3, 4)]),
            bye: None
        }
    );
}

#[test]
fn a_forbidden_pair_takes_the_next_transposition() {
    let mut swiss = field(4);
    swiss.forbid(1, 3).unwrap();
    let round = pair(&swiss, &[]).unwrap();
    assert_eq!(round.boards, boards(&[(1, 4), (3, 2)]));
}

#[test]
fn a_player_who_had_the_bye_does_not_get_it_again() {
    let mut swiss = field(5);
    let r1 = pair(&swiss, &[]).unwrap();
    assert_eq!(r1.bye, Some(5));
    swiss
        .record(&r1, &[BoardResult::Draw, BoardResult::Draw], &[])
        .unwrap();
    // Everyone is on ½ but player 5 on 1: the bye goes to the lowest-ranked ½ who may have it.
    let r2 = pair(&swiss, &[]).unwrap();
    assert_eq!(r2.bye, Some(4));
}

#[test]
fn a_late_entrant_with_half_points_and_a_withdrawal_are_handled() {
    let mut swiss = field(4);
    let r1 = pair(&swiss, &[]).unwrap();
    swiss
        .record(&r1, &[BoardResult::WhiteWins, BoardResult::WhiteWins], &[])
        .unwrap();
    let late = swiss.join("Late", 2600, Bye::Half).unwrap();
    assert_eq!(late, 5);
    assert_eq!(swiss.score_halves(late), 1);
    swiss.withdraw(2).unwrap();
    let r2 = pair(&swiss, &[]).unwrap();
    let everyone: Vec<u32> = r2
        .boards
        .iter()
        .flat_map(|b| [b.white, b.black])
        .chain(r2.bye)
        .collect();
    assert!(
        !everyone.contains(&2),
        "a withdrawn player is not paired: {r2:?}"
    );
    assert!(everyone.contains(&5), "the late entrant is paired: {r2:?}");
    assert_eq!(everyone.len(), 4);
}

#[test]
fn pairing_a_finished_tournament_or_an_unknown_absentee_is_a_typed_error() {
    let mut swiss = Swiss::new("one round", 1, &[("A", 0), ("B", 0)]).unwrap();
    assert_eq!(
        pair(&swiss, &[9]),
        Err(PairingError::Swiss(SwissError::UnknownPlayer(9)))
    );
    let r = pair(&swiss, &[]).unwrap();
    swiss.record(&r, &[BoardResult::Draw], &[]).unwrap();
    assert_eq!(pair(&swiss, &[]), Err(PairingError::Finished));
    assert_eq!(
        swiss.record(&r, &[BoardResult::Draw], &[]),
        Err(SwissError::Finished)
    );
}

#[test]
fn two_players_who_have_met_cannot_be_paired_again() {
    let mut swiss = Swiss::new("two", 2, &[("A", 0), ("B", 0)]).unwrap();
    let r = pair(&swiss, &[]).unwrap();
    swiss.record(&r, &[BoardResult::WhiteWins], &[]).unwrap();
    assert_eq!(pair(&swiss, &[]), Err(PairingError::NoLegalPairing));
}

#[test]
fn names_and_ratings_are_checked_at_their_limits() {
    let longest = "x".repeat(33);
    assert!(Swiss::new("t", 1, &[(longest.as_str(), 9999)]).is_ok());
    let too_long = "x".repeat(34);
    assert_eq!(
        Swiss::new("t", 1, &[(too_long.as_str(), 0)]),
        Err(SwissError::BadName)
    );
    assert_eq!(
        Swiss::new("t", 1, &[("A", 10_000)]),
        Err(SwissError::BadRating)
    );
    assert_eq!(Swiss::new("t", 0, &[("A", 0)]), Err(SwissError::NoRounds));
    assert_eq!(Swiss::new("t", 1, &[(" A", 0)]), Err(SwissError::BadName));
}

#[test]
fn results_that_do_not_match_the_pairing_are_refused() {
    let mut swiss = field(4);
    let r = pair(&swiss, &[]).unwrap();
    assert_eq!(
        swiss.record(&r, &[BoardResult::Draw], &[]),
        Err(SwissError::ResultsMismatch)
    );
    assert_eq!(
        swiss.record(
            &r,
            &[BoardResult::Draw, BoardResult::Draw],
            &[(1, Bye::Zero)]
        ),
        Err(SwissError::Duplicate(1))
    );
    assert_eq!(
        swiss.record(
            &r,
            &[BoardResult::Draw, BoardResult::Draw],
            &[(9, Bye::Zero)]
        ),
        Err(SwissError::UnknownPlayer(9))
    );
    assert_eq!(swiss.rounds_played(), 0, "a refused round records nothing");
}

#[test]
fn a_tournament_whose_fields_contradict_each_other_is_refused_not_paired() {
    let mut swiss = field(4);
    let r = pair(&swiss, &[]).unwrap();
    swiss
        .record(&r, &[BoardResult::Draw, BoardResult::Draw], &[])
        .unwrap();
    let mut broken = swiss.clone();
    broken.players[0].history[0] = tournament::RoundEntry::Game {
        opponent: 42,
        colour: Colour::White,
        outcome: tournament::Outcome::Win,
        kind: tournament::swiss::GameKind::Rated,
    };
    assert_eq!(
        pair(&broken, &[]),
        Err(PairingError::Swiss(SwissError::Inconsistent))
    );
    let mut short = swiss.clone();
    short.players[2].history.clear();
    assert_eq!(
        pair(&short, &[]),
        Err(PairingError::Swiss(SwissError::Inconsistent))
    );
    let mut renumbered = swiss;
    renumbered.players[1].id = 7;
    assert_eq!(
        pair(&renumbered, &[]),
        Err(PairingError::Swiss(SwissError::Inconsistent))
    );
}
