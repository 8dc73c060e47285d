//! The TRF-16 file: columns as the FIDE format fixes them, exact round trips, typed errors.

use tournament::trf::{export, export_with_pending, import, import_with_pending, TrfErrorKind};
use tournament::{pair, BoardResult, Bye, Colour, Swiss};

/// A tournament with every kind of entry: games of every result, forfeits, all byes, a late entrant, a
/// withdrawal, a forbidden pair, black as initial colour, a half-point pairing bye.
fn eventful() -> Swiss {
    let names: Vec<String> = (1..=7).map(|i| format!("Player {i}")).collect();
    let players: Vec<(&str, u16)> = names
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), 2400 - 100 * i as u16))
        .collect();
    let mut s = Swiss::new("Eventful Open", 6, &players).unwrap();
    s.initial_colour = Colour::Black;
    s.pairing_bye_halves = 1;
    s.forbid(2, 5).unwrap();
    let results = [
        BoardResult::WhiteWins,
        BoardResult::Draw,
        BoardResult::BlackWins,
        BoardResult::WhiteWinsByForfeit,
        BoardResult::BlackWinsByForfeit,
        BoardResult::DoubleForfeit,
    ];
    for r in 0..3 {
        if r == 1 {
            s.join("Late Comer", 0, Bye::Half).unwrap();
        }
        if r == 2 {
            s.withdraw(7).unwrap();
        }
        let absent = if r == 2 { vec![3] } else { vec![] };
        let round = pair(&s, &absent).unwrap();
        let res: Vec<BoardResult> = (0..round.boards.len())
            .map(|i| results[(i + r) % results.len()])
            .collect();
        let absent_entries: Vec<(u32, Bye)> = absent.iter().map(|&a| (a, Bye::Full)).collect();
        s.record(&round, &res, &absent_entries).unwrap();
    }
    s
}

#[test]
fn an_exported_tournament_imports_back_identical_and_exports_to_the_same_text() {
    let s = eventful();
    let text = export(&s);
    let back = import(&text).unwrap();
    assert_eq!(back, s);
    assert_eq!(export(&back), text);
}

#[test]
fn pending_absences_round_trip_too() {
    let s = eventful();
    let pending = vec![(2, Bye::Half), (4, Bye::Zero)];
    let text = export_with_pending(&s, &pending);
    let (back, back_pending) = import_with_pending(&text).unwrap();
    assert_eq!((back, back_pending), (s, pending));
    assert_eq!(import(&text).unwrap_err().kind, TrfErrorKind::RaggedRounds);
}

#[test]
fn the_player_line_follows_the_trf16_columns() {
    let mut s = Swiss::new("Columns", 3, &[("Ng, Anh", 2412), ("Lee, Bo", 0)]).unwrap();
    let round = pair(&s, &[]).unwrap();
    s.record(&round, &[BoardResult::Draw], &[]).unwrap();
    let text = export(&s);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..3], ["012 Columns", "XXR 3", "XXC white1"]);
    let p1 = lines[3];
    // 1-based columns of TRF-16: 1-3 "001", 5-8 starting rank, 15-47 name, 49-52 rating, 81-84 points,
    // 86-89 rank, from 92 each round: 92-95 opponent, 97 colour, 99 result.
    assert_eq!(&p1[0..3], "001");
    assert_eq!(&p1[4..8], "   1");
    assert_eq!(&p1[14..47], format!("{:<33}", "Ng, Anh"));
    assert_eq!(&p1[48..52], "2412");
    assert_eq!(&p1[80..84], " 0.5");
    assert_eq!(&p1[85..89], "   1");
    assert_eq!(&p1[91..99], "   2 w =");
    assert_eq!(p1.len(), 99);
    assert_eq!(&lines[4][48..52], "    ", "an unrated player has no rating");
    assert_eq!(&lines[4][91..99], "   1 b =");
}

#[test]
fn comments_other_headers_and_crlf_line_ends_are_read() {
    let good = export(&eventful());
    let mut lines: Vec<String> = good.lines().map(str::to_owned).collect();
    lines.insert(1, "022 Somewhere".to_owned());
    lines.insert(1, "### a comment".to_owned());
    let text = lines.join("\r\n");
    assert_eq!(import(&text).unwrap(), eventful());
}

#[test]
fn a_blank_round_is_read_as_a_zero_point_absence() {
    let head = |id: u32, name: &str| {
        format!(
            "001 {id:>4} {:1}{:>3} {name:<33} {:>4} {:3} {:>11} {:10} {:>4} {:>4}",
            "", "", "", "", "", "", "1.0", id
        )
    };
    let text = format!(
        "012 Blank\nXXR 3\n{}            0000 - U\n{}  0000 - F  0000 - Z\n",
        head(1, "A"),
        head(2, "B")
    );
    let s = import(&text).unwrap();
    use tournament::RoundEntry::Bye as B;
    assert_eq!(
        s.players[0].history,
        vec![B(Bye::Zero), B(Bye::PairingAllocated)]
    );
    assert_eq!(s.players[1].history, vec![B(Bye::Full), B(Bye::Zero)]);
}

fn error_of(text: &str) -> (usize, TrfErrorKind) {
    let e = import(text).unwrap_err();
    (e.line, e.kind)
}

#[test]
fn broken_files_get_a_typed_error_with_the_line() {
    let good = export(&eventful());
    let lines: Vec<&str> = good.lines().collect();
    let first_player = lines.iter().position(|l| l.starts_with("001")).unwrap();
    let with = |i: usize, line: &str| -> String {
        let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        v[i] = line.to_owned();
        v.join("\n")
    };
    let p = lines[first_player];
    // An unknown result code.
    let bad_round = format!("{}X{}", &p[..98], &p[99..]);
    assert_eq!(
        error_of(&with(first_player, &bad_round)),
        (first_player + 1, TrfErrorKind::BadRound)
    );
    // A colour that disagrees with the opponent's line.
    let flipped = if &p[96..97] == "w" { "b" } else { "w" };
    let bad_colour = format!("{}{}{}", &p[..96], flipped, &p[97..]);
    assert_eq!(
        error_of(&with(first_player, &bad_colour)).1,
        TrfErrorKind::InconsistentGame
    );
    // A line cut short.
    assert_eq!(
        error_of(&with(first_player, &p[..60])),
        (first_player + 1, TrfErrorKind::BadField)
    );
    // A rating that is not a number.
    let bad_rating = format!("{}24x0{}", &p[..48], &p[52..]);
    assert_eq!(
        error_of(&with(first_player, &bad_rating)).1,
        TrfErrorKind::BadNumber
    );
    // Missing rounds count.
    let no_rounds: String = lines
        .iter()
        .filter(|l| !l.starts_with("XXR"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(error_of(&no_rounds), (0, TrfErrorKind::BadRounds));
    // A forbidden pair naming nobody.
    let xxr = lines.iter().position(|l| l.starts_with("XXR")).unwrap();
    assert_eq!(
        error_of(&with(xxr + 1, "XXP 1 99")),
        (xxr + 2, TrfErrorKind::UnknownPlayer)
    );
    // Starting ranks with a gap.
    let gap = format!("{}  9{}", &p[..5], &p[8..]);
    assert_eq!(
        error_of(&with(first_player, &gap)).1,
        TrfErrorKind::BadStartingRanks
    );
    // A round more for one player that is not an absence.
    let extra = format!("{p}     1 w 1");
    assert_eq!(
        error_of(&with(first_player, &extra)).1,
        TrfErrorKind::RaggedRounds
    );
}

/// splitmix64, for reproducible mutations.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn mutated_files_are_refused_or_read_and_never_panic_the_reader_or_the_pairing() {
    let good = export(&eventful()).into_bytes();
    let alphabet = b" 0123456789wb-=+UFHZWDLX.\n";
    let mut read = 0;
    for seed in 0..3000u64 {
        let mut state = seed;
        let mut bytes = good.clone();
        for _ in 0..1 + next(&mut state) % 4 {
            let at = (next(&mut state) % bytes.len() as u64) as usize;
            match next(&mut state) % 3 {
                0 => bytes[at] = alphabet[(next(&mut state) % alphabet.len() as u64) as usize],
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(
                    at,
                    alphabet[(next(&mut state) % alphabet.len() as u64) as usize],
                ),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(s) = import(&text) {
            read += 1;
            // Whatever was read pairs or says why not.
            let _ = pair(&s, &[]);
        }
    }
    assert!(
        read > 0,
        "some mutations (in names, points, ranks) still read"
    );
}
