//! Marking a cheater (issue #38): the rating gains of the cheater's rated games are removed and their opponents'
//! losses restored, by **recomputing the pool from the stored games without the cheater's games**.
//!
//! Why a recomputation and not reversing each game's step: with Glicko-2 a game's step depends on both players'
//! ratings, deviations and volatilities at the time, so a rating point taken by the cheater also changed every
//! later game of the victim (and of the victim's later opponents). Subtracting each cheated game's change would
//! leave those later steps computed from the wrong numbers (and the deviations, which only shrink with games, would
//! stay shrunk); the pool as it would be had the cheater never played is only found by playing its games again.
//!
//! The replay, in one pool:
//! - Everything rated before the cheater's first rated game in the pool is untouched: the replay starts there, each
//!   player from the rating their first replayed row was rated from.
//! - Games are replayed in the order they were rated (the rows' time, then the game's id).
//! - A game against the cheater no longer counts: both players' rows become "no change" (before = after = the
//!   replayed rating), so the opponent gets back what they lost and gives back what they won (a win against an
//!   engine is no evidence of strength either). The cheater's own rating goes back to the one they had before
//!   their first game in the pool. The games stay in every record (games, wins, losses, draws are not changed).
//! - Any other game is played again with the same rating step from the replayed ratings, when either player's
//!   replayed rating differs from the one stored for that game; a game whose two players are untouched keeps its
//!   stored rows. Who moved stays as it was: a side whose stored rating did not move in the game (an established
//!   player against a newcomer, `ratings::established`) does not move in the replay either.
//!
//! [`without`] is that replay, pure; the stores read the rows and write its answer in one transaction.

use std::collections::BTreeMap;

use ratings::Rating;

use crate::{GameId, Millis, Rater, UserId};

/// One player's row of a rated game, as stored (`rating_changes`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedSide {
    /// The player.
    pub user: UserId,
    /// Their rating before the game.
    pub before: Rating,
    /// Their rating after it.
    pub after: Rating,
}

/// A rated game of a pool, as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedGame {
    /// The game.
    pub game: GameId,
    /// When it was rated.
    pub at: Millis,
    /// Both players' rows.
    pub sides: [RatedSide; 2],
    /// The winner (`None`: a draw).
    pub winner: Option<UserId>,
}

/// A row the replay changed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rewritten {
    /// The game.
    pub game: GameId,
    /// The player.
    pub user: UserId,
    /// Their replayed rating before the game.
    pub before: Rating,
    /// After it.
    pub after: Rating,
}

/// What the replay found: the rows to rewrite and every replayed player's rating now.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Replay {
    /// Changed rows, in replay order.
    pub rows: Vec<Rewritten>,
    /// The rating each player of the replay has now (the cheater's included).
    pub ratings: BTreeMap<UserId, Rating>,
}

/// The pool's games from the cheater's first on, sorted as they were rated, replayed without the cheater's games
/// (see the module's documentation). `games` may hold the pool's earlier games too: they are skipped.
pub fn without(cheater: UserId, games: &[RatedGame], rater: Rater) -> Replay {
    let mut games = games.to_vec();
    games.sort_by_key(|g| (g.at, g.game));
    let Some(first) = games
        .iter()
        .position(|g| g.sides.iter().any(|s| s.user == cheater))
    else {
        return Replay::default();
    };
    let mut now: BTreeMap<UserId, Rating> = BTreeMap::new();
    let mut rows = Vec::new();
    for game in &games[first..] {
        // A player's replay starts from the rating their first replayed row was rated from.
        for side in &game.sides {
            now.entry(side.user).or_insert(side.before);
        }
        let [a, b] = game.sides;
        let (ra, rb) = (now[&a.user], now[&b.user]);
        let (after_a, after_b) = if a.user == cheater || b.user == cheater {
            (ra, rb)
        } else if ra == a.before && rb == b.before {
            (a.after, b.after)
        } else {
            let score_a = match game.winner {
                Some(w) if w == a.user => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            let (stepped_a, stepped_b) = (rater.0)(ra, rb, score_a);
            (
                if a.after == a.before { ra } else { stepped_a },
                if b.after == b.before { rb } else { stepped_b },
            )
        };
        for (side, before, after) in [(a, ra, after_a), (b, rb, after_b)] {
            if before != side.before || after != side.after {
                rows.push(Rewritten {
                    game: game.game,
                    user: side.user,
                    before,
                    after,
                });
            }
            now.insert(side.user, after);
        }
    }
    Replay { rows, ratings: now }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GLICKO: Rater = Rater(ratings::glicko2::rate_game);

    /// Plays a pool's games with the real step, as the store would have rated them; `games` are (black, white,
    /// winner) in order. Answers the stored rows and the final ratings.
    fn play(
        games: &[(UserId, UserId, Option<UserId>)],
    ) -> (Vec<RatedGame>, BTreeMap<UserId, Rating>) {
        let mut now: BTreeMap<UserId, Rating> = BTreeMap::new();
        let mut out = Vec::new();
        for (i, &(a, b, winner)) in games.iter().enumerate() {
            let ra = *now.entry(a).or_default();
            let rb = *now.entry(b).or_default();
            let score = match winner {
                Some(w) if w == a => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            let (na, nb) = (GLICKO.0)(ra, rb, score);
            now.insert(a, na);
            now.insert(b, nb);
            out.push(RatedGame {
                game: i as GameId + 1,
                at: 1_000 * (i as Millis + 1),
                sides: [
                    RatedSide {
                        user: a,
                        before: ra,
                        after: na,
                    },
                    RatedSide {
                        user: b,
                        before: rb,
                        after: nb,
                    },
                ],
                winner,
            });
        }
        (out, now)
    }

    #[test]
    fn the_pool_is_as_if_the_cheater_never_played() {
        // 9 cheats against 1 and 2, who then play each other and 3.
        let history = [
            (1, 2, Some(1)),
            (9, 1, Some(9)),
            (2, 9, Some(9)),
            (1, 2, Some(2)),
            (3, 1, None),
            (2, 3, Some(3)),
        ];
        let (stored, _) = play(&history);
        let honest: Vec<_> = history
            .iter()
            .copied()
            .filter(|&(a, b, _)| a != 9 && b != 9)
            .collect();
        let (_, expected) = play(&honest);

        let replay = without(9, &stored, GLICKO);

        for user in [1, 2, 3] {
            assert_eq!(replay.ratings[&user], expected[&user], "player {user}");
        }
        assert_eq!(
            replay.ratings[&9],
            Rating::default(),
            "the cheater's gains are gone"
        );
        // Game 1 was before the cheater's first: untouched. Games 2 and 3 became "no change" for both sides.
        assert!(replay.rows.iter().all(|r| r.game >= 2));
        let game2: Vec<_> = replay.rows.iter().filter(|r| r.game == 2).collect();
        assert_eq!(game2.len(), 2);
        assert!(game2.iter().all(|r| r.before == r.after));
    }

    #[test]
    fn an_opponents_loss_is_restored_with_numbers() {
        // 1 and 9 start at 1500 ± 350. 9 beats 1 once: 1 falls to 1337.7 (Glicko-2, one game at 1500 ± 350).
        let (stored, before) = play(&[(9, 1, Some(9))]);
        assert_eq!((before[&1].rating * 10.0).round() / 10.0, 1337.7);
        assert_eq!((before[&9].rating * 10.0).round() / 10.0, 1662.3);

        let replay = without(9, &stored, GLICKO);

        assert_eq!(replay.ratings[&1], Rating::default(), "1500 ± 350 again");
        assert_eq!(replay.ratings[&9], Rating::default());
        assert_eq!(
            replay.rows,
            vec![
                Rewritten {
                    game: 1,
                    user: 9,
                    before: Rating::default(),
                    after: Rating::default()
                },
                Rewritten {
                    game: 1,
                    user: 1,
                    before: Rating::default(),
                    after: Rating::default()
                },
            ]
        );
    }

    #[test]
    fn a_side_that_did_not_move_stays_unmoved_in_the_replay() {
        // Game 2: player 1's rating did not move (established against a newcomer, say).
        let (mut stored, _) = play(&[(9, 1, Some(9)), (1, 4, Some(1))]);
        stored[1].sides[0].after = stored[1].sides[0].before;

        let replay = without(9, &stored, GLICKO);

        let row = replay
            .rows
            .iter()
            .find(|r| r.game == 2 && r.user == 1)
            .expect("player 1's row is replayed from 1500");
        assert_eq!(row.before, row.after);
        assert_eq!(replay.ratings[&1], Rating::default());
        assert_ne!(
            replay.ratings[&4], stored[1].sides[1].before,
            "4 still lost the game"
        );
    }

    #[test]
    fn a_player_who_never_played_rated_games_changes_nothing() {
        let (stored, _) = play(&[(1, 2, Some(1))]);
        assert_eq!(without(9, &stored, GLICKO), Replay::default());
    }
}
