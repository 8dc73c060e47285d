//! Properties over random games: symmetry, legality, win detection against a naive scan, undo.

use proptest::prelude::*;
use rules::{
    renju, Action, Board, Color, ForbiddenPolicy, Game, Opening, Point, RuleSet, Rules, Status,
    Symmetry,
};

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

/// Picks a legal place, mostly next to existing stones as real games do.
fn pick(game: &Game, rng: &mut Rng) -> Option<Point> {
    let legal = game.legal_places();
    if legal.is_empty() {
        return None;
    }
    let near: Vec<Point> = legal
        .iter()
        .copied()
        .filter(|&p| {
            game.board()
                .points()
                .any(|q| game.board().get(q).is_some() && q.touches(p))
        })
        .collect();
    let pool = if !near.is_empty() && rng.below(10) < 8 {
        &near
    } else {
        &legal
    };
    Some(pool[rng.below(pool.len())])
}

/// A random game under `rules` of up to `plies` stones (stops at game over).
fn random_game(rules: Rules, seed: u64, plies: usize) -> Game {
    let mut rng = Rng(seed | 1);
    let mut g = Game::new(rules);
    while g.ply() < plies && !g.status().is_over() {
        let Some(p) = pick(&g, &mut rng) else { break };
        g.apply(Action::place(p))
            .expect("a point reported legal plays");
    }
    g
}

fn any_rules() -> impl Strategy<Value = Rules> {
    prop_oneof![
        Just(Rules::freestyle()),
        Just(Rules::standard()),
        Just(Rules::renju(ForbiddenPolicy::Reject)),
        Just(Rules::renju(ForbiddenPolicy::Claim)),
        Just(
            Rules::new(
                19,
                RuleSet::Freestyle,
                ForbiddenPolicy::Reject,
                Opening::None
            )
            .unwrap()
        ),
        Just(
            Rules::new(
                20,
                RuleSet::Freestyle,
                ForbiddenPolicy::Reject,
                Opening::None
            )
            .unwrap()
        ),
        Just(
            Rules::new(
                20,
                RuleSet::Standard,
                ForbiddenPolicy::Reject,
                Opening::None
            )
            .unwrap()
        ),
    ]
}

/// Whether `color` has a winning line anywhere, by scanning every point and direction naively.
fn naive_win(board: &Board, color: Color, exact: bool) -> bool {
    let n = board.size() as i32;
    for p in board.points() {
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let (x, y) = (p.x() as i32, p.y() as i32);
            let before = (x - dx, y - dy);
            let starts = !(0..n).contains(&before.0)
                || !(0..n).contains(&before.1)
                || board.get(Point::new(before.0 as u8, before.1 as u8).unwrap()) != Some(color);
            if !starts || board.get(p) != Some(color) {
                continue;
            }
            let mut len = 0;
            let (mut cx, mut cy) = (x, y);
            while (0..n).contains(&cx)
                && (0..n).contains(&cy)
                && board.get(Point::new(cx as u8, cy as u8).unwrap()) == Some(color)
            {
                len += 1;
                cx += dx;
                cy += dy;
            }
            if (exact && len == 5) || (!exact && len >= 5) {
                return true;
            }
        }
    }
    false
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn forbidden_sets_commute_with_the_eight_symmetries(seed in any::<u64>(), plies in 10usize..60) {
        let g = random_game(Rules::renju(ForbiddenPolicy::Claim), seed, plies);
        let board = g.board();
        let base = renju::forbidden_points(board);
        for s in Symmetry::ALL {
            let moved = s.apply_board(board);
            let mut expected: Vec<_> = base.iter().map(|&(p, k)| (s.apply(p, 15), k)).collect();
            expected.sort();
            let mut got = renju::forbidden_points(&moved);
            got.sort();
            prop_assert_eq!(got, expected, "symmetry {:?}", s);
        }
    }

    #[test]
    fn the_incrementally_kept_forbidden_set_equals_a_fresh_scan(seed in any::<u64>(), plies in 10usize..80) {
        let g = random_game(Rules::renju(ForbiddenPolicy::Claim), seed, plies);
        let mut set = renju::ForbiddenSet::new(Board::new(15));
        for (i, &p) in g.moves().iter().enumerate() {
            set.place(p, if i % 2 == 0 { Color::Black } else { Color::White });
            prop_assert_eq!(set.points(), renju::forbidden_points(set.board()), "after move {}", i + 1);
        }
        // And taking the stones back one by one.
        for &p in g.moves().iter().rev() {
            set.remove(p);
            prop_assert_eq!(set.points(), renju::forbidden_points(set.board()));
        }
    }

    #[test]
    fn a_kept_set_is_exactly_the_fresh_set_of_its_board_and_removing_a_stone_restores_the_one_before(
        seed in any::<u64>(), plies in 10usize..80,
    ) {
        let g = random_game(Rules::renju(ForbiddenPolicy::Claim), seed, plies);
        let mut set = renju::ForbiddenSet::new(Board::new(15));
        let mut before = vec![set.clone()];
        for (i, &p) in g.moves().iter().enumerate() {
            set.place(p, if i % 2 == 0 { Color::Black } else { Color::White });
            // Every kept table, not only the forbidden points: equal to a set built from the board at once.
            prop_assert_eq!(&set, &renju::ForbiddenSet::new(set.board().clone()), "after move {}", i + 1);
            before.push(set.clone());
        }
        before.pop();
        for &p in g.moves().iter().rev() {
            set.remove(p);
            prop_assert_eq!(&set, &before.pop().unwrap(), "after removing {}", p);
        }
        // Emptied again, it is the fresh set of an empty board.
        prop_assert_eq!(set, renju::ForbiddenSet::new(Board::new(15)));
    }

    #[test]
    fn every_point_reported_legal_plays_and_every_other_is_refused(
        rules in any_rules(), seed in any::<u64>(), plies in 0usize..70,
    ) {
        let g = random_game(rules, seed, plies);
        let legal = g.legal_places();
        for p in g.board().points() {
            let plays = g.clone().apply(Action::place(p)).is_ok();
            prop_assert_eq!(plays, legal.contains(&p), "point {}", p);
        }
    }

    #[test]
    fn five_points_are_exactly_the_empty_points_that_make_a_naive_five(
        standard in any::<bool>(), seed in any::<u64>(), plies in 0usize..90,
    ) {
        let rules = if standard { Rules::standard() } else { Rules::freestyle() };
        let g = random_game(rules, seed, plies);
        // (Once a colour has five, every point "makes" one by this naive test: only positions before that.)
        for colour in [Color::Black, Color::White].into_iter().filter(|&c| !naive_win(g.board(), c, standard)) {
            let naive: Vec<Point> = g
                .board()
                .points()
                .filter(|&p| g.board().is_empty_at(p))
                .filter(|&p| {
                    let mut board = g.board().clone();
                    board.place(p, colour);
                    naive_win(&board, colour, standard)
                })
                .collect();
            prop_assert_eq!(g.five_points(colour), naive, "{:?}", colour);
        }
    }

    #[test]
    fn freestyle_and_standard_results_agree_with_a_naive_scan(
        standard in any::<bool>(), seed in any::<u64>(),
    ) {
        let rules = if standard { Rules::standard() } else { Rules::freestyle() };
        let mut rng = Rng(seed | 1);
        let mut g = Game::new(rules);
        while !g.status().is_over() {
            let p = pick(&g, &mut rng).expect("an unfinished game has a legal place");
            g.apply(Action::place(p)).unwrap();
            let black = naive_win(g.board(), Color::Black, standard);
            let white = naive_win(g.board(), Color::White, standard);
            match g.status() {
                Status::Won { winner, .. } => {
                    let (won, lost) = if winner == Color::Black { (black, white) } else { (white, black) };
                    prop_assert!(won && !lost, "winner {:?}: black five {}, white five {}", winner, black, white);
                }
                Status::Drawn => prop_assert!(!black && !white && g.board().is_full()),
                Status::Ongoing { .. } => prop_assert!(!black && !white),
            }
        }
    }

    #[test]
    fn undo_restores_exactly_the_previous_state(rules in any_rules(), seed in any::<u64>(), plies in 1usize..60) {
        let g = random_game(rules, seed, plies);
        let mut rng = Rng(seed ^ 0x9e37_79b9);
        let mut after = g.clone();
        if let Some(p) = pick(&g, &mut rng) {
            after.apply(Action::place(p)).unwrap();
            prop_assert_eq!(after.undo(), Some(Action::place(p)));
            prop_assert_eq!(&after, &g);
        }
        // And undoing every action leads back to the empty game.
        let mut all = g.clone();
        while all.undo().is_some() {}
        prop_assert_eq!(all, Game::new(rules));
    }

    #[test]
    fn arbitrary_action_bytes_never_break_a_promise(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        rules::fuzzing::run_actions(&data);
    }

    #[test]
    fn replaying_a_game_gives_the_same_game(rules in any_rules(), seed in any::<u64>(), plies in 0usize..80) {
        let g = random_game(rules, seed, plies);
        let replayed = Game::from_actions(rules, g.actions()).unwrap();
        prop_assert_eq!(replayed, g);
    }
}
