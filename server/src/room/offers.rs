//! Draw offers, takeback requests and rematch offers, with the anti-spam rules: one pending offer of each kind per
//! player, and a declined offer cannot be repeated before two more stones are played.

use protocol::{code, OfferKind};

/// Stones that must be played after a decline before the same offer may be made again.
const COOLDOWN_PLIES: u32 = 2;

/// The offers of one room, by seat.
#[derive(Clone, Debug, Default)]
pub struct Offers {
    pending: Vec<(OfferKind, usize)>,
    /// (kind, seat that offered, ply when it was declined).
    declined: Vec<(OfferKind, usize, u32)>,
}

impl Offers {
    /// Whether `seat` may offer `kind` now, at `ply` stones; the refusal's error code otherwise.
    pub fn check(&self, kind: OfferKind, seat: usize, ply: u32) -> Result<(), &'static str> {
        if self.pending.contains(&(kind, seat)) {
            return Err(code::OFFER_PENDING);
        }
        let too_soon = self
            .declined
            .iter()
            .any(|&(k, s, at)| k == kind && s == seat && ply < at + COOLDOWN_PLIES);
        if too_soon {
            return Err(code::OFFER_TOO_SOON);
        }
        Ok(())
    }

    /// Records an offer (after [`Offers::check`]).
    pub fn add(&mut self, kind: OfferKind, seat: usize) {
        self.pending.push((kind, seat));
    }

    /// Whether `seat` has a pending offer of `kind`.
    pub fn is_pending(&self, kind: OfferKind, seat: usize) -> bool {
        self.pending.contains(&(kind, seat))
    }

    /// Removes `seat`'s pending offer of `kind`; `true` when there was one.
    pub fn take(&mut self, kind: OfferKind, seat: usize) -> bool {
        let before = self.pending.len();
        self.pending.retain(|&o| o != (kind, seat));
        self.pending.len() != before
    }

    /// `seat`'s offer of `kind` was declined at `ply` stones.
    pub fn decline(&mut self, kind: OfferKind, seat: usize, ply: u32) {
        self.take(kind, seat);
        self.declined.retain(|&(k, s, _)| !(k == kind && s == seat));
        self.declined.push((kind, seat, ply));
    }

    /// A stone was played: pending draw offers and takeback requests lapse.
    pub fn stone_played(&mut self) {
        self.pending.retain(|&(k, _)| k == OfferKind::Rematch);
    }

    /// A new game started, or a seat changed hands: everything is forgotten.
    pub fn clear(&mut self) {
        self.pending.clear();
        self.declined.clear();
    }

    /// Pending offers as (kind, seat).
    pub fn pending(&self) -> &[(OfferKind, usize)] {
        &self.pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pending_offer_of_each_kind_per_player() {
        let mut o = Offers::default();
        o.add(OfferKind::Draw, 0);
        assert_eq!(o.check(OfferKind::Draw, 0, 4), Err(code::OFFER_PENDING));
        assert_eq!(o.check(OfferKind::Takeback, 0, 4), Ok(()));
        assert_eq!(o.check(OfferKind::Draw, 1, 4), Ok(()));
    }

    #[test]
    fn a_declined_offer_waits_two_stones() {
        let mut o = Offers::default();
        o.add(OfferKind::Draw, 1);
        o.decline(OfferKind::Draw, 1, 10);
        assert!(!o.is_pending(OfferKind::Draw, 1));
        assert_eq!(o.check(OfferKind::Draw, 1, 11), Err(code::OFFER_TOO_SOON));
        assert_eq!(o.check(OfferKind::Draw, 0, 11), Ok(()));
        assert_eq!(o.check(OfferKind::Draw, 1, 12), Ok(()));
    }

    #[test]
    fn a_stone_clears_draw_and_takeback_but_not_rematch() {
        let mut o = Offers::default();
        o.add(OfferKind::Draw, 0);
        o.add(OfferKind::Takeback, 1);
        o.add(OfferKind::Rematch, 1);
        o.stone_played();
        assert_eq!(o.pending(), &[(OfferKind::Rematch, 1)]);
    }
}
