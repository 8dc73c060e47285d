//! Round robins against the FIDE Berger tables (C.05 Annex 1; `tests/tournament/data/berger.txt`) and their properties.

use std::collections::{BTreeMap, HashSet};
use tournament::berger::{double_round_robin, round_robin, BergerError, Pairing, MAX_PLAYERS};

fn fide_tables() -> BTreeMap<u32, Vec<Vec<Pairing>>> {
    let mut tables = BTreeMap::new();
    let mut current = 0;
    for line in include_str!("data/berger.txt").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(n) = line.strip_prefix("n ") {
            current = n.parse().unwrap();
            tables.insert(current, Vec::new());
            continue;
        }
        let round = line
            .split_whitespace()
            .map(|g| {
                let (w, b) = g.split_once('-').unwrap();
                Pairing {
                    white: w.parse().unwrap(),
                    black: b.parse().unwrap(),
                }
            })
            .collect();
        tables.get_mut(&current).unwrap().push(round);
    }
    tables
}

#[test]
fn even_fields_of_4_to_14_reproduce_the_fide_tables_board_for_board() {
    for (n, table) in fide_tables() {
        let ours = round_robin(n).unwrap();
        let games: Vec<Vec<Pairing>> = ours.iter().map(|r| r.games.clone()).collect();
        assert_eq!(games, table, "{n} players");
        assert!(ours.iter().all(|r| r.bye.is_none()));
    }
}

#[test]
fn odd_fields_use_the_next_table_with_the_highest_number_as_the_bye() {
    for (n, table) in fide_tables() {
        let ours = round_robin(n - 1).unwrap();
        assert_eq!(ours.len(), table.len());
        for (r, (round, fide)) in ours.iter().zip(&table).enumerate() {
            let expected: Vec<Pairing> = fide
                .iter()
                .copied()
                .filter(|g| g.white != n && g.black != n)
                .collect();
            assert_eq!(round.games, expected, "{} players, round {}", n - 1, r + 1);
            let bye = fide
                .iter()
                .find(|g| g.white == n || g.black == n)
                .map(|g| g.white + g.black - n);
            assert_eq!(round.bye, bye);
        }
    }
}

#[test]
fn every_field_of_3_to_16_meets_everyone_once_with_colours_balanced() {
    for n in 3..=16u32 {
        let rounds = round_robin(n).unwrap();
        let mut met = HashSet::new();
        let mut whites = vec![0i32; n as usize + 1];
        for r in &rounds {
            let mut seen = HashSet::new();
            for g in &r.games {
                assert!(
                    seen.insert(g.white) && seen.insert(g.black),
                    "{n}: a player twice in a round"
                );
                assert!(
                    met.insert((g.white.min(g.black), g.white.max(g.black))),
                    "{n}: a pair twice"
                );
                whites[g.white as usize] += 1;
                whites[g.black as usize] -= 1;
            }
            assert!(r.bye.is_none_or(|b| !seen.contains(&b)));
        }
        assert_eq!(met.len() as u32, n * (n - 1) / 2, "{n}: every pair meets");
        assert!(
            whites[1..].iter().all(|d| d.abs() <= 1),
            "{n}: colours within one: {whites:?}"
        );
    }
}

#[test]
fn a_double_round_robin_meets_everyone_twice_with_both_colours() {
    for n in 3..=16u32 {
        let rounds = double_round_robin(n).unwrap();
        let single = round_robin(n).unwrap();
        assert_eq!(rounds.len(), 2 * single.len());
        let mut games = HashSet::new();
        for r in &rounds {
            for g in &r.games {
                assert!(
                    games.insert((g.white, g.black)),
                    "{n}: the same colours twice for {g:?}"
                );
            }
        }
        assert_eq!(games.len() as u32, n * (n - 1));
        // The first cycle is the table with its last two rounds swapped, the second the same reversed.
        let m = single.len();
        if m >= 2 {
            assert_eq!(rounds[m - 1], single[m - 2]);
            assert_eq!(rounds[m - 2], single[m - 1]);
        }
        // Nobody plays four games in a row with one colour (the swap breaks the runs at the seam; a bye breaks a
        // run too).
        for p in 1..=n {
            let colours: Vec<Option<bool>> = rounds
                .iter()
                .map(|r| {
                    r.games
                        .iter()
                        .find(|g| g.white == p || g.black == p)
                        .map(|g| g.white == p)
                })
                .collect();
            let four = colours
                .windows(4)
                .any(|w| w[0].is_some() && w.iter().all(|c| *c == w[0]));
            assert!(
                !four,
                "{n} players: player {p} has four in a row: {colours:?}"
            );
        }
    }
}

#[test]
fn fields_outside_the_limits_are_refused() {
    assert_eq!(round_robin(1), Err(BergerError::TooFewPlayers));
    assert_eq!(round_robin(0), Err(BergerError::TooFewPlayers));
    assert!(round_robin(2).is_ok());
    assert!(round_robin(MAX_PLAYERS).is_ok());
    assert_eq!(
        round_robin(MAX_PLAYERS + 1),
        Err(BergerError::TooManyPlayers)
    );
}
