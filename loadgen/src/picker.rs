//! Chooses the next stone the way a casual human does: win when a five is there, block the opponent's five, and
//! otherwise play close to the stones already on the board.

use rand::seq::IndexedRandom;
use rand::Rng;
use rules::{Action, Color, Game, Point, MAX_SIZE};

/// A legal stone for `me` in `game`, or `None` when the game is over or no stone is legal.
///
/// The choice is random but shaped like real play, so the server's rules work (forbidden-point scans, five checks)
/// costs what it costs in real games: a five is taken and an open five blocked nine times out of ten, and most
/// stones touch an existing stone.
pub fn pick(game: &Game, me: Color, rng: &mut impl Rng) -> Option<Point> {
    if game.to_act() != Some(me) {
        return None;
    }
    let legal = |p: &Point| game.check(Action::Place { point: *p }).is_ok();
    for colour in [me, me.opposite()] {
        let fives: Vec<Point> = game.five_points(colour).into_iter().filter(legal).collect();
        if !fives.is_empty() && rng.random_bool(0.9) {
            return fives.choose(rng).copied();
        }
    }
    let board = game.board();
    let size = board.size();
    if game.moves().is_empty() {
        let centre = Point::centre(size);
        if legal(&centre) {
            return Some(centre);
        }
    }
    let reach = if rng.random_bool(0.8) { 1 } else { 2 };
    let mut seen = [false; MAX_SIZE as usize * MAX_SIZE as usize];
    let mut near: Vec<Point> = Vec::new();
    for stone in game.moves() {
        for dx in -reach..=reach {
            for dy in -reach..=reach {
                if let Some(p) = stone.offset(dx, dy, size) {
                    let k = usize::from(p.y()) * usize::from(MAX_SIZE) + usize::from(p.x());
                    if board.is_empty_at(p) && !seen[k] {
                        seen[k] = true;
                        near.push(p);
                    }
                }
            }
        }
    }
    // Try a few random neighbours before scanning them all: legality checks under renju are not free.
    for _ in 0..8 {
        if let Some(p) = near.choose(rng) {
            if legal(p) {
                return Some(*p);
            }
        }
    }
    let near_legal: Vec<Point> = near.into_iter().filter(legal).collect();
    if let Some(p) = near_legal.choose(rng) {
        return Some(*p);
    }
    let anywhere: Vec<Point> = board
        .points()
        .filter(|p| board.is_empty_at(*p))
        .filter(legal)
        .collect();
    anywhere.choose(rng).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;
    use rules::{ForbiddenPolicy, Rules, Status};

    fn play_out(rules: Rules, seed: u64) -> Game {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = Game::new(rules);
        while let Some(colour) = game.to_act() {
            let point = pick(&game, colour, &mut rng).expect("a legal stone while the game runs");
            game.apply_as(colour, Action::Place { point })
                .expect("picked stones are legal");
        }
        game
    }

    #[test]
    fn freestyle_games_are_played_to_a_result_with_legal_stones() {
        for seed in 0..20 {
            let game = play_out(Rules::freestyle(), seed);
            assert!(game.status().is_over());
        }
    }

    #[test]
    fn renju_games_never_pick_a_forbidden_point_under_reject() {
        for seed in 0..20 {
            let game = play_out(Rules::renju(ForbiddenPolicy::Reject), seed);
            assert!(game.status().is_over());
        }
    }

    #[test]
    fn the_first_stone_is_the_centre_and_the_second_touches_it() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut game = Game::new(Rules::freestyle());
        let first = pick(&game, Color::Black, &mut rng).unwrap();
        assert_eq!(first, Point::centre(15));
        game.apply(Action::Place { point: first }).unwrap();
        assert!(
            pick(&game, Color::Black, &mut rng).is_none(),
            "not black's turn"
        );
        let second = pick(&game, Color::White, &mut rng).unwrap();
        assert!(second.x().abs_diff(first.x()) <= 2 && second.y().abs_diff(first.y()) <= 2);
    }

    #[test]
    fn an_open_five_is_usually_taken() {
        // Black has four in a row on row 8 with both ends open; white has scattered stones.
        let moves = ["d8", "a1", "e8", "a3", "f8", "a5", "g8", "a7"];
        let actions: Vec<Action> = moves
            .iter()
            .map(|m| Action::Place {
                point: m.parse().unwrap(),
            })
            .collect();
        let game = Game::from_actions(Rules::freestyle(), &actions).unwrap();
        let mut wins = 0;
        for seed in 0..50 {
            let mut rng = StdRng::seed_from_u64(seed);
            let p = pick(&game, Color::Black, &mut rng).unwrap();
            let mut after = game.clone();
            after.apply(Action::Place { point: p }).unwrap();
            if matches!(after.status(), Status::Won { .. }) {
                wins += 1;
            }
        }
        assert!(wins >= 35, "took the five {wins} times out of 50");
    }
}
