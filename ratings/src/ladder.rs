//! Each game's cumulative ladder, beside the Glicko-2 rating (issue #34 item 5): points that only add up, and the
//! title they earn, as two of the project's sources describe them.
//!
//! - **Points** ([`Ladder::Points`], the draughts source's): +2 for a win, 0 for a draw, −2 for a loss, and 14
//!   titles from 菜鸟 (below 0) to 棋圣 (100,000). Draughts, Othello and insect chess use it.
//! - **段位** ([`Ladder::Dan`], the Gomoku source's): 100 points a level, 无级别 below 100, 1 段 … 9 段, then 棋圣
//!   from 1,000; the winner gains what the loser loses. The source leaves out how many points a result is worth,
//!   so this crate chooses: [`DAN_BASE`] (10) a game, plus [`DAN_PER_LEVEL`] (2) for every level the loser stands
//!   above the winner (minus 2 for every level below), kept between [`DAN_MIN_STEP`] (2) and [`DAN_MAX_STEP`] (20).
//!   A draw moves nobody. Points never go below 0: a loser at 0 loses nothing more, the winner still gains the
//!   whole step. Demotion follows from the points: a 3 段 who falls below 300 is a 2 段 again.
//!
//! Pure data and arithmetic, like [`crate::tier`]: the store applies [`Ladder::step`] in the transaction that rates
//! a game, and clients take the names from here through the server.

/// Which ladder a game climbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ladder {
    /// The draughts source's cumulative points: +2 / 0 / −2 and its 14 titles ([`POINTS_TITLES`]).
    Points,
    /// The Gomoku source's 段位: 100 points a level ([`DAN_TITLES`]).
    Dan,
}

/// One side's result in a game, as the ladder scores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// The side won.
    Win,
    /// Neither side won.
    Draw,
    /// The side lost.
    Loss,
}

impl Score {
    /// The other side's result.
    pub const fn opposite(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}

/// A ladder title: a stable code (as on the wire), its English and its Chinese name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Title {
    /// Stable snake_case code (`junior_player`, `dan_3`).
    pub code: &'static str,
    /// English name.
    pub en: &'static str,
    /// Chinese name, the source's.
    pub zh: &'static str,
    /// The fewest points that earn it (`i64::MIN` for the lowest title).
    pub min: i64,
}

const fn title(min: i64, code: &'static str, en: &'static str, zh: &'static str) -> Title {
    Title { code, en, zh, min }
}

/// The draughts source's 14 titles, lowest first, each with the fewest points that earn it.
pub const POINTS_TITLES: &[Title] = &[
    title(i64::MIN, "rookie", "Rookie", "菜鸟"),
    title(0, "newcomer", "Newcomer", "新手"),
    title(20, "initiate", "Initiate", "入门"),
    title(40, "junior_player", "Junior Player", "初级棋手"),
    title(
        100,
        "intermediate_player",
        "Intermediate Player",
        "中级棋手",
    ),
    title(200, "senior_player", "Senior Player", "高级棋手"),
    title(400, "junior_expert", "Junior Expert", "初级棋士"),
    title(
        1000,
        "intermediate_expert",
        "Intermediate Expert",
        "中级棋士",
    ),
    title(2000, "senior_expert", "Senior Expert", "高级棋士"),
    title(4000, "junior_master", "Junior Master", "初级大师"),
    title(
        10000,
        "intermediate_master",
        "Intermediate Master",
        "中级大师",
    ),
    title(20000, "senior_master", "Senior Master", "高级大师"),
    title(40000, "grandmaster", "Grandmaster", "宗师"),
    title(100000, "sage", "Sage", "棋圣"),
];

/// The Gomoku source's 段位, lowest first: 无级别, 1 段 … 9 段, 棋圣; 100 points a level.
pub const DAN_TITLES: &[Title] = &[
    title(i64::MIN, "ungraded", "Ungraded", "无级别"),
    title(100, "dan_1", "1 Dan", "1段"),
    title(200, "dan_2", "2 Dan", "2段"),
    title(300, "dan_3", "3 Dan", "3段"),
    title(400, "dan_4", "4 Dan", "4段"),
    title(500, "dan_5", "5 Dan", "5段"),
    title(600, "dan_6", "6 Dan", "6段"),
    title(700, "dan_7", "7 Dan", "7段"),
    title(800, "dan_8", "8 Dan", "8段"),
    title(900, "dan_9", "9 Dan", "9段"),
    title(1000, "dan_sage", "Sage", "棋圣"),
];

/// Points a level on the 段位 ladder.
pub const DAN_POINTS_PER_LEVEL: i64 = 100;
/// Points a decided 段位 game moves between two players of the same level.
pub const DAN_BASE: i64 = 10;
/// How much each level between the two players adds to (winner below) or takes from (winner above) the step.
pub const DAN_PER_LEVEL: i64 = 2;
/// The smallest step of a decided 段位 game (a 9 段 beating an ungraded player still gains this).
pub const DAN_MIN_STEP: i64 = 2;
/// The largest step of a decided 段位 game.
pub const DAN_MAX_STEP: i64 = 20;
/// Points on the draughts-style ladder for a win (a loss is its negative, a draw 0).
pub const POINTS_WIN: i64 = 2;

impl Ladder {
    /// The ladder a game (its [`crate::Pool::game`] name) climbs: 段位 for Gomoku, the points ladder for every
    /// other game (draughts, Othello, insect chess, and any game added later until it chooses otherwise).
    pub fn of_game(game: &str) -> Ladder {
        if game == crate::UNPREFIXED_GAME {
            Ladder::Dan
        } else {
            Ladder::Points
        }
    }

    /// Stable code (`points`, `dan`).
    pub const fn code(self) -> &'static str {
        match self {
            Ladder::Points => "points",
            Ladder::Dan => "dan",
        }
    }

    /// The titles, lowest first.
    pub const fn titles(self) -> &'static [Title] {
        match self {
            Ladder::Points => POINTS_TITLES,
            Ladder::Dan => DAN_TITLES,
        }
    }

    /// The title `points` earn: the highest whose minimum they reach.
    pub fn title(self, points: i64) -> Title {
        let titles = self.titles();
        titles
            .iter()
            .rev()
            .find(|t| points >= t.min)
            .copied()
            .unwrap_or(titles[0])
    }

    /// The level `points` stand at (the index of their title in [`Ladder::titles`]).
    pub fn level(self, points: i64) -> usize {
        let titles = self.titles();
        titles.iter().rposition(|t| points >= t.min).unwrap_or(0)
    }

    /// Both players' points after a game: `a` scored `score` against `b`. Returns `(a's new points, b's new
    /// points)`.
    pub fn step(self, a: i64, b: i64, score: Score) -> (i64, i64) {
        match self {
            Ladder::Points => {
                let d = match score {
                    Score::Win => POINTS_WIN,
                    Score::Draw => 0,
                    Score::Loss => -POINTS_WIN,
                };
                (a.saturating_add(d), b.saturating_sub(d))
            }
            Ladder::Dan => match score {
                Score::Draw => (a, b),
                Score::Win => {
                    let (w, l) = dan_decided(a, b);
                    (w, l)
                }
                Score::Loss => {
                    let (w, l) = dan_decided(b, a);
                    (l, w)
                }
            },
        }
    }

    /// The 段位 step a winner at `winner` points gains over a loser at `loser` points (see the module's text).
    pub fn dan_step(winner: i64, loser: i64) -> i64 {
        let gap = dan_level(loser) - dan_level(winner);
        (DAN_BASE + DAN_PER_LEVEL * gap).clamp(DAN_MIN_STEP, DAN_MAX_STEP)
    }
}

fn dan_level(points: i64) -> i64 {
    Ladder::Dan.level(points) as i64
}

/// (winner's, loser's) new 段位 points.
fn dan_decided(winner: i64, loser: i64) -> (i64, i64) {
    let step = Ladder::dan_step(winner, loser);
    (
        winner.saturating_add(step),
        loser.saturating_sub(step).max(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_points_title_starts_at_its_boundary() {
        let expected = [
            (-1, "菜鸟"),
            (0, "新手"),
            (19, "新手"),
            (20, "入门"),
            (39, "入门"),
            (40, "初级棋手"),
            (99, "初级棋手"),
            (100, "中级棋手"),
            (199, "中级棋手"),
            (200, "高级棋手"),
            (399, "高级棋手"),
            (400, "初级棋士"),
            (999, "初级棋士"),
            (1000, "中级棋士"),
            (1999, "中级棋士"),
            (2000, "高级棋士"),
            (3999, "高级棋士"),
            (4000, "初级大师"),
            (9999, "初级大师"),
            (10000, "中级大师"),
            (19999, "中级大师"),
            (20000, "高级大师"),
            (39999, "高级大师"),
            (40000, "宗师"),
            (99999, "宗师"),
            (100000, "棋圣"),
            (i64::MAX, "棋圣"),
            (i64::MIN, "菜鸟"),
        ];
        for (points, zh) in expected {
            assert_eq!(Ladder::Points.title(points).zh, zh, "{points} points");
        }
        assert_eq!(POINTS_TITLES.len(), 14);
    }

    #[test]
    fn every_dan_level_starts_at_a_hundred_points() {
        assert_eq!(Ladder::Dan.title(0).zh, "无级别");
        assert_eq!(Ladder::Dan.title(99).zh, "无级别");
        for level in 1..=9 {
            let min = level * DAN_POINTS_PER_LEVEL;
            assert_eq!(Ladder::Dan.title(min).zh, format!("{level}段"));
            assert_eq!(Ladder::Dan.title(min).en, format!("{level} Dan"));
            assert_eq!(
                Ladder::Dan.title(min - 1).code,
                DAN_TITLES[level as usize - 1].code
            );
        }
        assert_eq!(Ladder::Dan.title(999).zh, "9段");
        assert_eq!(Ladder::Dan.title(1000).zh, "棋圣");
        assert_eq!(Ladder::Dan.title(i64::MAX).code, "dan_sage");
    }

    #[test]
    fn titles_have_distinct_codes_and_rising_minimums() {
        for ladder in [Ladder::Points, Ladder::Dan] {
            let titles = ladder.titles();
            for pair in titles.windows(2) {
                assert!(pair[0].min < pair[1].min);
            }
            let mut codes: Vec<_> = titles.iter().map(|t| t.code).collect();
            codes.sort_unstable();
            codes.dedup();
            assert_eq!(codes.len(), titles.len());
        }
    }

    #[test]
    fn the_points_ladder_scores_two_for_a_win_nothing_for_a_draw() {
        assert_eq!(Ladder::Points.step(0, 0, Score::Win), (2, -2));
        assert_eq!(Ladder::Points.step(0, 0, Score::Loss), (-2, 2));
        assert_eq!(Ladder::Points.step(10, 4, Score::Draw), (10, 4));
        // A loss at 0 goes below 0: 菜鸟.
        assert_eq!(
            Ladder::Points
                .title(Ladder::Points.step(0, 0, Score::Loss).0)
                .code,
            "rookie"
        );
        // 18 + 2 reaches 入门.
        assert_eq!(
            Ladder::Points
                .title(Ladder::Points.step(18, 0, Score::Win).0)
                .zh,
            "入门"
        );
    }

    #[test]
    fn the_dan_winner_gains_what_the_loser_loses() {
        assert_eq!(Ladder::Dan.step(150, 150, Score::Win), (160, 140));
        assert_eq!(Ladder::Dan.step(150, 150, Score::Loss), (140, 160));
        assert_eq!(Ladder::Dan.step(150, 150, Score::Draw), (150, 150));
        // A 1 段 beating a 4 段 gains 10 + 3 × 2.
        assert_eq!(Ladder::Dan.step(100, 400, Score::Win), (116, 384));
        // A 4 段 beating a 1 段 gains 10 − 3 × 2.
        assert_eq!(Ladder::Dan.step(400, 100, Score::Win), (404, 96));
    }

    #[test]
    fn the_dan_step_stays_between_its_bounds() {
        assert_eq!(Ladder::dan_step(0, 1000), DAN_MAX_STEP);
        assert_eq!(Ladder::dan_step(1000, 0), DAN_MIN_STEP);
        assert_eq!(Ladder::dan_step(0, 500), 20);
        assert_eq!(Ladder::dan_step(0, 400), 18);
        assert_eq!(Ladder::dan_step(500, 0), 2);
        assert_eq!(Ladder::dan_step(400, 0), 2);
        assert_eq!(Ladder::dan_step(300, 0), 4);
    }

    #[test]
    fn dan_demotion_and_the_floor_at_zero() {
        // A 3 段 at exactly 300 losing to an equal drops to 2 段.
        let (_, loser) = Ladder::Dan.step(300, 300, Score::Win);
        assert_eq!(loser, 290);
        assert_eq!(Ladder::Dan.title(loser).code, "dan_2");
        // A loser at 4 points loses only what it has; the winner gains the whole step.
        assert_eq!(Ladder::Dan.step(0, 4, Score::Win), (10, 0));
        assert_eq!(Ladder::Dan.step(4, 0, Score::Loss), (0, 10));
    }

    #[test]
    fn gomoku_climbs_the_dan_ladder_and_every_other_game_the_points() {
        assert_eq!(Ladder::of_game("gomoku"), Ladder::Dan);
        for game in ["othello", "draughts", "insect"] {
            assert_eq!(Ladder::of_game(game), Ladder::Points);
        }
        assert_eq!(Score::Win.opposite(), Score::Loss);
        assert_eq!(Score::Draw.opposite(), Score::Draw);
    }
}
