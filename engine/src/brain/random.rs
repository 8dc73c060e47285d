//! The random-legal brain: a uniformly random action from the game's own list ([`Game::legal_actions`]), for
//! any game. What load generators, fuzz harnesses and the easiest computer play.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use games::{AnyAction, AnyGame, Game};

use super::{Brain, BrainInfo, Judging};

/// Its registry entry (every game's list has it).
pub(super) const INFO: BrainInfo = BrainInfo {
    name: RandomBrain::NAME,
    about: "a uniformly random legal action",
    levels: 1..=1,
    make: |_, seed| Box::new(RandomBrain::new(seed)),
    judging: Judging::THREATS_ONLY,
};

/// Picks uniformly among the listed legal actions; the same seed and positions give the same choices.
#[derive(Clone, Debug)]
pub struct RandomBrain {
    state: u64,
}

impl RandomBrain {
    /// Its registered name.
    pub const NAME: &'static str = "random";

    /// A brain whose choices follow `seed`.
    pub fn new(seed: u64) -> RandomBrain {
        RandomBrain { state: seed }
    }

    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

impl Brain for RandomBrain {
    fn name(&self) -> &'static str {
        INFO.name
    }

    fn level(&self) -> u8 {
        1
    }

    /// Instant, so the budget and the cancel flag never matter.
    fn choose(&mut self, game: &AnyGame, _: Duration, _: &AtomicBool) -> Option<AnyAction> {
        let mut listed = game.legal_actions();
        if listed.is_empty() {
            return None;
        }
        let k = (self.next() % listed.len() as u64) as usize;
        Some(listed.swap_remove(k))
    }
}
