//! An event's standings and pairings as its stored rows tell them: the same replay serves `GET /api/events/{id}`
//! and rebuilds a running event after a restart, so the page and the pairing always agree.
//!
//! Swiss tournaments and round robins are replayed into a [`tournament::swiss::Swiss`] (its history: games,
//! byes, absences), so the Dutch pairing, the tie-breaks and the TRF file all read the same value; arenas add up
//! each entrant's results in the order they ended ([`tournament::arena::ArenaRecord`]).

use std::collections::HashMap;

use store::events::{Entrant, EventRecord, PairingRecord};
use tournament::arena::ArenaRecord;
use tournament::score::Outcome;
use tournament::swiss::{Board, BoardResult, Bye, PlayerId, Round, Swiss};
use tournament::tiebreak::{self, TieBreak};

/// The three kinds of event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A fixed duration; players are paired again as soon as they are free; 2/1/0, doubled on a streak.
    Arena,
    /// A fixed number of rounds paired by the FIDE Dutch system; 1/½/0.
    Swiss,
    /// Everyone meets everyone, in the Berger tables' order; 1/½/0.
    RoundRobin,
}

impl Kind {
    /// The stored and wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Arena => "arena",
            Kind::Swiss => "swiss",
            Kind::RoundRobin => "round_robin",
        }
    }

    /// The kind of a stored or wire name.
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "arena" => Some(Kind::Arena),
            "swiss" => Some(Kind::Swiss),
            "round_robin" => Some(Kind::RoundRobin),
            _ => None,
        }
    }
}

/// A pairing's stored result.
pub mod result {
    /// The first player (who moved first) won.
    pub const FIRST: &str = "first";
    /// The second player won.
    pub const SECOND: &str = "second";
    /// A draw.
    pub const DRAW: &str = "draw";
    /// The second player did not play: the first wins by forfeit.
    pub const FIRST_FORFEIT: &str = "first_forfeit";
    /// The first player did not play: the second wins by forfeit.
    pub const SECOND_FORFEIT: &str = "second_forfeit";
    /// Neither played.
    pub const DOUBLE_FORFEIT: &str = "double_forfeit";
    /// A Swiss round's pairing-allocated bye (a win's points).
    pub const BYE: &str = "bye";
    /// A round robin's round off (no points).
    pub const REST: &str = "rest";
    /// An arena game that counts for nobody (aborted, or still played when the arena ended).
    pub const VOID: &str = "void";
}

/// The Swiss tie-breaks, in the order they decide (FIDE's usual choice for open Swisses).
pub const SWISS_TIE_BREAKS: [TieBreak; 4] = [
    TieBreak::BuchholzCut1,
    TieBreak::Buchholz,
    TieBreak::SonnebornBerger,
    TieBreak::DirectEncounter,
];

/// The tie-breaks of a round robin (every player meets the same opponents, so Buchholz tells nothing).
pub const ROUND_ROBIN_TIE_BREAKS: [TieBreak; 2] =
    [TieBreak::SonnebornBerger, TieBreak::DirectEncounter];

/// The order entrants get their Swiss and Berger numbers in: those entered at the start by rating (highest
/// first), then entry; late entrants after them in the order they joined.
pub fn seeding(entrants: &[Entrant]) -> Vec<u32> {
    let mut start: Vec<&Entrant> = entrants
        .iter()
        .filter(|e| e.new.joined_round == 0)
        .collect();
    start.sort_by(|a, b| {
        b.new
            .rating
            .cmp(&a.new.rating)
            .then(a.number.cmp(&b.number))
    });
    let mut late: Vec<&Entrant> = entrants.iter().filter(|e| e.new.joined_round > 0).collect();
    late.sort_by_key(|e| (e.new.joined_round, e.number));
    start.into_iter().chain(late).map(|e| e.number).collect()
}

/// A name the TRF file takes (33 characters at most, no control characters, trimmed).
fn trf_name(name: &str) -> String {
    let clean: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(tournament::swiss::MAX_NAME_CHARS)
        .collect();
    let clean = clean.trim().to_owned();
    if clean.is_empty() {
        "player".to_owned()
    } else {
        clean
    }
}

fn trf_rating(rating: i64) -> u16 {
    rating.clamp(0, i64::from(tournament::swiss::MAX_RATING)) as u16
}

/// A Swiss (or round robin) replayed from its rows, with the map between Swiss ids and entrant numbers.
pub struct Replayed {
    /// The tournament: completed rounds only; withdrawn entrants marked.
    pub swiss: Swiss,
    /// Swiss id − 1 → entrant number.
    pub numbers: Vec<u32>,
    /// Entrant number → Swiss id.
    pub ids: HashMap<u32, PlayerId>,
    /// Rounds whose every pairing has a result.
    pub completed: u32,
    /// The highest round paired so far.
    pub paired: u32,
}

/// Whether every pairing of a round has its result.
fn round_done(pairings: &[PairingRecord], round: u32) -> bool {
    pairings
        .iter()
        .filter(|p| p.new.round == round)
        .all(|p| p.new.result.is_some())
}

fn board_result(result: &str) -> Option<BoardResult> {
    Some(match result {
        result::FIRST => BoardResult::WhiteWins,
        result::SECOND => BoardResult::BlackWins,
        result::DRAW => BoardResult::Draw,
        result::FIRST_FORFEIT => BoardResult::WhiteWinsByForfeit,
        result::SECOND_FORFEIT => BoardResult::BlackWinsByForfeit,
        result::DOUBLE_FORFEIT => BoardResult::DoubleForfeit,
        _ => return None,
    })
}

/// Replays a Swiss or round robin from its rows. Fails only on rows that contradict each other (which this
/// server never writes).
pub fn replay(
    event: &EventRecord,
    entrants: &[Entrant],
    pairings: &[PairingRecord],
) -> Result<Replayed, String> {
    let order = seeding(entrants);
    let by_number: HashMap<u32, &Entrant> = entrants.iter().map(|e| (e.number, e)).collect();
    let initial: Vec<(String, u16)> = order
        .iter()
        .filter_map(|n| by_number.get(n))
        .filter(|e| e.new.joined_round == 0)
        .map(|e| (trf_name(&e.new.name), trf_rating(e.new.rating)))
        .collect();
    let refs: Vec<(&str, u16)> = initial.iter().map(|(n, r)| (n.as_str(), *r)).collect();
    let rounds = event.new.rounds.max(1);
    let mut swiss =
        Swiss::new(&trf_name(&event.new.name), rounds, &refs).map_err(|e| e.to_string())?;
    let mut numbers: Vec<u32> = order[..initial.len()].to_vec();
    let mut late = order[initial.len()..].iter().copied().peekable();
    let paired = pairings.iter().map(|p| p.new.round).max().unwrap_or(0);
    let mut completed = 0;
    for round in 1..=paired {
        while let Some(&n) = late.peek() {
            let e = by_number[&n];
            if e.new.joined_round >= round {
                break;
            }
            swiss
                .join(&trf_name(&e.new.name), trf_rating(e.new.rating), Bye::Zero)
                .map_err(|e| e.to_string())?;
            numbers.push(n);
            late.next();
        }
        if !round_done(pairings, round) {
            break;
        }
        let ids: HashMap<u32, PlayerId> = numbers
            .iter()
            .enumerate()
            .map(|(i, &n)| (n, i as PlayerId + 1))
            .collect();
        let id = |n: u32| {
            ids.get(&n)
                .copied()
                .ok_or_else(|| format!("entrant {n} is not seeded"))
        };
        let mut boards = Vec::new();
        let mut results = Vec::new();
        let mut bye = None;
        for p in pairings.iter().filter(|p| p.new.round == round) {
            let r = p.new.result.as_deref().unwrap_or_default();
            match (p.new.second, board_result(r)) {
                (Some(second), Some(result)) => {
                    boards.push(Board {
                        white: id(p.new.first)?,
                        black: id(second)?,
                    });
                    results.push(result);
                }
                (None, _) if r == result::BYE => bye = Some(id(p.new.first)?),
                _ => {}
            }
        }
        swiss
            .record(&Round { boards, bye }, &results, &[])
            .map_err(|e| e.to_string())?;
        completed = round;
    }
    for n in late {
        let e = by_number[&n];
        if swiss
            .join(&trf_name(&e.new.name), trf_rating(e.new.rating), Bye::Zero)
            .is_ok()
        {
            numbers.push(n);
        }
    }
    let ids: HashMap<u32, PlayerId> = numbers
        .iter()
        .enumerate()
        .map(|(i, &n)| (n, i as PlayerId + 1))
        .collect();
    for (&n, &id) in &ids {
        if by_number[&n].withdrawn {
            let _ = swiss.withdraw(id);
        }
    }
    Ok(Replayed {
        swiss,
        numbers,
        ids,
        completed,
        paired,
    })
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// 1-based place (equal players share it).
    pub place: u32,
    /// The entrant.
    pub number: u32,
    /// Points (an arena's are whole; a Swiss's may end in .5).
    pub score: f64,
    /// The tie-break values, in the order of the event's kind.
    pub tie_breaks: Vec<f64>,
    /// Arena: the last two results were wins (the next win scores double).
    pub on_fire: bool,
    /// Games played (forfeits and byes aside).
    pub games: u32,
}

/// The standings of an event.
pub fn standings(
    event: &EventRecord,
    entrants: &[Entrant],
    pairings: &[PairingRecord],
) -> Result<Vec<Line>, String> {
    match Kind::parse(&event.new.kind) {
        Some(Kind::Arena) => Ok(arena_standings(entrants, pairings)),
        Some(kind) => {
            let r = replay(event, entrants, pairings)?;
            let order: &[TieBreak] = if kind == Kind::Swiss {
                &SWISS_TIE_BREAKS
            } else {
                &ROUND_ROBIN_TIE_BREAKS
            };
            let rows = tiebreak::standings(&r.swiss, order).map_err(|e| e.to_string())?;
            Ok(rows
                .into_iter()
                .map(|s| {
                    let player = &r.swiss.players[s.id as usize - 1];
                    let games = player
                        .history
                        .iter()
                        .filter(|e| {
                            matches!(e, tournament::swiss::RoundEntry::Game { kind, .. }
                                if *kind != tournament::swiss::GameKind::Forfeit)
                        })
                        .count() as u32;
                    Line {
                        place: s.place,
                        number: r.numbers[s.id as usize - 1],
                        score: s.score,
                        tie_breaks: s.tie_breaks,
                        on_fire: false,
                        games,
                    }
                })
                .collect())
        }
        None => Err(format!("unknown event kind {}", event.new.kind)),
    }
}

/// Each arena entrant's record: its results in the order its games ended (void games left out).
pub fn arena_records(pairings: &[PairingRecord]) -> HashMap<u32, ArenaRecord> {
    let mut ended: Vec<&PairingRecord> = pairings
        .iter()
        .filter(|p| p.new.result.is_some() && p.new.second.is_some())
        .collect();
    ended.sort_by_key(|p| (p.ended_at.unwrap_or(0), p.id));
    let mut records: HashMap<u32, ArenaRecord> = HashMap::new();
    for p in ended {
        let (Some(second), Some(r)) = (p.new.second, p.new.result.as_deref()) else {
            continue;
        };
        let (a, b) = match r {
            result::FIRST | result::FIRST_FORFEIT => (Outcome::Win, Outcome::Loss),
            result::SECOND | result::SECOND_FORFEIT => (Outcome::Loss, Outcome::Win),
            result::DRAW => (Outcome::Draw, Outcome::Draw),
            _ => continue,
        };
        records.entry(p.new.first).or_default().add(a);
        records.entry(second).or_default().add(b);
    }
    records
}

fn arena_standings(entrants: &[Entrant], pairings: &[PairingRecord]) -> Vec<Line> {
    let records = arena_records(pairings);
    let mut lines: Vec<(Line, i64)> = entrants
        .iter()
        .map(|e| {
            let r = records.get(&e.number);
            (
                Line {
                    place: 0,
                    number: e.number,
                    score: f64::from(r.map_or(0, ArenaRecord::score)),
                    tie_breaks: Vec::new(),
                    on_fire: r.is_some_and(ArenaRecord::on_fire),
                    games: r.map_or(0, |r| r.results().len() as u32),
                },
                e.new.rating,
            )
        })
        .collect();
    lines.sort_by(|(a, ra), (b, rb)| {
        b.score
            .total_cmp(&a.score)
            .then(rb.cmp(ra))
            .then(a.number.cmp(&b.number))
    });
    let mut out: Vec<Line> = Vec::with_capacity(lines.len());
    for (i, (mut line, _)) in lines.into_iter().enumerate() {
        line.place = match out.last() {
            Some(prev) if prev.score == line.score => prev.place,
            _ => i as u32 + 1,
        };
        out.push(line);
    }
    out
}
