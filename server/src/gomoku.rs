//! What the server tells the store and the rating pools about its one game, Gomoku, until the game seam
//! (issue #15) moves it into the game itself: the game's kind, its pools, the rating step, and who holds which
//! colour. The store and `ratings` know no rules; these facts come from here, and only from here.

use ratings::Pool;
use rules::{Action, Game, RuleSet, Rules};
use store::{GameRecord, Rater, SeatsAtEnd};

/// The game's kind, as stored with each game (`games.game`).
pub const KIND: &str = "gomoku";

/// The pool of freestyle games.
pub const FREESTYLE: Pool = Pool::new(KIND, "freestyle");
/// The pool of standard games.
pub const STANDARD: Pool = Pool::new(KIND, "standard");
/// The pool of Renju games, every opening rule and forbidden policy together.
pub const RENJU: Pool = Pool::new(KIND, "renju");
/// Every pool, in display order.
pub const POOLS: [Pool; 3] = [FREESTYLE, STANDARD, RENJU];

/// The rating step the store runs for a finished rated game: Glicko-2, each game a rating period of its own.
pub const RATER: Rater = Rater(ratings::glicko2::rate_game);

/// The pool a game under these rules is rated in. Opening rules and forbidden policies do not split pools.
pub fn pool_of(rules: &Rules) -> Pool {
    match rules.rule_set() {
        RuleSet::Freestyle => FREESTYLE,
        RuleSet::Standard => STANDARD,
        RuleSet::Renju => RENJU,
    }
}

/// The pool a name ([`Pool::name`]) names among the game's pools, if any.
pub fn pool_named(name: &str) -> Option<Pool> {
    POOLS.into_iter().find(|p| p.name() == name)
}

/// Where a pool stands in display order ([`POOLS`]); a pool of no known game after them all.
pub fn display_rank(pool: &Pool) -> usize {
    POOLS.iter().position(|p| p == pool).unwrap_or(POOLS.len())
}

/// Who holds which colour now, relative to the seats the game started with: the one place the server asks,
/// for a live game (the room), a game ending (the finish write) and a stored record (profiles, records). The
/// rules decide (`rules::Game::colours_swapped`), not a count of swap actions.
pub fn seats_now(game: &Game) -> SeatsAtEnd {
    if game.colours_swapped() {
        SeatsAtEnd::Exchanged
    } else {
        SeatsAtEnd::AsStarted
    }
}

/// A stored game replayed through the rules (`None`: its actions do not replay, which the room never stores).
pub fn replay(record: &GameRecord) -> Option<Game> {
    let actions: Vec<Action> = record.actions.iter().map(|a| a.action).collect();
    Game::from_actions(record.game.rules, &actions).ok()
}

/// [`seats_now`] of a stored game (as started when it does not replay).
pub fn seats_of(record: &GameRecord) -> SeatsAtEnd {
    replay(record)
        .as_ref()
        .map_or(SeatsAtEnd::AsStarted, seats_now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_set_has_its_own_pool_named_as_stored_before_pools_had_games() {
        assert_eq!(pool_of(&Rules::freestyle()).name(), "freestyle");
        assert_eq!(pool_of(&Rules::standard()).name(), "standard");
        assert_eq!(
            pool_of(&Rules::renju(rules::ForbiddenPolicy::Claim)).name(),
            "renju"
        );
        for pool in POOLS {
            assert_eq!(pool_named(&pool.name()), Some(pool.clone()));
        }
        assert_eq!(pool_named("othello/standard"), None);
        assert_eq!(pool_named("Renju"), None);
    }

    #[test]
    fn only_an_accepted_swap_exchanges_the_seats() {
        let rules = Rules::renju(rules::ForbiddenPolicy::Reject)
            .with_opening(rules::Opening::SwapAfterThree);
        let opening: Vec<Action> = ["h8", "h9", "i9"]
            .iter()
            .map(|p| Action::place(p.parse().unwrap()))
            .collect();
        let after = |swap: bool| {
            let mut actions = opening.clone();
            actions.push(Action::DecideSwap { swap });
            seats_now(&Game::from_actions(rules, &actions).unwrap())
        };
        assert_eq!(
            seats_now(&Game::from_actions(rules, &opening).unwrap()),
            SeatsAtEnd::AsStarted
        );
        assert_eq!(after(false), SeatsAtEnd::AsStarted);
        assert_eq!(after(true), SeatsAtEnd::Exchanged);
    }
}
