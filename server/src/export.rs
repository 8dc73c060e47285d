//! Gomoku records in other programs' formats: Piskvork's `.psq` (written and read), RenLib's move text, and a
//! readable text record with headers. Pure: the HTTP layer (`http::games`) hands in what the store holds.
//!
//! A `.psq` file (Piskvork, Gomocup) is a header line `Piskvorky {W}x{H}, 11:11, 0`, one line `x,y,ms` per stone
//! in order (coordinates from 1, `x` from the left, `y` from the **top**; the milliseconds the move took), then
//! the trailer as Piskvork and the Gomocup write it: the two players' (engines') names, black's first, then `-1`.
//! Readers stop at the first line that is not a move. Our points count rows from the bottom, so row
//! `y` of a `.psq` is row `size + 1 - y` here.

use rules::Point;

/// The largest `.psq` file the import reads.
pub const MAX_PSQ_BYTES: usize = 64 * 1024;

/// A `.psq` file read back: the board and the stones in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Psq {
    /// The board's side.
    pub size: u8,
    /// The stones, black first, alternating.
    pub moves: Vec<Point>,
    /// Milliseconds each move took, as the file says (0 when it says nothing).
    pub times_ms: Vec<u64>,
}

/// Why a `.psq` file could not be read; every reason has a stable code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PsqError {
    /// Larger than [`MAX_PSQ_BYTES`].
    TooLarge,
    /// The first line is not `Piskvorky WxH, …`.
    BadHeader,
    /// The board is not square, or not 5 to 19 points wide.
    BadSize,
    /// A move line (1-based line number) lies off the board.
    OffBoard(usize),
    /// A move line repeats an occupied point.
    Occupied(usize),
}

impl PsqError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            PsqError::TooLarge => "too_large",
            PsqError::BadHeader => "bad_psq_header",
            PsqError::BadSize => "unsupported_board_size",
            PsqError::OffBoard(_) => "off_board",
            PsqError::Occupied(_) => "occupied",
        }
    }
}

impl std::fmt::Display for PsqError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PsqError::TooLarge => write!(f, "a .psq file is at most {MAX_PSQ_BYTES} bytes"),
            PsqError::BadHeader => f.write_str("the first line must be `Piskvorky WxH, …`"),
            PsqError::BadSize => f.write_str("the board must be square, 5 to 19 points wide"),
            PsqError::OffBoard(line) => write!(f, "line {line}: the move lies off the board"),
            PsqError::Occupied(line) => write!(f, "line {line}: the point is already taken"),
        }
    }
}

/// The `.psq` text of a game on a `size` board: its stones, the time each took, then the players and `-1`.
pub fn to_psq(size: u8, moves: &[Point], times_ms: &[u64], black: &str, white: &str) -> String {
    let mut out = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for (i, p) in moves.iter().enumerate() {
        let t = times_ms.get(i).copied().unwrap_or(0);
        out.push_str(&format!("{},{},{t}\n", p.x() + 1, size - p.y()));
    }
    out.push_str(&format!("{black}\n{white}\n-1\n"));
    out
}

/// The milliseconds each of a game's `stones` took, in order, for a `.psq`: what its player's clock ran, or in a
/// game without a clock the time from the action before (or from `started_at`, the game's start) to it, as the
/// players spent it. Actions that are not stones (a swap decision) count in the time of the stone after them only
/// through their own timestamps.
pub fn stone_times(started_at: i64, actions: &[store::StoredAction], stones: usize) -> Vec<u64> {
    let mut times = vec![0; stones];
    let mut previous = started_at;
    for a in actions {
        let spent = if a.remaining_ms.is_some() {
            a.used_ms
        } else {
            a.at - previous
        };
        previous = a.at;
        if let Some(ply) = a.ply.filter(|&p| p >= 1 && (p as usize) <= stones) {
            times[ply as usize - 1] = spent.max(0) as u64;
        }
    }
    times
}

/// Reads a `.psq` file: the header, then move lines until the first line that is not one.
pub fn parse_psq(text: &str) -> Result<Psq, PsqError> {
    if text.len() > MAX_PSQ_BYTES {
        return Err(PsqError::TooLarge);
    }
    let mut lines = text.lines();
    let header = lines.next().ok_or(PsqError::BadHeader)?.trim();
    let dims = header
        .strip_prefix("Piskvorky ")
        .ok_or(PsqError::BadHeader)?
        .split(',')
        .next()
        .ok_or(PsqError::BadHeader)?;
    let (w, h) = dims.trim().split_once('x').ok_or(PsqError::BadHeader)?;
    let (w, h): (u8, u8) = (
        w.parse().map_err(|_| PsqError::BadHeader)?,
        h.parse().map_err(|_| PsqError::BadHeader)?,
    );
    if w != h || !(rules::MIN_SIZE..=rules::MAX_SIZE).contains(&w) {
        return Err(PsqError::BadSize);
    }
    let size = w;
    let mut moves = Vec::new();
    let mut times_ms = Vec::new();
    let mut taken = std::collections::HashSet::new();
    for (i, line) in lines.enumerate() {
        let number = i + 2;
        let fields: Vec<&str> = line.trim().split(',').map(str::trim).collect();
        let nums: Option<Vec<i64>> = fields.iter().map(|f| f.parse().ok()).collect();
        let Some(nums) = nums.filter(|n| n.len() == 2 || n.len() == 3) else {
            break;
        };
        let (x, y) = (nums[0], nums[1]);
        if !(1..=size as i64).contains(&x) || !(1..=size as i64).contains(&y) {
            return Err(PsqError::OffBoard(number));
        }
        let point =
            Point::new((x - 1) as u8, (size as i64 - y) as u8).ok_or(PsqError::OffBoard(number))?;
        if !taken.insert(point) {
            return Err(PsqError::Occupied(number));
        }
        moves.push(point);
        times_ms.push(nums.get(2).copied().unwrap_or(0).max(0) as u64);
    }
    Ok(Psq {
        size,
        moves,
        times_ms,
    })
}

/// The move list as RenLib's text import reads it: the stones in renju notation (`h8 i9 j10 …`), one line.
pub fn to_renlib(moves: &[Point]) -> String {
    let list: Vec<String> = moves.iter().map(Point::to_string).collect();
    format!("{}\n", list.join(" "))
}

/// The day of a time in milliseconds since the Unix epoch as PGN and PDN write it: `YYYY.MM.DD` (UTC).
pub fn pgn_date_of(unix_ms: i64) -> String {
    date_of(unix_ms)[..10].replace('-', ".")
}

/// A time in milliseconds since the Unix epoch as `YYYY-MM-DD HH:MM:SS UTC`.
pub fn date_of(unix_ms: i64) -> String {
    let secs = unix_ms.div_euclid(1000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// A time control as people write it: `5+3` (minutes + seconds), `10 min + 3 x 30 s`, `none`.
pub fn time_control_text(tc: &protocol::TimeControl) -> String {
    use protocol::TimeControl as T;
    let min = |ms: u64| {
        if ms.is_multiple_of(60_000) {
            format!("{}", ms / 60_000)
        } else {
            format!("{:.1}", ms as f64 / 60_000.0)
        }
    };
    match *tc {
        T::None => "none".to_owned(),
        T::Fischer {
            base_ms,
            increment_ms,
        } => format!("{}+{}", min(base_ms), increment_ms / 1000),
        T::ByoYomi {
            base_ms,
            periods,
            period_ms,
        } => format!("{} min + {periods} x {} s", min(base_ms), period_ms / 1000),
    }
}

/// What the readable record's headers say.
#[derive(Clone, Debug, Default)]
pub struct Headers {
    /// `[Name "value"]` pairs, in order.
    pub tags: Vec<(&'static str, String)>,
}

/// The readable record: the headers, a blank line, then numbered moves (`1. h8 (3.0 s) i9 (1.2 s)`), every action
/// in its notation with the time it took.
pub fn to_readable(headers: &Headers, actions: &[(String, i64)]) -> String {
    let mut out = String::new();
    for (name, value) in &headers.tags {
        out.push_str(&format!(
            "[{name} \"{}\"]\n",
            value.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    }
    out.push('\n');
    let mut line = String::new();
    for (i, (action, used_ms)) in actions.iter().enumerate() {
        if i % 2 == 0 {
            if !line.is_empty() {
                out.push_str(line.trim_end());
                out.push('\n');
                line.clear();
            }
            line.push_str(&format!("{}. ", i / 2 + 1));
        }
        line.push_str(&format!("{action} ({:.1} s) ", *used_ms as f64 / 1000.0));
    }
    if !line.is_empty() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn a_psq_counts_rows_from_the_top_and_from_one() {
        let text = to_psq(
            15,
            &[p("h8"), p("a1"), p("o15")],
            &[1200, 0, 5],
            "ann",
            "bo",
        );
        assert_eq!(
            text,
            "Piskvorky 15x15, 11:11, 0\n8,8,1200\n1,15,0\n15,1,5\nann\nbo\n-1\n"
        );
    }

    fn action(
        seq: u32,
        ply: Option<u32>,
        used_ms: i64,
        clocked: bool,
        at: i64,
    ) -> store::StoredAction {
        store::StoredAction {
            seq,
            text: String::new(),
            ply,
            used_ms,
            remaining_ms: clocked.then_some([0, 0]),
            at,
        }
    }

    #[test]
    fn an_untimed_games_stones_take_the_time_between_actions() {
        // #37: without a clock every stone was written as 0 ms.
        let actions = [
            action(0, Some(1), 0, false, 10_500),
            action(1, Some(2), 0, false, 13_000),
            action(2, None, 0, false, 14_000),
            action(3, Some(3), 0, false, 14_250),
        ];
        assert_eq!(stone_times(10_000, &actions, 3), [500, 2_500, 250]);
    }

    #[test]
    fn a_timed_games_stones_take_what_the_clock_ran() {
        let actions = [
            action(0, Some(1), 1_200, true, 99_000),
            action(1, Some(2), 800, true, 99_500),
        ];
        assert_eq!(stone_times(0, &actions, 2), [1_200, 800]);
    }

    #[test]
    fn a_written_psq_reads_back_to_the_same_moves() {
        let moves = vec![p("h8"), p("i9"), p("g7"), p("a15")];
        let back = parse_psq(&to_psq(15, &moves, &[1, 2, 3, 4], "a", "b")).unwrap();
        assert_eq!(back.size, 15);
        assert_eq!(back.moves, moves);
        assert_eq!(back.times_ms, [1, 2, 3, 4]);
    }

    #[test]
    fn a_gomocup_psq_on_19_with_no_trailer_and_crlf_reads() {
        let psq = parse_psq("Piskvorky 19x19, 11:11, 0\r\n10,10,0\r\n11,10\r\n").unwrap();
        assert_eq!(psq.moves, [p("j10"), p("k10")]);
    }

    #[test]
    fn a_gomocup_psq_on_20x20_reads_to_its_far_corners() {
        // Piskvork counts x from the left and y from the top, both from 1: 20,1 is the top right corner (t20).
        let psq = parse_psq(
            "Piskvorky 20x20, 11:11, 0\r\n10,10,0\r\n20,1,5\r\n1,20,7\r\n20,20,9\r\n-1\r\n",
        )
        .unwrap();
        assert_eq!(psq.size, 20);
        assert_eq!(psq.moves, [p("j11"), p("t20"), p("a1"), p("t1")]);
        assert_eq!(psq.times_ms, [0, 5, 7, 9]);
        let moves = vec![p("k10"), p("t20"), p("a1")];
        let back = parse_psq(&to_psq(20, &moves, &[1, 2, 3], "a", "b")).unwrap();
        assert_eq!((back.size, back.moves), (20, moves));
    }

    #[test]
    fn bad_files_are_refused_with_their_codes() {
        let code = |t: &str| parse_psq(t).unwrap_err().code();
        assert_eq!(code(""), "bad_psq_header");
        assert_eq!(code("Gomoku 15x15\n"), "bad_psq_header");
        assert_eq!(
            code("Piskvorky 15x14, 11:11, 0\n"),
            "unsupported_board_size"
        );
        assert_eq!(
            code("Piskvorky 21x21, 11:11, 0\n"),
            "unsupported_board_size"
        );
        assert_eq!(code("Piskvorky 20x20, 11:11, 0\n21,1,0\n"), "off_board");
        assert_eq!(code("Piskvorky 15x15, 11:11, 0\n16,1,0\n"), "off_board");
        assert_eq!(code("Piskvorky 15x15, 11:11, 0\n0,1,0\n"), "off_board");
        assert_eq!(
            code("Piskvorky 15x15, 11:11, 0\n1,1,0\n1,1,0\n"),
            "occupied"
        );
    }

    #[test]
    fn the_size_limit_is_inclusive() {
        let header = "Piskvorky 15x15, 11:11, 0\n";
        let at_limit = format!("{header}{}", "x".repeat(MAX_PSQ_BYTES - header.len()));
        assert!(parse_psq(&at_limit).is_ok());
        let over = format!("{at_limit}x");
        assert_eq!(parse_psq(&over).unwrap_err(), PsqError::TooLarge);
    }

    #[test]
    fn dates_and_time_controls_read_as_people_write_them() {
        assert_eq!(date_of(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(date_of(1_795_000_000_000), "2026-11-18 11:06:40 UTC");
        let tc = protocol::TimeControl::Fischer {
            base_ms: 300_000,
            increment_ms: 3_000,
        };
        assert_eq!(time_control_text(&tc), "5+3");
        let byo = protocol::TimeControl::ByoYomi {
            base_ms: 600_000,
            periods: 3,
            period_ms: 30_000,
        };
        assert_eq!(time_control_text(&byo), "10 min + 3 x 30 s");
    }

    #[test]
    fn the_readable_record_numbers_moves_in_pairs_with_their_times() {
        let headers = Headers {
            tags: vec![("Black", "ann".into()), ("White", "bo".into())],
        };
        let text = to_readable(
            &headers,
            &[("h8".into(), 1000), ("i9".into(), 2500), ("j10".into(), 0)],
        );
        assert_eq!(
            text,
            "[Black \"ann\"]\n[White \"bo\"]\n\n1. h8 (1.0 s) i9 (2.5 s)\n2. j10 (0.0 s)\n"
        );
    }
}
