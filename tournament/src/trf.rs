//! The FIDE Tournament Report File (TRF-16, C.04 Annex 2) with the TRF(x) / JaVaFo extension lines, so an outside
//! pairing program (JaVaFo, bbpPairings) can check our pairings.
//!
//! Written lines:
//! - `012 NAME`: the event name;
//! - `XXR N`: the number of rounds (JaVaFo);
//! - `XXC white1` / `XXC black1`: the initial colour (JaVaFo);
//! - `BBU P.P`: points for the pairing-allocated bye, when not a win (bbpPairings' scoring lines);
//! - `XXP A B`: a forbidden pair (one line per pair);
//! - `XXW A`: our own extension: player A has withdrawn (TRF-16 has no field for it);
//! - `001 …`: one line per player, TRF-16 columns: starting rank (5–8), name (15–47), rating (49–52),
//!   points (81–84), rank (86–89), then per round ten columns from 92: opponent (4), colour (`w`, `b`, `-`),
//!   result (`1 = 0` played, `W D L` unrated, `+ -` forfeit, `U` pairing-allocated bye, `F H Z` full, half,
//!   zero-point bye).
//!
//! `export` then `import` gives back the same tournament, and `import` then `export` gives back the same text,
//! for every file `export` writes. Other files are read as far as they describe a tournament: a blank round is a
//! zero-point absence (`Z`), other header lines are ignored. Points and ranks on the `001` lines are recomputed,
//! not read.

use crate::score::Outcome;
use crate::swiss::{
    Bye, Colour, GameKind, Player, PlayerId, RoundEntry, Swiss, MAX_NAME_CHARS, MAX_RATING,
};
use crate::tiebreak::{standings_of, TieBreak};
use std::fmt;
use std::fmt::Write as _;

/// Why a TRF text was refused: the line (1-based) and a reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrfError {
    /// The line of the text, 1-based (0 for the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub kind: TrfErrorKind,
}

/// What is wrong in a TRF text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrfErrorKind {
    /// A field is not a number where one is needed.
    BadNumber,
    /// A round field is not `NNNN c r` with a known colour and result.
    BadRound,
    /// Starting ranks are not 1, 2, … n.
    BadStartingRanks,
    /// Players have different numbers of rounds.
    RaggedRounds,
    /// A game's two sides do not agree (opponent, colours or results).
    InconsistentGame,
    /// An unknown player number.
    UnknownPlayer,
    /// A name longer than 33 characters, or a line too short for its fields.
    BadField,
    /// No `XXR` line, or rounds fewer than played.
    BadRounds,
}

impl TrfErrorKind {
    /// A stable code string.
    pub fn code(&self) -> &'static str {
        match self {
            TrfErrorKind::BadNumber => "bad_number",
            TrfErrorKind::BadRound => "bad_round",
            TrfErrorKind::BadStartingRanks => "bad_starting_ranks",
            TrfErrorKind::RaggedRounds => "ragged_rounds",
            TrfErrorKind::InconsistentGame => "inconsistent_game",
            TrfErrorKind::UnknownPlayer => "unknown_player",
            TrfErrorKind::BadField => "bad_field",
            TrfErrorKind::BadRounds => "bad_rounds",
        }
    }
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind.code())
    }
}

impl std::error::Error for TrfError {}

fn halves_text(h: u32) -> String {
    format!("{}.{}", h / 2, if h % 2 == 1 { 5 } else { 0 })
}

/// Writes the tournament as TRF text (lines end with `\n`).
pub fn export(swiss: &Swiss) -> String {
    export_with_pending(swiss, &[])
}

/// Writes the tournament with the players already known to miss the next round (their `Z`, `H` or `F` entry
/// one round beyond the others, as JaVaFo and bbpPairings read it before pairing that round).
pub fn export_with_pending(swiss: &Swiss, pending: &[(PlayerId, Bye)]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "012 {}", swiss.name);
    let _ = writeln!(out, "XXR {}", swiss.rounds);
    let _ = writeln!(
        out,
        "XXC {}",
        if swiss.initial_colour == Colour::White {
            "white1"
        } else {
            "black1"
        }
    );
    if swiss.pairing_bye_halves != 2 {
        let _ = writeln!(out, "BBU {}", halves_text(swiss.pairing_bye_halves));
    }
    for (a, b) in &swiss.forbidden {
        let _ = writeln!(out, "XXP {a} {b}");
    }
    for p in swiss.players.iter().filter(|p| p.withdrawn) {
        let _ = writeln!(out, "XXW {}", p.id);
    }
    // An inconsistent tournament has no meaningful ranks: they are written as 0.
    let order = [
        TieBreak::BuchholzCut1,
        TieBreak::Buchholz,
        TieBreak::SonnebornBerger,
    ];
    let table = if swiss.validate().is_ok() {
        standings_of(swiss, &order)
    } else {
        Vec::new()
    };
    let mut rank = vec![0u32; swiss.players.len()];
    for s in &table {
        rank[s.id as usize - 1] = s.place;
    }
    let score = |p: &Player| -> u32 { p.history.iter().map(|e| swiss.entry_halves(e)).sum() };
    for p in &swiss.players {
        let rating = if p.rating == 0 {
            String::new()
        } else {
            p.rating.to_string()
        };
        let mut line = format!(
            "001 {:>4} {:1}{:>3} {:<33} {:>4} {:3} {:>11} {:10} {:>4} {:>4}",
            p.id,
            "",
            "",
            p.name,
            rating,
            "",
            "",
            "",
            halves_text(score(p)),
            rank[p.id as usize - 1]
        );
        for e in &p.history {
            line.push_str("  ");
            line.push_str(&round_text(e));
        }
        if let Some((_, bye)) = pending.iter().find(|(id, _)| *id == p.id) {
            line.push_str("  ");
            line.push_str(&round_text(&RoundEntry::Bye(*bye)));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn round_text(e: &RoundEntry) -> String {
    match *e {
        RoundEntry::Game {
            opponent,
            colour,
            outcome,
            kind,
        } => {
            let c = if colour == Colour::White { 'w' } else { 'b' };
            let r = match (kind, outcome) {
                (GameKind::Rated, Outcome::Win) => '1',
                (GameKind::Rated, Outcome::Draw) => '=',
                (GameKind::Rated, Outcome::Loss) => '0',
                (GameKind::Unrated, Outcome::Win) => 'W',
                (GameKind::Unrated, Outcome::Draw) => 'D',
                (GameKind::Unrated, Outcome::Loss) => 'L',
                (GameKind::Forfeit, Outcome::Win) => '+',
                // A forfeit is never drawn; `record` cannot make one.
                (GameKind::Forfeit, _) => '-',
            };
            format!("{opponent:>4} {c} {r}")
        }
        RoundEntry::Bye(b) => {
            let r = match b {
                Bye::PairingAllocated => 'U',
                Bye::Full => 'F',
                Bye::Half => 'H',
                Bye::Zero => 'Z',
            };
            format!("0000 - {r}")
        }
    }
}

fn err(line: usize, kind: TrfErrorKind) -> TrfError {
    TrfError { line, kind }
}

fn parse_halves(text: &str, line: usize) -> Result<u32, TrfError> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, "0"));
    let w: u32 = whole
        .trim()
        .parse()
        .map_err(|_| err(line, TrfErrorKind::BadNumber))?;
    let half = match frac.trim() {
        "0" | "" => 0,
        "5" => 1,
        _ => return Err(err(line, TrfErrorKind::BadNumber)),
    };
    w.checked_mul(2)
        .and_then(|x| x.checked_add(half))
        .ok_or(err(line, TrfErrorKind::BadNumber))
}

/// Reads a TRF text of a tournament between rounds (every player with the same number of rounds).
pub fn import(text: &str) -> Result<Swiss, TrfError> {
    let (swiss, pending) = import_with_pending(text)?;
    if !pending.is_empty() {
        return Err(err(0, TrfErrorKind::RaggedRounds));
    }
    Ok(swiss)
}

/// Reads a TRF text in which some players may have one round more than the others: a `Z`, `H` or `F` entry
/// declaring them absent from the round about to be paired. Those entries are returned apart.
pub fn import_with_pending(text: &str) -> Result<(Swiss, Vec<(PlayerId, Bye)>), TrfError> {
    let mut swiss = Swiss {
        name: String::new(),
        rounds: 0,
        initial_colour: Colour::White,
        pairing_bye_halves: 2,
        players: Vec::new(),
        forbidden: Vec::new(),
    };
    let mut withdrawn = Vec::new();
    let mut forbidden_lines = Vec::new();
    let mut player_lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let line = raw.trim_end_matches('\r');
        let (tag, rest) = (line.get(..3).unwrap_or(line), line.get(4..).unwrap_or(""));
        match tag {
            "012" => swiss.name = rest.to_owned(),
            "XXR" => {
                swiss.rounds = rest
                    .trim()
                    .parse()
                    .map_err(|_| err(ln, TrfErrorKind::BadNumber))?
            }
            "XXC" => {
                swiss.initial_colour = match rest.trim() {
                    "white1" => Colour::White,
                    "black1" => Colour::Black,
                    _ => return Err(err(ln, TrfErrorKind::BadField)),
                }
            }
            "BBU" => swiss.pairing_bye_halves = parse_halves(rest.trim(), ln)?,
            "XXP" => {
                let ids: Vec<&str> = rest.split_whitespace().collect();
                let [a, b] = ids.as_slice() else {
                    return Err(err(ln, TrfErrorKind::BadField));
                };
                let a: PlayerId = a.parse().map_err(|_| err(ln, TrfErrorKind::BadNumber))?;
                let b: PlayerId = b.parse().map_err(|_| err(ln, TrfErrorKind::BadNumber))?;
                forbidden_lines.push((ln, a, b));
            }
            "XXW" => {
                let a: PlayerId = rest
                    .trim()
                    .parse()
                    .map_err(|_| err(ln, TrfErrorKind::BadNumber))?;
                withdrawn.push((ln, a));
            }
            "001" => player_lines.push((ln, parse_player(line, ln)?)),
            _ => {}
        }
    }
    player_lines.sort_by_key(|(_, p)| p.id);
    for (k, (ln, p)) in player_lines.iter().enumerate() {
        if p.id as usize != k + 1 {
            return Err(err(*ln, TrfErrorKind::BadStartingRanks));
        }
    }
    let rounds_played = player_lines
        .iter()
        .map(|(_, p)| p.history.len())
        .min()
        .unwrap_or(0);
    let mut pending = Vec::new();
    for (ln, p) in player_lines.iter_mut() {
        if p.history.len() == rounds_played + 1 {
            match p.history.pop() {
                Some(RoundEntry::Bye(b)) if b != Bye::PairingAllocated => pending.push((p.id, b)),
                _ => return Err(err(*ln, TrfErrorKind::RaggedRounds)),
            }
        } else if p.history.len() != rounds_played {
            return Err(err(*ln, TrfErrorKind::RaggedRounds));
        }
    }
    if swiss.rounds == 0
        || (swiss.rounds as usize) < rounds_played + usize::from(!pending.is_empty())
    {
        return Err(err(0, TrfErrorKind::BadRounds));
    }
    swiss.players = player_lines.iter().map(|(_, p)| p.clone()).collect();
    let n = swiss.players.len() as PlayerId;
    // Both sides of every game must agree.
    for (ln, p) in &player_lines {
        for (r, e) in p.history.iter().enumerate() {
            if let RoundEntry::Game {
                opponent,
                colour,
                outcome,
                kind,
            } = *e
            {
                if opponent == 0 || opponent > n || opponent == p.id {
                    return Err(err(*ln, TrfErrorKind::UnknownPlayer));
                }
                let other = swiss.players[opponent as usize - 1].history[r];
                let agrees = match other {
                    RoundEntry::Game {
                        opponent: o2,
                        colour: c2,
                        outcome: r2,
                        kind: k2,
                    } => {
                        let result_ok = r2 == outcome.reversed()
                            || (kind == GameKind::Forfeit
                                && r2 == Outcome::Loss
                                && outcome == Outcome::Loss);
                        o2 == p.id && c2 == colour.opposite() && k2 == kind && result_ok
                    }
                    RoundEntry::Bye(_) => false,
                };
                if !agrees {
                    return Err(err(*ln, TrfErrorKind::InconsistentGame));
                }
            }
        }
    }
    for (ln, a, b) in forbidden_lines {
        if a == 0 || b == 0 || a > n || b > n || a == b {
            return Err(err(ln, TrfErrorKind::UnknownPlayer));
        }
        swiss.forbidden.push((a.min(b), a.max(b)));
    }
    for (ln, a) in withdrawn {
        if a == 0 || a > n {
            return Err(err(ln, TrfErrorKind::UnknownPlayer));
        }
        swiss.players[a as usize - 1].withdrawn = true;
    }
    // Whatever the checks above let through, the tournament must be one `pair` accepts.
    if swiss.validate().is_err() {
        return Err(err(0, TrfErrorKind::InconsistentGame));
    }
    Ok((swiss, pending))
}

fn parse_player(line: &str, ln: usize) -> Result<Player, TrfError> {
    let chars: Vec<char> = line.chars().collect();
    let field = |from: usize, to: usize| -> String {
        chars
            .get(from.min(chars.len())..to.min(chars.len()))
            .map(|c| c.iter().collect())
            .unwrap_or_default()
    };
    if chars.len() < 89 {
        return Err(err(ln, TrfErrorKind::BadField));
    }
    let id: PlayerId = field(4, 8)
        .trim()
        .parse()
        .map_err(|_| err(ln, TrfErrorKind::BadNumber))?;
    let name = field(14, 47).trim_end().to_owned();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(err(ln, TrfErrorKind::BadField));
    }
    let rating_text = field(48, 52);
    let rating: u16 = if rating_text.trim().is_empty() {
        0
    } else {
        rating_text
            .trim()
            .parse()
            .map_err(|_| err(ln, TrfErrorKind::BadNumber))?
    };
    if rating > MAX_RATING {
        return Err(err(ln, TrfErrorKind::BadNumber));
    }
    let mut history = Vec::new();
    let mut at = 91;
    while at < chars.len() {
        let cell = field(at, at + 8);
        if cell.trim().is_empty() {
            history.push(RoundEntry::Bye(Bye::Zero));
        } else {
            history.push(parse_round(&cell, ln)?);
        }
        at += 10;
    }
    Ok(Player {
        id,
        name,
        rating,
        history,
        withdrawn: false,
    })
}

fn parse_round(cell: &str, ln: usize) -> Result<RoundEntry, TrfError> {
    let c: Vec<char> = cell.chars().collect();
    if c.len() != 8 || c[4] != ' ' || c[6] != ' ' {
        return Err(err(ln, TrfErrorKind::BadRound));
    }
    let opp_text: String = c[..4].iter().collect();
    let opp: PlayerId = opp_text
        .trim()
        .parse()
        .map_err(|_| err(ln, TrfErrorKind::BadRound))?;
    let (colour, result) = (c[5], c[7]);
    if opp == 0 || colour == '-' {
        let bye = match result {
            'U' => Bye::PairingAllocated,
            'F' | '+' => Bye::Full,
            'H' | '=' => Bye::Half,
            'Z' | '-' | '0' | ' ' => Bye::Zero,
            _ => return Err(err(ln, TrfErrorKind::BadRound)),
        };
        return Ok(RoundEntry::Bye(bye));
    }
    let colour = match colour {
        'w' => Colour::White,
        'b' => Colour::Black,
        _ => return Err(err(ln, TrfErrorKind::BadRound)),
    };
    let (kind, outcome) = match result {
        '1' => (GameKind::Rated, Outcome::Win),
        '=' => (GameKind::Rated, Outcome::Draw),
        '0' => (GameKind::Rated, Outcome::Loss),
        'W' => (GameKind::Unrated, Outcome::Win),
        'D' => (GameKind::Unrated, Outcome::Draw),
        'L' => (GameKind::Unrated, Outcome::Loss),
        '+' => (GameKind::Forfeit, Outcome::Win),
        '-' => (GameKind::Forfeit, Outcome::Loss),
        _ => return Err(err(ln, TrfErrorKind::BadRound)),
    };
    Ok(RoundEntry::Game {
        opponent: opp,
        colour,
        outcome,
        kind,
    })
}
