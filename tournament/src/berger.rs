//! Round robins by the Berger tables (FIDE C.05 Annex 1).
//!
//! For an even number `n` of players, player `n` is fixed and the others rotate: in round `r` (1-based) player
//! `k = 1 + (r − 1)·n/2 mod (n − 1)` meets player `n` (white in odd rounds, black in even ones), and for
//! `i = 1 … n/2 − 1` player `k + i` has white against player `k − i` (numbers taken mod `n − 1` in `1 … n − 1`).
//! This reproduces the FIDE tables board for board. With an odd number of players a dummy number `n + 1` is
//! added; whoever meets it has the round off (the bye).
//!
//! A double round robin repeats the cycle with colours reversed. FIDE recommends swapping the last two rounds of
//! the first cycle, which spares players 1 and n/2 + 1 three games in a row with one colour across the cycles'
//! seam (it cannot spare everyone: with 4 players, player 2 then has three blacks); we do that
//! ([`double_round_robin`]).

/// One game of a round robin: pairing numbers, 1-based.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pairing {
    /// White's number.
    pub white: u32,
    /// Black's number.
    pub black: u32,
}

/// One round: its games (board order of the FIDE table) and the player with the round off, if any.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundRobinRound {
    /// The games, first board first.
    pub games: Vec<Pairing>,
    /// The player who meets the dummy (odd player counts).
    pub bye: Option<u32>,
}

/// Why no schedule was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BergerError {
    /// At least two players are needed.
    TooFewPlayers,
    /// More than [`MAX_PLAYERS`] players.
    TooManyPlayers,
}

/// The largest field scheduled (a round robin of more is not an event anyone runs online).
pub const MAX_PLAYERS: u32 = 1000;

/// The single round robin of `players` players (`players − 1` rounds if even, `players` if odd).
pub fn round_robin(players: u32) -> Result<Vec<RoundRobinRound>, BergerError> {
    if players < 2 {
        return Err(BergerError::TooFewPlayers);
    }
    if players > MAX_PLAYERS {
        return Err(BergerError::TooManyPlayers);
    }
    let n = players + players % 2;
    let m = n - 1;
    let wrap = |x: i64| -> u32 { ((x - 1).rem_euclid(i64::from(m)) + 1) as u32 };
    let mut rounds = Vec::with_capacity(m as usize);
    for r in 1..=m {
        let k = wrap(1 + i64::from((r - 1) * (n / 2)));
        let mut games = Vec::with_capacity(n as usize / 2);
        let mut bye = None;
        let first = if r % 2 == 1 {
            Pairing { white: k, black: n }
        } else {
            Pairing { white: n, black: k }
        };
        games.push(first);
        for i in 1..n / 2 {
            let white = wrap(i64::from(k) + i64::from(i));
            let black = wrap(i64::from(k) - i64::from(i));
            games.push(Pairing { white, black });
        }
        if n != players {
            // Player n is the dummy: its game is the bye.
            games.retain(|g| {
                if g.white == n || g.black == n {
                    bye = Some(if g.white == n { g.black } else { g.white });
                    false
                } else {
                    true
                }
            });
        }
        rounds.push(RoundRobinRound { games, bye });
    }
    Ok(rounds)
}

/// The double round robin: the first cycle with its last two rounds swapped, then the cycle again with
/// colours reversed.
pub fn double_round_robin(players: u32) -> Result<Vec<RoundRobinRound>, BergerError> {
    let mut first = round_robin(players)?;
    let len = first.len();
    if len >= 2 {
        first.swap(len - 1, len - 2);
    }
    let second: Vec<RoundRobinRound> = first
        .iter()
        .map(|r| RoundRobinRound {
            games: r
                .games
                .iter()
                .map(|g| Pairing {
                    white: g.black,
                    black: g.white,
                })
                .collect(),
            bye: r.bye,
        })
        .collect();
    first.extend(second);
    Ok(first)
}
