//! The draughts computer against the rules: its move generator lists exactly the rules' legal moves (majority
//! captures, kings' flights, crownings) and plays them to the rules' positions on seeded random games; every
//! level plays a legal move on random positions; it finds the known shots (a two-for-one and its mirror, a
//! breakthrough to the crown); the rules' draws score as draws; a tight budget and the cancel flag still give a
//! legal move.

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use engine::draughts::board::{bit_of, Board};
use engine::draughts::search::WON;
use engine::draughts::{Engine, Level};
use rules::draughts::{DrawReason, Game, Position, Status};
use rules::Color;

/// SplitMix64: the tests' own seeded random numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A game `plies` random legal moves from the start (shorter if it ends first).
fn random_game(plies: usize, rng: &mut Rng) -> Game {
    let mut game = Game::new();
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(&moves[rng.below(moves.len())]).unwrap();
    }
    game
}

/// A move as the generator's triple: start bit, end bit, captured bits.
type Triple = (u8, u8, u64);

fn rules_triples(position: &Position) -> BTreeSet<Triple> {
    position
        .legal_moves()
        .iter()
        .map(|m| {
            let captured = m.captured().iter().fold(0u64, |a, s| a | 1 << bit_of(s));
            (bit_of(m.from()), bit_of(m.to()), captured)
        })
        .collect()
}

#[test]
fn the_generator_lists_exactly_the_rules_moves_and_plays_them_to_the_rules_positions() {
    let mut rng = Rng(2026);
    let (mut positions, mut captures, mut multi, mut king_moves) = (0, 0, 0, 0);
    for _ in 0..300 {
        let mut game = Game::new();
        while !game.status().is_over() && game.moves().len() < 240 {
            let position = *game.position();
            let board = Board::from_position(&position);
            assert_eq!(board.hash, board.compute_hash());
            let mut list = Vec::new();
            let taken = board.generate(&mut list);
            let ours: BTreeSet<Triple> = list.iter().map(|m| (m.from, m.to, m.captured)).collect();
            assert_eq!(ours.len(), list.len(), "each move once: {}", position.fen());
            assert_eq!(ours, rules_triples(&position), "in {}", position.fen());
            assert_eq!(
                board.has_capture(),
                taken > 0,
                "has_capture in {}",
                position.fen()
            );
            positions += 1;
            captures += usize::from(taken > 0);
            multi += usize::from(taken > 1);
            for mv in &list {
                let after = board.play(*mv);
                king_moves += usize::from(board.is_king(mv.from));
                let rules_move = position
                    .legal_moves()
                    .into_iter()
                    .find(|m| {
                        bit_of(m.from()) == mv.from && bit_of(m.to()) == mv.to && {
                            m.captured().iter().fold(0u64, |a, s| a | 1 << bit_of(s)) == mv.captured
                        }
                    })
                    .unwrap();
                let expected = Board::from_position(&position.play(&rules_move).unwrap());
                assert_eq!(after, expected, "{rules_move} in {}", position.fen());
            }
            let moves = game.legal_moves();
            game.play(&moves[rng.below(moves.len())]).unwrap();
        }
    }
    // The random games met what the generator must get right.
    assert!(positions > 10_000, "{positions} positions");
    assert!(
        captures > 1_000 && multi > 100 && king_moves > 1_000,
        "{captures} captures, {multi} multiple, {king_moves} king moves"
    );
}

#[test]
fn every_level_plays_a_legal_move_on_random_positions() {
    let never = AtomicBool::new(false);
    let mut rng = Rng(7);
    for level in Level::all() {
        let mut engine = Engine::new(u64::from(level.number()));
        for plies in [0, 1, 2, 9, 25, 40, 60, 90, 130] {
            let game = random_game(plies, &mut rng);
            let chosen = engine.choose(&game, level, Duration::from_millis(40), &never);
            match chosen {
                Some(mv) => assert!(
                    game.legal_moves().contains(&mv),
                    "{level} chose {mv} in {}",
                    game.position().fen()
                ),
                None => assert!(game.status().is_over()),
            }
        }
    }
}

#[test]
fn an_over_game_has_no_move() {
    let mut rng = Rng(3);
    let over = (0..)
        .map(|_| random_game(10_000, &mut rng))
        .find(|g| g.status().is_over())
        .unwrap();
    let mut engine = Engine::new(1);
    assert_eq!(
        engine.choose(
            &over,
            Level::MAX,
            Duration::from_millis(50),
            &AtomicBool::new(false)
        ),
        None
    );
}

/// What `level` plays in the position `fen`, with up to `ms` milliseconds.
fn best(fen: &str, level: u8, ms: u64) -> (String, i32) {
    let game = Game::from_position(Position::from_fen(fen).unwrap());
    let report = Engine::new(1)
        .think(
            &game,
            Level::new(level).unwrap(),
            Duration::from_millis(ms),
            &AtomicBool::new(false),
        )
        .unwrap();
    (report.best.to_string(), report.score)
}

/// White gives a man on 22 that 18 must take, and 31 takes two back (31x22x11): from even to a man up.
const TWO_FOR_ONE: &str = "W:W27,28,31,36:B5,10,17,18";

#[test]
fn the_two_for_one_shot_is_as_the_rules_play_it() {
    let mut game = Game::from_position(Position::from_fen(TWO_FOR_ONE).unwrap());
    assert!(game.legal_moves().iter().all(|m| !m.is_capture()));
    game.play_text("27-22").unwrap();
    let replies: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(replies, ["18x27"], "Black must take, one way only");
    game.play_text("18x27").unwrap();
    let shots: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(shots, ["31x22x11"], "and White takes two");
    game.play_text("31x22x11").unwrap();
    assert_eq!(game.position().count(Color::White), (3, 0));
    assert_eq!(game.position().count(Color::Black), (2, 0));
}

#[test]
fn the_engine_finds_the_two_for_one_shot_at_every_level() {
    for level in 1..=8 {
        let (mv, score) = best(TWO_FOR_ONE, level, 2_000);
        assert_eq!(mv, "27-22", "level {level}");
        assert!(score > 50, "level {level} sees a man won: {score}");
    }
}

#[test]
fn the_engine_finds_the_shot_for_black_too() {
    // The same position seen from the other side: square n is 51 - n, Black to move.
    let mirrored = Position::from_fen(TWO_FOR_ONE).unwrap().mirrored();
    let (mv, _) = best(&mirrored.fen(), 6, 2_000);
    assert_eq!(mv, "24-29");
}

/// Black's men on 1, 2 and 3 guard the crown against White's 12 and 13: every advance loses a man (12-7 to 1x12
/// or 2x12, 13-8 to 2x13 and then 12-7 to 1x12, 13-9 to 3x14), but 12-8 gives a man that 3 must take (3x12),
/// and 13 walks through 9 to the crown (nothing can reach it): a man for a king.
const BREAKTHROUGH: &str = "W:W12,13:B1,2,3,16";

fn think(game: &Game, level: u8) -> engine::draughts::Report {
    Engine::new(1)
        .think(
            game,
            Level::new(level).unwrap(),
            Duration::from_millis(2_000),
            &AtomicBool::new(false),
        )
        .unwrap()
}

#[test]
fn the_engine_finds_the_breakthrough_sacrifice_and_crowns() {
    for level in 2..=8 {
        let (mv, score) = best(BREAKTHROUGH, level, 2_000);
        assert_eq!(mv, "12-8", "level {level}");
        // Still a man down after it, but with a king: every other move is a man lost for nothing.
        assert!(score > -200, "level {level}: {score}");
    }
    let mut game = Game::from_position(Position::from_fen(BREAKTHROUGH).unwrap());
    game.play_text("12-8").unwrap();
    let replies: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(replies, ["3x12"], "the sacrifice is forced");
    game.play_text("3x12").unwrap();
    let report = think(&game, 6);
    assert_eq!(report.best.to_string(), "13-9");
    game.play(&report.best).unwrap();
    game.play_text("16-21").unwrap();
    let report = think(&game, 6);
    assert!(report.best.promotes(), "{report:?}");
}

#[test]
fn a_line_that_reaches_an_endgame_limit_scores_as_a_draw() {
    // King and man against a lone king: five moves each. Nine plies of king moves are played (no position
    // repeats); the tenth ends the game drawn whatever Black does (it has no capture), so the search scores
    // exactly zero.
    let start = Position::from_fen("W:WK50,35:BK1").unwrap();
    let mut game = Game::from_position(start);
    for mv in [
        "50-44", "1-7", "44-39", "7-1", "39-33", "1-7", "33-28", "7-1", "28-22",
    ] {
        game.play_text(mv).unwrap();
    }
    assert!(!game.status().is_over());
    assert_eq!(game.counters().endgame.map(|c| c.plies), Some(9));
    let report = Engine::new(1)
        .think(
            &game,
            Level::MAX,
            Duration::from_millis(500),
            &AtomicBool::new(false),
        )
        .unwrap();
    assert_eq!(report.score, 0, "the draw is certain: {report:?}");
    let mut after = game.clone();
    after.play(&report.best).unwrap();
    assert_eq!(
        after.status(),
        Status::Drawn(DrawReason::EndgameLimit { moves_each: 5 })
    );
}

#[test]
fn the_engine_keeps_a_won_position_away_from_a_repetition() {
    // Three kings and a man against a lone king is won; with the king moves of a repetition behind it, the
    // engine still plays on (its score stays that of a win or a big edge, not a draw's zero).
    let start = Position::from_fen("W:WK50,K49,K48,35:BK1").unwrap();
    let mut game = Game::from_position(start);
    for mv in ["50-44", "1-7", "44-50", "7-1"] {
        game.play_text(mv).unwrap();
    }
    assert_eq!(game.repetitions(), 2);
    let report = think(&game, 6);
    assert!(report.score > 300, "{report:?}");
    let mut after = game.clone();
    after.play(&report.best).unwrap();
    assert!(!after.status().is_over());
}

#[test]
fn a_tight_budget_and_the_cancel_flag_still_give_a_legal_move() {
    let mut rng = Rng(5);
    let game = random_game(20, &mut rng);
    let mut engine = Engine::new(9);
    for ms in [0, 1, 5, 50] {
        let mv = engine
            .choose(
                &game,
                Level::MAX,
                Duration::from_millis(ms),
                &AtomicBool::new(false),
            )
            .expect("a move");
        assert!(game.legal_moves().contains(&mv), "{ms} ms: {mv}");
    }
    let report = engine
        .think(
            &game,
            Level::MAX,
            Duration::from_secs(60),
            &AtomicBool::new(true),
        )
        .expect("a move");
    assert!(game.legal_moves().contains(&report.best));
}

#[test]
fn the_top_level_returns_within_its_budget_and_searches_deep() {
    // Held on a slow machine: the budget only cuts the search short, so what is asserted is that it returns,
    // with a legal move and a search deeper than the low levels'.
    let game = Game::new();
    let report = Engine::new(2)
        .think(
            &game,
            Level::MAX,
            Duration::from_millis(300),
            &AtomicBool::new(false),
        )
        .unwrap();
    assert!(game.legal_moves().contains(&report.best));
    assert!(report.depth >= 1 && report.nodes > 0, "{report:?}");
    assert!(report.score.abs() < WON);
    assert_eq!(report.pv.first(), Some(&report.best));
}

#[test]
fn the_losing_side_heads_for_a_repetition() {
    // The same kings, the lone king to move after White came back to 44: its 1-7 brings back the position
    // after its first 1-7, which the search counts as the draw a repetition leads to; anything else loses.
    let start = Position::from_fen("W:WK50,K49,K48,35:BK1").unwrap();
    let mut game = Game::from_position(start);
    for mv in ["50-44", "1-7", "44-50", "7-1", "50-44"] {
        game.play_text(mv).unwrap();
    }
    let report = think(&game, 6);
    assert_eq!(report.best.to_string(), "1-7", "{report:?}");
    assert_eq!(report.score, 0);
}
