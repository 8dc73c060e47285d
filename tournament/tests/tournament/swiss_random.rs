//! Several hundred seeded random Swiss tournaments, each round checked against the absolute rules of the Dutch
//! system, independently of the pairing code: no player twice in a round, no repeat pairing, no forbidden pair,
//! at most one pairing-allocated bye per player and to the lowest score that can take it, the colour limits for
//! non-topscorers (difference within ±2, never three in a row), and the top score group's downfloaters minimal.
//! Each finished tournament also goes through the TRF export and import unchanged.
//! A failing case prints its seed.

use std::collections::HashSet;
use tournament::swiss::{GameKind, RoundEntry};
use tournament::{pair, BoardResult, Bye, Colour, Outcome, PairingError, PlayerId, Round, Swiss};

/// splitmix64: a small seeded generator, so every tournament is reproducible from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn played_colours(s: &Swiss, id: PlayerId) -> Vec<Colour> {
    s.players[id as usize - 1]
        .history
        .iter()
        .filter_map(|e| match e {
            RoundEntry::Game { colour, kind, .. } if *kind != GameKind::Forfeit => Some(*colour),
            _ => None,
        })
        .collect()
}

fn met(s: &Swiss, a: PlayerId, b: PlayerId) -> bool {
    s.players[a as usize - 1].history.iter().any(
        |e| matches!(e, RoundEntry::Game { opponent, kind, .. } if *opponent == b && *kind != GameKind::Forfeit),
    )
}

fn had_bye(s: &Swiss, id: PlayerId) -> bool {
    s.players[id as usize - 1].history.iter().any(|e| {
        matches!(e, RoundEntry::Bye(Bye::PairingAllocated))
            || matches!(
                e,
                RoundEntry::Game {
                    kind: GameKind::Forfeit,
                    outcome: Outcome::Win,
                    ..
                }
            )
    })
}

/// The absolute colour preference (A.6 a), computed here from the history alone.
fn absolute(s: &Swiss, id: PlayerId) -> Option<Colour> {
    let c = played_colours(s, id);
    let cd: i32 = c
        .iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum();
    let n = c.len();
    if cd > 1 {
        Some(Colour::Black)
    } else if cd < -1 {
        Some(Colour::White)
    } else if n >= 2 && c[n - 1] == c[n - 2] {
        Some(c[n - 1].opposite())
    } else {
        None
    }
}

fn topscorer(s: &Swiss, id: PlayerId) -> bool {
    let r = s.rounds_played();
    r + 1 == s.rounds && s.score_halves(id) > r
}

/// Whether two players may meet under the absolute criteria (C.1, C.3, forbidden pairs).
fn legal(s: &Swiss, a: PlayerId, b: PlayerId) -> bool {
    if a == b || met(s, a, b) || s.forbidden.contains(&(a.min(b), a.max(b))) {
        return false;
    }
    match (absolute(s, a), absolute(s, b)) {
        (Some(x), Some(y)) if x == y => topscorer(s, a) || topscorer(s, b),
        _ => true,
    }
}

/// A visitor of complete pairings: (pairs, bye); returning true stops the enumeration.
type Visit<'a> = &'a mut dyn FnMut(&[(PlayerId, PlayerId)], Option<PlayerId>) -> bool;

/// Every complete pairing of `pool` (one bye to an allowed player if odd), by brute force.
fn each_pairing(s: &Swiss, pool: &[PlayerId], f: Visit<'_>) -> bool {
    fn go(
        s: &Swiss,
        rest: &[PlayerId],
        pairs: &mut Vec<(PlayerId, PlayerId)>,
        bye: Option<PlayerId>,
        f: Visit<'_>,
    ) -> bool {
        if rest.is_empty() {
            return f(pairs, bye);
        }
        if rest.len() % 2 == 1 && bye.is_none() {
            for i in 0..rest.len() {
                let b = rest[i];
                if had_bye(s, b) {
                    continue;
                }
                let mut r = rest.to_vec();
                r.remove(i);
                if go(s, &r, pairs, Some(b), f) {
                    return true;
                }
            }
            return false;
        }
        let a = rest[0];
        for i in 1..rest.len() {
            let b = rest[i];
            if !legal(s, a, b) {
                continue;
            }
            let mut r = rest.to_vec();
            r.remove(i);
            r.remove(0);
            pairs.push((a, b));
            let stop = go(s, &r, pairs, bye, f);
            pairs.pop();
            if stop {
                return true;
            }
        }
        false
    }
    go(s, pool, &mut Vec::new(), None, f)
}

fn check_round(seed: u64, s: &Swiss, pool: &[PlayerId], round: &Round) {
    let ctx = format!("seed {seed} round {}", s.rounds_played() + 1);
    let mut seen = HashSet::new();
    for b in &round.boards {
        assert!(
            seen.insert(b.white) && seen.insert(b.black),
            "{ctx}: a player twice: {round:?}"
        );
        assert!(!met(s, b.white, b.black), "{ctx}: repeat pairing {b:?}");
        assert!(
            !s.forbidden
                .contains(&(b.white.min(b.black), b.white.max(b.black))),
            "{ctx}: forbidden {b:?}"
        );
        // C.3 lets a topscorer meet anyone in the final round, so a topscorer or its opponent may miss an
        // absolute preference there (C.8, C.9 only minimise it).
        let exempt = topscorer(s, b.white) || topscorer(s, b.black);
        for (id, got) in [(b.white, Colour::White), (b.black, Colour::Black)] {
            if let Some(want) = absolute(s, id) {
                assert!(
                    want == got || exempt,
                    "{ctx}: player {id} with an absolute preference for {want:?} got {got:?}"
                );
            }
        }
    }
    if let Some(b) = round.bye {
        assert!(seen.insert(b), "{ctx}: the bye is also paired");
        assert!(!had_bye(s, b), "{ctx}: a second bye for {b}");
        // The bye goes to the lowest score allowed one: nobody allowed it with a lower score could have taken
        // it with everyone else still legally paired (checked by brute force on small fields).
        if pool.len() <= 12 {
            for &l in pool {
                if l == b || had_bye(s, l) || s.score_halves(l) >= s.score_halves(b) {
                    continue;
                }
                let rest: Vec<PlayerId> = pool.iter().copied().filter(|&p| p != l).collect();
                let possible = each_pairing(s, &rest, &mut |_, bye| bye.is_none());
                assert!(
                    !possible,
                    "{ctx}: the bye went to {b} though {l} with a lower score could take it"
                );
            }
        }
    }
    assert_eq!(seen.len(), pool.len(), "{ctx}: not everyone paired");
    assert_eq!(
        round.bye.is_some(),
        pool.len() % 2 == 1,
        "{ctx}: bye iff odd"
    );

    // The top score group floats down as few players as any legal pairing with the same bye allows (C.5 in
    // the first bracket).
    if pool.len() <= 10 {
        let top = pool.iter().map(|&p| s.score_halves(p)).max().unwrap_or(0);
        let in_top = |p: PlayerId| s.score_halves(p) == top;
        let floats = |pairs: &[(PlayerId, PlayerId)], bye: Option<PlayerId>| -> usize {
            pairs
                .iter()
                .filter(|(a, b)| in_top(*a) != in_top(*b))
                .count()
                + usize::from(bye.is_some_and(in_top))
        };
        let ours = floats(
            &round
                .boards
                .iter()
                .map(|b| (b.white, b.black))
                .collect::<Vec<_>>(),
            round.bye,
        );
        let mut best = usize::MAX;
        // The bye is chosen first (lowest score), so compare with the pairings that give the same bye.
        each_pairing(s, pool, &mut |pairs, bye| {
            if bye == round.bye {
                best = best.min(floats(pairs, bye));
            }
            false
        });
        assert_eq!(
            ours, best,
            "{ctx}: {ours} downfloaters from the top group where {best} suffice"
        );
    }
}

fn check_colours_after(seed: u64, s: &Swiss, round_topscorers: &HashSet<PlayerId>, last: bool) {
    for p in &s.players {
        let c = played_colours(s, p.id);
        let cd: i32 = c
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum();
        let three = c.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]);
        if !(last && round_topscorers.contains(&p.id)) {
            assert!(
                cd.abs() <= 2,
                "seed {seed}: player {} has colour difference {cd}",
                p.id
            );
            assert!(
                !three || last,
                "seed {seed}: player {} has three colours in a row: {c:?}",
                p.id
            );
        }
    }
}

fn run(seed: u64) -> u32 {
    let mut rng = Rng(seed);
    let n = 5 + rng.below(12) as usize;
    let rounds = 3 + rng.below(((n as u64) / 2).min(6)) as u32;
    run_with(seed, rng, n, rounds)
}

fn run_with(seed: u64, mut rng: Rng, n: usize, rounds: u32) -> u32 {
    let names: Vec<String> = (0..n).map(|i| format!("Player {i}")).collect();
    let players: Vec<(&str, u16)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), 2400u16.saturating_sub(20 * i as u16)))
        .collect();
    let mut s = Swiss::new("random", rounds, &players).unwrap();
    if rng.chance(30) {
        s.initial_colour = Colour::Black;
    }
    if rng.chance(40) {
        let a = 1 + rng.below(n as u64) as PlayerId;
        let b = 1 + rng.below(n as u64) as PlayerId;
        if a != b {
            s.forbid(a, b).unwrap();
        }
    }
    let mut unpairable = 0;
    let mut topscorers_ever = HashSet::new();
    while s.rounds_played() < s.rounds {
        // Late entrants and withdrawals.
        if s.rounds_played() > 0 && rng.chance(15) {
            let missed = [Bye::Zero, Bye::Half, Bye::Full][rng.below(3) as usize];
            s.join(&format!("Late {}", s.players.len()), 1500, missed)
                .unwrap();
        }
        if s.rounds_played() > 0 && rng.chance(10) {
            let id = 1 + rng.below(s.players.len() as u64) as PlayerId;
            s.withdraw(id).unwrap();
        }
        let absent: Vec<PlayerId> = s
            .players
            .iter()
            .filter(|p| !p.withdrawn && rng.chance(4))
            .map(|p| p.id)
            .collect();
        let pool: Vec<PlayerId> = s
            .players
            .iter()
            .filter(|p| !p.withdrawn && !absent.contains(&p.id))
            .map(|p| p.id)
            .collect();
        let round = match pair(&s, &absent) {
            Ok(r) => r,
            Err(PairingError::NoLegalPairing) => {
                // Confirm independently that no legal pairing exists, then stop this tournament.
                if pool.len() <= 12 {
                    assert!(
                        !each_pairing(&s, &pool, &mut |_, _| true),
                        "seed {seed}: a legal pairing exists"
                    );
                }
                unpairable += 1;
                break;
            }
            Err(e) => panic!("seed {seed}: {e:?}"),
        };
        check_round(seed, &s, &pool, &round);
        let last = s.rounds_played() + 1 == s.rounds;
        if last {
            for b in &round.boards {
                if topscorer(&s, b.white) || topscorer(&s, b.black) {
                    topscorers_ever.extend([b.white, b.black]);
                }
            }
        }
        let results: Vec<BoardResult> = round
            .boards
            .iter()
            .map(|_| match rng.below(100) {
                0..=39 => BoardResult::WhiteWins,
                40..=59 => BoardResult::Draw,
                60..=94 => BoardResult::BlackWins,
                95..=96 => BoardResult::WhiteWinsByForfeit,
                97..=98 => BoardResult::BlackWinsByForfeit,
                _ => BoardResult::DoubleForfeit,
            })
            .collect();
        let absent_entries: Vec<(PlayerId, Bye)> = absent
            .iter()
            .map(|&a| (a, if rng.chance(50) { Bye::Half } else { Bye::Zero }))
            .collect();
        s.record(&round, &results, &absent_entries).unwrap();
        check_colours_after(seed, &s, &topscorers_ever, last);
    }
    // Every tournament also survives the TRF round trip exactly.
    let text = tournament::trf::export(&s);
    assert_eq!(
        tournament::trf::import(&text).as_ref(),
        Ok(&s),
        "seed {seed}: TRF round trip"
    );
    unpairable
}

#[test]
fn six_hundred_random_tournaments_keep_the_absolute_rules() {
    let mut unpairable = 0;
    for seed in 0..600u64 {
        let u = run(seed);
        unpairable += u;
    }
    eprintln!(
        "{unpairable} of 600 small tournaments ran out of legal pairings before their last round"
    );
    // Some small fields run out of legal opponents before their last round; that must stay the exception.
    assert!(
        unpairable < 60,
        "{unpairable} tournaments could not be paired to the end"
    );
}

#[test]
fn forty_larger_random_tournaments_keep_the_absolute_rules() {
    for seed in 10_000..10_040u64 {
        let mut rng = Rng(seed);
        let n = 20 + rng.below(41) as usize;
        let rounds = 5 + rng.below(5) as u32;
        let unpairable = run_with(seed, rng, n, rounds);
        assert_eq!(
            unpairable, 0,
            "seed {seed}: a large field could not be paired"
        );
    }
}
