//! A Swiss tournament's state: players, their round-by-round history, forbidden pairs; late joins, withdrawals,
//! recording results. The pairing itself is [`crate::dutch`].

use crate::score::Outcome;
use std::collections::HashSet;
use std::fmt;

/// A player's starting rank (pairing number), 1-based as in the TRF file.
pub type PlayerId = u32;

/// A colour. In every game of this crate the first mover is "white" (black in Gomoku and draughts sources:
/// the room maps the seats; pairing only needs two sides).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// The first side.
    White,
    /// The second side.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// How a game counted: played and rated, played unrated, or not played (a forfeit).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Played (TRF `1`, `=`, `0`).
    Rated,
    /// Played but not rated (TRF `W`, `D`, `L`).
    Unrated,
    /// Not played: one side did not appear (TRF `+`, `-`). Counts for neither colours nor repeat pairings.
    Forfeit,
}

/// A round without a game.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bye {
    /// The pairing-allocated bye of an odd round (TRF `U`): the points of a win unless configured otherwise.
    PairingAllocated,
    /// A requested full-point bye (TRF `F`).
    Full,
    /// A requested half-point bye, or a round missed by a late entrant who gets half a point (TRF `H`).
    Half,
    /// An absence: no points (TRF `Z`); also a round missed by a late entrant without points, or after a withdrawal.
    Zero,
}

/// One round of one player's history.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundEntry {
    /// A game (possibly forfeited) against `opponent` with `colour`.
    Game {
        /// The opponent's starting rank.
        opponent: PlayerId,
        /// This player's colour.
        colour: Colour,
        /// This player's result.
        outcome: Outcome,
        /// Whether it was played, and rated.
        kind: GameKind,
    },
    /// No game this round.
    Bye(Bye),
}

/// One player of a Swiss.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Starting rank, the pairing number (A.2 b). Late entrants get the next free number.
    pub id: PlayerId,
    /// Display name (TRF: at most 33 characters).
    pub name: String,
    /// Rating used for the initial ranking and the TRF (0 when unrated).
    pub rating: u16,
    /// One entry per completed round.
    pub history: Vec<RoundEntry>,
    /// A withdrawn player is no longer paired.
    pub withdrawn: bool,
}

/// A board of a pairing.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The player with white.
    pub white: PlayerId,
    /// The player with black.
    pub black: PlayerId,
}

/// The pairing of one round.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// The boards, sorted as C.04.2 asks (highest score, then score sum, then the higher player's rank).
    pub boards: Vec<Board>,
    /// The pairing-allocated bye, if the number of players to pair is odd.
    pub bye: Option<PlayerId>,
}

/// The result of one board.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardResult {
    /// White won.
    WhiteWins,
    /// A draw.
    Draw,
    /// Black won.
    BlackWins,
    /// Black did not appear.
    WhiteWinsByForfeit,
    /// White did not appear.
    BlackWinsByForfeit,
    /// Neither appeared.
    DoubleForfeit,
}

/// Why a tournament operation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwissError {
    /// The number of rounds must be at least 1.
    NoRounds,
    /// No such player.
    UnknownPlayer(PlayerId),
    /// Every round has been played.
    Finished,
    /// A player was named twice (in a pairing, results or forbidden pair).
    Duplicate(PlayerId),
    /// The results do not match the pairing (a board without result, or a player left out).
    ResultsMismatch,
    /// A late entrant's missed rounds can only be `Zero`, `Half` or `Full` byes.
    BadMissedRounds,
    /// A withdrawn player was paired or given a result.
    Withdrawn(PlayerId),
    /// A name longer than the TRF's 33 characters, or empty.
    BadName,
    /// A rating above [`MAX_RATING`] (the TRF's four digits).
    BadRating,
    /// The tournament's fields contradict each other (ids out of order, histories of different lengths, a game
    /// whose two sides disagree); see [`Swiss::validate`].
    Inconsistent,
}

impl SwissError {
    /// A stable code string for the wire.
    pub fn code(&self) -> &'static str {
        match self {
            SwissError::NoRounds => "no_rounds",
            SwissError::UnknownPlayer(_) => "unknown_player",
            SwissError::Finished => "finished",
            SwissError::Duplicate(_) => "duplicate",
            SwissError::ResultsMismatch => "results_mismatch",
            SwissError::BadMissedRounds => "bad_missed_rounds",
            SwissError::Withdrawn(_) => "withdrawn",
            SwissError::BadName => "bad_name",
            SwissError::BadRating => "bad_rating",
            SwissError::Inconsistent => "inconsistent",
        }
    }
}

impl fmt::Display for SwissError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl std::error::Error for SwissError {}

/// The longest name the TRF player line holds.
pub const MAX_NAME_CHARS: usize = 33;

/// A Swiss tournament: the input of the Dutch pairing and of the tie-breaks.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swiss {
    /// Event name (TRF 012).
    pub name: String,
    /// Number of rounds (TRF extension XXR).
    pub rounds: u32,
    /// The colour the first board's higher-ranked player gets in round 1 (TRF extension XXC), C.04.3 E.5.
    pub initial_colour: Colour,
    /// Half-points for the pairing-allocated bye (2 = a win, C.04.1 c; TRF extension BBU).
    pub pairing_bye_halves: u32,
    /// Players by starting rank: `players[i].id == i + 1`.
    pub players: Vec<Player>,
    /// Pairs that must never meet (TRF extension XXP), smaller id first.
    pub forbidden: Vec<(PlayerId, PlayerId)>,
}

/// The highest rating the TRF's four digits hold.
pub const MAX_RATING: u16 = 9999;

fn check_player(name: &str, rating: u16) -> Result<(), SwissError> {
    if name.trim().is_empty() || name.chars().count() > MAX_NAME_CHARS || name.trim() != name {
        return Err(SwissError::BadName);
    }
    if name.chars().any(|c| c.is_control()) {
        return Err(SwissError::BadName);
    }
    if rating > MAX_RATING {
        return Err(SwissError::BadRating);
    }
    Ok(())
}

impl Swiss {
    /// A tournament of `rounds` rounds; the players are given in the initial ranking order (C.04.2 B: rating,
    /// then title, then name, as the organiser decides) and numbered 1, 2, ….
    pub fn new(name: &str, rounds: u32, players: &[(&str, u16)]) -> Result<Swiss, SwissError> {
        if rounds == 0 {
            return Err(SwissError::NoRounds);
        }
        if name.chars().any(char::is_control) {
            return Err(SwissError::BadName);
        }
        let mut swiss = Swiss {
            name: name.to_owned(),
            rounds,
            initial_colour: Colour::White,
            pairing_bye_halves: 2,
            players: Vec::new(),
            forbidden: Vec::new(),
        };
        for &(n, r) in players {
            check_player(n, r)?;
            swiss.players.push(Player {
                id: swiss.players.len() as PlayerId + 1,
                name: n.to_owned(),
                rating: r,
                history: Vec::new(),
                withdrawn: false,
            });
        }
        Ok(swiss)
    }

    /// Checks what the public fields cannot enforce by themselves: players numbered 1, 2, … in order, every
    /// history as long as the others and no longer than the rounds, both sides of every game agreeing (opponent,
    /// colours, results), forbidden pairs naming players. [`crate::dutch::pair`] runs it first.
    pub fn validate(&self) -> Result<(), SwissError> {
        let n = self.players.len();
        let rounds = self.rounds_played() as usize;
        if self.rounds == 0 || rounds > self.rounds as usize {
            return Err(SwissError::Inconsistent);
        }
        for (i, p) in self.players.iter().enumerate() {
            if p.id as usize != i + 1 || p.history.len() != rounds {
                return Err(SwissError::Inconsistent);
            }
        }
        for p in &self.players {
            for (r, e) in p.history.iter().enumerate() {
                let RoundEntry::Game {
                    opponent,
                    colour,
                    outcome,
                    kind,
                } = *e
                else {
                    continue;
                };
                if opponent == 0 || opponent as usize > n || opponent == p.id {
                    return Err(SwissError::Inconsistent);
                }
                let agrees = match self.players[opponent as usize - 1].history[r] {
                    RoundEntry::Game {
                        opponent: o,
                        colour: c,
                        outcome: x,
                        kind: k,
                    } => {
                        let double_forfeit = kind == GameKind::Forfeit
                            && x == Outcome::Loss
                            && outcome == Outcome::Loss;
                        let no_forfeit_draw =
                            !(kind == GameKind::Forfeit && outcome == Outcome::Draw);
                        o == p.id
                            && c == colour.opposite()
                            && k == kind
                            && (x == outcome.reversed() || double_forfeit)
                            && no_forfeit_draw
                    }
                    RoundEntry::Bye(_) => false,
                };
                if !agrees {
                    return Err(SwissError::Inconsistent);
                }
            }
        }
        let known = |id: PlayerId| id >= 1 && id as usize <= n;
        if self
            .forbidden
            .iter()
            .any(|&(a, b)| !known(a) || !known(b) || a == b)
        {
            return Err(SwissError::Inconsistent);
        }
        Ok(())
    }

    /// Rounds completed so far.
    pub fn rounds_played(&self) -> u32 {
        self.players
            .iter()
            .map(|p| p.history.len() as u32)
            .max()
            .unwrap_or(0)
    }

    /// The player with this starting rank.
    pub fn player(&self, id: PlayerId) -> Result<&Player, SwissError> {
        id.checked_sub(1)
            .and_then(|i| self.players.get(i as usize))
            .ok_or(SwissError::UnknownPlayer(id))
    }

    /// Adds a late entrant: its missed rounds are recorded as `missed` (a `Zero`, `Half` or `Full` bye: "with or
    /// without points for missed rounds"). It is numbered after everyone (its pairing number is its starting rank).
    pub fn join(&mut self, name: &str, rating: u16, missed: Bye) -> Result<PlayerId, SwissError> {
        check_player(name, rating)?;
        if missed == Bye::PairingAllocated {
            return Err(SwissError::BadMissedRounds);
        }
        if self.rounds_played() >= self.rounds {
            return Err(SwissError::Finished);
        }
        let id = self.players.len() as PlayerId + 1;
        let history = vec![RoundEntry::Bye(missed); self.rounds_played() as usize];
        self.players.push(Player {
            id,
            name: name.to_owned(),
            rating,
            history,
            withdrawn: false,
        });
        Ok(id)
    }

    /// Withdraws a player: it is paired no more; its played games stay (and count for its opponents' tie-breaks).
    pub fn withdraw(&mut self, id: PlayerId) -> Result<(), SwissError> {
        self.player(id)?;
        self.players[id as usize - 1].withdrawn = true;
        Ok(())
    }

    /// Forbids a pair from meeting (a team-mates rule, family members…).
    pub fn forbid(&mut self, a: PlayerId, b: PlayerId) -> Result<(), SwissError> {
        self.player(a)?;
        self.player(b)?;
        if a == b {
            return Err(SwissError::Duplicate(a));
        }
        let pair = (a.min(b), a.max(b));
        if !self.forbidden.contains(&pair) {
            self.forbidden.push(pair);
        }
        Ok(())
    }

    /// A player's score in half-points.
    pub fn score_halves(&self, id: PlayerId) -> u32 {
        self.player(id)
            .map(|p| p.history.iter().map(|e| self.entry_halves(e)).sum())
            .unwrap_or(0)
    }

    /// Half-points one history entry is worth.
    pub fn entry_halves(&self, entry: &RoundEntry) -> u32 {
        match entry {
            RoundEntry::Game { outcome, .. } => match outcome {
                Outcome::Win => 2,
                Outcome::Draw => 1,
                Outcome::Loss => 0,
            },
            RoundEntry::Bye(Bye::PairingAllocated) => self.pairing_bye_halves,
            RoundEntry::Bye(Bye::Full) => 2,
            RoundEntry::Bye(Bye::Half) => 1,
            RoundEntry::Bye(Bye::Zero) => 0,
        }
    }

    /// Records a round: every board of `round` needs one result, the bye is recorded, players not in the pairing
    /// get their entry from `absent` (a `Zero`, `Half` or `Full` bye) or else a zero-point absence.
    pub fn record(
        &mut self,
        round: &Round,
        results: &[BoardResult],
        absent: &[(PlayerId, Bye)],
    ) -> Result<(), SwissError> {
        if self.rounds_played() >= self.rounds {
            return Err(SwissError::Finished);
        }
        if results.len() != round.boards.len() {
            return Err(SwissError::ResultsMismatch);
        }
        let n = self.rounds_played() as usize;
        let mut seen = HashSet::new();
        let mut entries: Vec<Option<RoundEntry>> = vec![None; self.players.len()];
        let mut put = |swiss: &Swiss, id: PlayerId, e: RoundEntry| -> Result<(), SwissError> {
            let p = swiss.player(id)?;
            if !seen.insert(id) {
                return Err(SwissError::Duplicate(id));
            }
            if p.history.len() != n {
                return Err(SwissError::ResultsMismatch);
            }
            if p.withdrawn && !matches!(e, RoundEntry::Bye(Bye::Zero)) {
                return Err(SwissError::Withdrawn(id));
            }
            entries[id as usize - 1] = Some(e);
            Ok(())
        };
        for (b, r) in round.boards.iter().zip(results) {
            let (w, kind) = match r {
                BoardResult::WhiteWins => (Outcome::Win, GameKind::Rated),
                BoardResult::Draw => (Outcome::Draw, GameKind::Rated),
                BoardResult::BlackWins => (Outcome::Loss, GameKind::Rated),
                BoardResult::WhiteWinsByForfeit => (Outcome::Win, GameKind::Forfeit),
                BoardResult::BlackWinsByForfeit => (Outcome::Loss, GameKind::Forfeit),
                BoardResult::DoubleForfeit => (Outcome::Loss, GameKind::Forfeit),
            };
            let bl = if *r == BoardResult::DoubleForfeit {
                Outcome::Loss
            } else {
                w.reversed()
            };
            put(
                self,
                b.white,
                RoundEntry::Game {
                    opponent: b.black,
                    colour: Colour::White,
                    outcome: w,
                    kind,
                },
            )?;
            put(
                self,
                b.black,
                RoundEntry::Game {
                    opponent: b.white,
                    colour: Colour::Black,
                    outcome: bl,
                    kind,
                },
            )?;
        }
        if let Some(b) = round.bye {
            put(self, b, RoundEntry::Bye(Bye::PairingAllocated))?;
        }
        for &(id, bye) in absent {
            if bye == Bye::PairingAllocated {
                return Err(SwissError::BadMissedRounds);
            }
            put(self, id, RoundEntry::Bye(bye))?;
        }
        for (i, e) in entries.into_iter().enumerate() {
            let e = e.unwrap_or(RoundEntry::Bye(Bye::Zero));
            self.players[i].history.push(e);
        }
        Ok(())
    }
}
