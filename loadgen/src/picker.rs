//! Chooses the next stone the way a casual human does: win when a five is there, block the opponent's five, and
//! otherwise play close to the stones already on the board.
//!
//! It runs once per stone of every simulated game, so it is written to cost little: no allocation, five points
//! found from the stones of one colour instead of a scan of the whole board, and neighbours sampled directly
//! instead of listed first.

use rand::Rng;
use rules::{Action, Color, Direction, ForbiddenPolicy, Game, Phase, Point, Status, MAX_SIZE};

/// How many neighbour proposals [`pick`] draws before it lists the neighbours instead (a crowded board rejects
/// most proposals).
const PROPOSALS: usize = 256;

/// A legal stone for `me` in `game`, or `None` when the game is over or no stone is legal.
///
/// The choice is random but shaped like real play, so the server's rules work (forbidden-point scans, five checks)
/// costs what it costs in real games: a five is taken and an open five blocked nine times out of ten, and most
/// stones touch an existing stone.
pub fn pick(game: &Game, me: Color, rng: &mut impl Rng) -> Option<Point> {
    pick_with(game, &Fives::of(game), me, rng)
}

/// [`pick`] with the game's five points already known.
fn pick_with(game: &Game, five: &Fives, me: Color, rng: &mut impl Rng) -> Option<Point> {
    if game.to_act() != Some(me) {
        return None;
    }
    let mut legal = Legality::new(game, me);
    for colour in [me, me.opposite()] {
        // One legal five point, uniformly among them (reservoir sampling), and how many there are.
        let mut fives = 0u32;
        let mut chosen = None;
        for &p in five.of_colour(colour) {
            if legal.check(p) {
                fives += 1;
                if rng.random_range(0..fives) == 0 {
                    chosen = Some(p);
                }
            }
        }
        if fives > 0 && rng.random_bool(0.9) {
            return chosen;
        }
    }
    let board = game.board();
    let size = board.size();
    if game.moves().is_empty() {
        let centre = Point::centre(size);
        if legal.check(centre) {
            return Some(centre);
        }
    }
    let reach = if rng.random_bool(0.8) { 1 } else { 2 };
    // Try a few random neighbours before scanning them all: legality checks under renju are not free.
    let mut proposals = PROPOSALS;
    for _ in 0..8 {
        match sample_near(game, reach, &mut proposals, rng) {
            Some(p) if legal.check(p) => return Some(p),
            Some(_) => {}
            None => break,
        }
    }
    let mut near = PointSet::default();
    let mut count = 0u32;
    let mut chosen = None;
    for stone in game.moves() {
        for dx in -reach..=reach {
            for dy in -reach..=reach {
                if let Some(p) = stone.offset(dx, dy, size) {
                    if board.is_empty_at(p) && near.insert(p) && legal.check(p) {
                        count += 1;
                        if rng.random_range(0..count) == 0 {
                            chosen = Some(p);
                        }
                    }
                }
            }
        }
    }
    if chosen.is_some() {
        return chosen;
    }
    let mut count = 0u32;
    for p in board.points() {
        if legal.check(p) {
            count += 1;
            if rng.random_range(0..count) == 0 {
                chosen = Some(p);
            }
        }
    }
    chosen
}

/// The game as the picker plays it: a validated position (the room's stones as the typed client's replica holds
/// them, replayed by the rules) with the five points the picker needs kept up to date stone by stone: finding
/// them afresh for every pick looked at every stone of both colours, the picker's largest cost.
#[derive(Clone, Debug)]
pub struct Position {
    game: Game,
    /// Computed at the first pick (spectators never pick), then updated with each stone.
    fives: Option<Fives>,
}

impl Position {
    /// Follows `game` from here.
    pub fn new(game: Game) -> Position {
        Position { game, fives: None }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Plays a stone for the side to act, as [`Game::apply`] does.
    pub fn place(&mut self, point: Point) -> Result<(), rules::IllegalAction> {
        self.game.apply(Action::Place { point })?;
        if let Some(fives) = &mut self.fives {
            fives.placed(&self.game, point);
        }
        Ok(())
    }

    /// Follows the stone that makes the board `ply` stones: `true` when it did or already had it (a resent event),
    /// `false` when the stone does not follow (a stone missed, or one that is not legal here): the caller's view
    /// is out of date.
    pub fn follow(&mut self, ply: u32, point: Point) -> bool {
        let have = self.game.ply() as u32;
        if ply <= have {
            return true;
        }
        ply == have + 1 && self.place(point).is_ok()
    }

    /// [`pick`] for this game.
    pub fn pick(&mut self, me: Color, rng: &mut impl Rng) -> Option<Point> {
        let fives = self.fives.get_or_insert_with(|| Fives::of(&self.game));
        pick_with(&self.game, fives, me, rng)
    }
}

/// The five points of each colour: the empty points where a stone of that colour completes a winning line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Fives([Vec<Point>; 2]);

fn slot(colour: Color) -> usize {
    match colour {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Fives {
    /// Found from the stones.
    fn of(game: &Game) -> Fives {
        let mut fives = Fives::default();
        for colour in [Color::Black, Color::White] {
            five_points(game, colour, |p| fives.0[slot(colour)].push(p));
        }
        fives
    }

    fn of_colour(&self, colour: Color) -> &[Point] {
        &self.0[slot(colour)]
    }

    /// After a stone at `s`. A stone only changes the lines through it: it ends its own point, can spoil the
    /// other points (a blocked line, an overline where exactly five wins), and can make new points of its colour
    /// on its four lines, within four steps (a farther point on the line would have been one already, or a run
    /// through both would be longer than five).
    fn placed(&mut self, game: &Game, s: Point) {
        let board = game.board();
        let rules = game.rules();
        let Some(x) = board.get(s) else {
            // Not on the board after all: start again from the stones.
            *self = Fives::of(game);
            return;
        };
        let wins =
            |p: Point, c: Color, d: Direction| rules.is_winning_run(c, board.run_through(p, d, c));
        for colour in [Color::Black, Color::White] {
            self.0[slot(colour)].retain(|&p| {
                board.is_empty_at(p) && Direction::ALL.iter().any(|&d| wins(p, colour, d))
            });
        }
        let size = board.size();
        for d in Direction::ALL {
            let (dx, dy) = d.step();
            for k in (-4..=4).filter(|&k| k != 0) {
                if let Some(p) = s.offset(k * dx, k * dy, size) {
                    if board.is_empty_at(p) && wins(p, x, d) && !self.0[slot(x)].contains(&p) {
                        self.0[slot(x)].push(p);
                    }
                }
            }
        }
    }
}

/// Calls `found` once for every empty point where `colour` would complete a winning line: the same points as
/// [`Game::five_points`], without its two passes over the whole board and its `Vec`.
///
/// A winning run through an empty point continues on both sides or on one into a stone of `colour`, so it is
/// enough to look one step along each direction from each such stone, and only along that direction.
fn five_points(game: &Game, colour: Color, mut found: impl FnMut(Point)) {
    let board = game.board();
    let rules = game.rules();
    let size = board.size();
    let mut seen = PointSet::default();
    for &stone in game.moves() {
        if board.get(stone) != Some(colour) {
            continue;
        }
        for d in Direction::ALL {
            let (dx, dy) = d.step();
            for sign in [1, -1] {
                let Some(p) = stone.offset(sign * dx, sign * dy, size) else {
                    continue;
                };
                if board.is_empty_at(p)
                    && rules.is_winning_run(colour, board.run_through(p, d, colour))
                    && seen.insert(p)
                {
                    found(p);
                }
            }
        }
    }
}

/// A uniformly random empty point within `reach` of a stone, or `None` when `proposals` run out first.
///
/// A random offset from a random stone proposes a point once for every stone within reach of it; accepting it
/// with one chance in that number makes every such point equally likely, as if they had been listed.
fn sample_near(
    game: &Game,
    reach: i32,
    proposals: &mut usize,
    rng: &mut impl Rng,
) -> Option<Point> {
    let board = game.board();
    let size = board.size();
    let moves = game.moves();
    if moves.is_empty() {
        return None;
    }
    while *proposals > 0 {
        *proposals -= 1;
        let stone = moves[rng.random_range(0..moves.len())];
        let dx = rng.random_range(-reach..=reach);
        let dy = rng.random_range(-reach..=reach);
        let Some(p) = stone.offset(dx, dy, size) else {
            continue;
        };
        if !board.is_empty_at(p) {
            continue;
        }
        let mut stones = 0u32;
        for dx in -reach..=reach {
            for dy in -reach..=reach {
                if p.offset(dx, dy, size)
                    .is_some_and(|q| board.get(q).is_some())
                {
                    stones += 1;
                }
            }
        }
        if rng.random_range(0..stones) == 0 {
            return Some(p);
        }
    }
    None
}

/// Whether a stone for the side to act is legal: [`Game::check`], which clones the game, only where a stone on an
/// empty point can be refused.
struct Legality<'a> {
    game: &'a Game,
    /// Every empty point is legal: the placing phase, past the opening's constrained stones, and not black under
    /// renju with forbidden points rejected (the only refusals [`Game::apply`] makes for a stone on an empty point).
    any_empty: bool,
    /// A copy to try stones on (apply, then undo), made on the first check that needs one.
    scratch: Option<Game>,
}

impl<'a> Legality<'a> {
    fn new(game: &'a Game, me: Color) -> Legality<'a> {
        let rules = game.rules();
        let placing = matches!(
            game.status(),
            Status::Ongoing {
                phase: Phase::Place,
                ..
            }
        );
        let opening_done = !rules.opening().swaps_after_three() || game.moves().len() >= 2;
        let forbidden = me == Color::Black
            && rules.restricts_black()
            && rules.forbidden_policy() == ForbiddenPolicy::Reject;
        Legality {
            game,
            any_empty: placing && opening_done && !forbidden,
            scratch: None,
        }
    }

    fn check(&mut self, p: Point) -> bool {
        if !self.game.board().is_empty_at(p) {
            return false;
        }
        if self.any_empty {
            return true;
        }
        let scratch = self.scratch.get_or_insert_with(|| self.game.clone());
        let ok = scratch.apply(Action::Place { point: p }).is_ok();
        if ok {
            scratch.undo();
        }
        ok
    }
}

/// A set of board points as bits: cheaper to clear and test than a `bool` per point.
#[derive(Default)]
struct PointSet([u64; (MAX_SIZE as usize * MAX_SIZE as usize).div_ceil(64)]);

impl PointSet {
    /// Adds a point; whether it was new.
    fn insert(&mut self, p: Point) -> bool {
        let k = usize::from(p.y()) * usize::from(MAX_SIZE) + usize::from(p.x());
        let (word, bit) = (k / 64, 1u64 << (k % 64));
        let new = self.0[word] & bit == 0;
        self.0[word] |= bit;
        new
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    use rules::{Opening, Rules};

    /// A freestyle game after these stones.
    fn freestyle(moves: &[&str]) -> Game {
        let actions: Vec<Action> = moves
            .iter()
            .map(|m| Action::Place {
                point: m.parse().unwrap(),
            })
            .collect();
        Game::from_actions(Rules::freestyle(), &actions).unwrap()
    }

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
        let game = freestyle(&["d8", "a1", "e8", "a3", "f8", "a5", "g8", "a7"]);
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

    /// Positions from random play (stones anywhere legal, so fives and forbidden points come up) under every rule
    /// set and opening, with the colour to act.
    fn random_positions() -> Vec<(Game, Color)> {
        let mut positions = Vec::new();
        let rule_sets = [
            Rules::freestyle(),
            Rules::standard(),
            Rules::renju(ForbiddenPolicy::Reject),
            Rules::renju(ForbiddenPolicy::Claim),
            Rules::renju(ForbiddenPolicy::Reject).with_opening(Opening::SwapAfterThree),
        ];
        for (i, rules) in rule_sets.into_iter().enumerate() {
            for seed in 0..10 {
                let mut rng = StdRng::seed_from_u64(seed * 31 + i as u64);
                let mut game = Game::new(rules);
                while let Some(colour) = game.to_act() {
                    positions.push((game.clone(), colour));
                    let places = game.legal_places();
                    let action = if let Some(&point) = places.choose(&mut rng) {
                        Action::Place { point }
                    } else if matches!(
                        game.status(),
                        Status::Ongoing {
                            phase: Phase::SwapDecision,
                            ..
                        }
                    ) {
                        Action::DecideSwap { swap: false }
                    } else {
                        break;
                    };
                    game.apply(action).expect("legal_places are legal");
                }
            }
        }
        positions
    }

    #[test]
    fn five_points_are_the_games_own() {
        for (game, _) in random_positions() {
            for colour in [Color::Black, Color::White] {
                let mut mine = Vec::new();
                five_points(&game, colour, |p| mine.push(p));
                mine.sort_by_key(|p| (p.y(), p.x()));
                assert_eq!(
                    mine,
                    game.five_points(colour),
                    "{colour:?} in {:?}",
                    game.board()
                );
            }
        }
    }

    #[test]
    fn legality_agrees_with_the_games_check() {
        for (game, colour) in random_positions().into_iter().step_by(7) {
            let mut legal = Legality::new(&game, colour);
            for p in game.board().points() {
                assert_eq!(
                    legal.check(p),
                    game.check(Action::Place { point: p }).is_ok(),
                    "{p} for {colour:?} in {:?}",
                    game.board()
                );
            }
        }
    }

    #[test]
    fn sampled_neighbours_are_uniform_over_the_empty_points_near_stones() {
        let game = freestyle(&["h8", "h9", "j9", "g7", "j10", "f6", "k11"]);
        let board = game.board();
        let near: Vec<Point> = board
            .points()
            .filter(|&p| board.is_empty_at(p) && game.moves().iter().any(|s| s.touches(p)))
            .collect();
        let mut rng = StdRng::seed_from_u64(3);
        let mut counts = std::collections::HashMap::new();
        let draws = 40_000;
        for _ in 0..draws {
            let mut proposals = PROPOSALS;
            let p = sample_near(&game, 1, &mut proposals, &mut rng).expect("a neighbour");
            *counts.entry(p).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), near.len());
        let mean = draws as f64 / near.len() as f64;
        for p in near {
            let n = counts[&p] as f64;
            assert!(
                (n - mean).abs() < 0.15 * mean,
                "{p}: {n} draws, mean {mean}"
            );
        }
    }

    /// The sorted points of `fives` for `colour`.
    fn sorted(fives: &Fives, colour: Color) -> Vec<Point> {
        let mut v = fives.of_colour(colour).to_vec();
        v.sort_by_key(|p| (p.y(), p.x()));
        v
    }

    #[test]
    fn a_position_keeps_the_same_five_points_as_finding_them_afresh() {
        let rule_sets = [
            Rules::freestyle(),
            Rules::standard(),
            Rules::renju(ForbiddenPolicy::Reject),
            Rules::renju(ForbiddenPolicy::Claim),
        ];
        let mut compared = 0;
        for (i, rules) in rule_sets.into_iter().enumerate() {
            for seed in 0..25 {
                let mut rng = StdRng::seed_from_u64(seed * 17 + i as u64);
                let mut position = Position::new(Game::new(rules));
                // The first pick computes them; every stone after that updates them.
                let first = position.game().to_act().unwrap();
                position.pick(first, &mut rng);
                while position.game().to_act().is_some() {
                    let places = position.game().legal_places();
                    // Stones anywhere (so long lines, overlines and blocked fives come up), and now and then the
                    // picker's own choice (which takes fives).
                    let point = match (seed % 2 == 0).then(|| {
                        let me = position.game().to_act().unwrap();
                        position.pick(me, &mut rng)
                    }) {
                        Some(Some(p)) => p,
                        _ => match places.choose(&mut rng) {
                            Some(&p) => p,
                            None => break,
                        },
                    };
                    position.place(point).unwrap();
                    let fresh = Fives::of(position.game());
                    let kept = position.fives.as_ref().unwrap();
                    for colour in [Color::Black, Color::White] {
                        assert_eq!(
                            sorted(kept, colour),
                            position.game().five_points(colour),
                            "{colour:?} after {point} in {:?}",
                            position.game().board()
                        );
                        assert_eq!(sorted(kept, colour), sorted(&fresh, colour));
                        compared += kept.of_colour(colour).len();
                    }
                }
            }
        }
        // Five points did come up, so the updates were tested on something.
        assert!(compared > 100, "{compared} five points compared");
    }
}
