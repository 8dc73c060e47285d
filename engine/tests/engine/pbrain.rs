//! The `pbrain-gomoku` binary driven as a child process over stdin and stdout, as a Gomocup manager drives it:
//! every command of the protocol, `END`, `INFO` and `STOP` while it thinks, the time plan, and `SWAP2BOARD`.
//!
//! Tests wait for lines from the process, never for fixed sleeps. `--debug` makes the brain write a `DEBUG`
//! line as each search starts: the event that says it is thinking. Time bounds are loose enough for a machine
//! several times slower than a developer's (CI shares two cores); the real figures are printed (`--nocapture`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// How long any answer may take before a test gives up on it.
const PATIENCE: Duration = Duration::from_secs(60);

struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Option<String>>,
}

impl Brain {
    fn start(level: u8) -> Brain {
        Brain::with_args(&["--level", &level.to_string(), "--debug"])
    }

    fn with_args(args: &[&str]) -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-gomoku"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the brain starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(Some(line)).is_err() {
                    return;
                }
            }
            // The end of the brain's output.
            let _ = tx.send(None);
        });
        Brain {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) -> Instant {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        Instant::now()
    }

    /// The next line, `DEBUG` included; `None` at the end of the output.
    fn next_line(&self) -> Option<String> {
        self.lines
            .recv_timeout(PATIENCE)
            .expect("the brain answers in time")
    }

    /// The next line that is not `DEBUG`.
    fn answer(&self) -> String {
        loop {
            match self.next_line() {
                Some(l) if l.starts_with("DEBUG") => continue,
                Some(l) => return l,
                None => panic!("the brain ended without answering"),
            }
        }
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.answer()
    }

    /// Waits until the brain says it is thinking.
    fn thinking(&self) {
        match self.next_line() {
            Some(l) if l.starts_with("DEBUG thinking") => {}
            Some(l) => panic!("expected the search to start, got {l:?}"),
            None => panic!("the brain ended before thinking"),
        }
    }

    /// `INFO` and the other commands without an answer: `ABOUT` right after shows what, if anything, they
    /// answered, since its own answer comes after theirs.
    fn silent(&mut self, lines: &[&str]) {
        for l in lines {
            self.send(l);
        }
        let next = self.ask("ABOUT");
        assert!(next.starts_with("name="), "{lines:?} answered {next:?}");
    }

    /// Sends a position: `BOARD`, the stones (alternating from the first, which is the brain's own when
    /// `own_first`), `DONE`, and waits for the search to start.
    fn board(&mut self, stones: &[(u8, u8)], own_first: bool) {
        self.send("BOARD");
        for (k, (x, y)) in stones.iter().enumerate() {
            let own = (k % 2 == 0) == own_first;
            self.send(&format!("{x},{y},{}", if own { 1 } else { 2 }));
        }
        self.send("DONE");
    }

    fn exit(mut self) -> ExitStatus {
        self.child.wait().unwrap()
    }
}

fn coords(answer: &str) -> (u8, u8) {
    let (x, y) = answer
        .split_once(',')
        .unwrap_or_else(|| panic!("{answer:?} is a move"));
    (
        x.trim().parse().unwrap_or_else(|_| panic!("{answer:?}")),
        y.trim().parse().unwrap_or_else(|_| panic!("{answer:?}")),
    )
}

/// A quiet middle game on 15x15 (no forced win for either side within reach), black to move: ten stones.
const MIDDLE_GAME: [(u8, u8); 10] = [
    (7, 7),
    (8, 8),
    (8, 6),
    (6, 8),
    (9, 7),
    (7, 9),
    (6, 6),
    (9, 9),
    (10, 6),
    (5, 9),
];

#[test]
fn a_game_starts_and_the_brain_answers_moves() {
    let mut b = Brain::start(2);
    assert_eq!(b.ask("START 15"), "OK");
    b.silent(&["INFO timeout_turn 1000", "INFO rule 1"]);
    let first = coords(&b.ask("BEGIN"));
    assert_eq!(first, (7, 7), "the first stone goes to the centre");
    let reply = coords(&b.ask("TURN 8,8"));
    assert!(reply != (7, 7) && reply != (8, 8));
    assert!(b.ask("ABOUT").starts_with("name="));
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn every_info_key_of_the_protocol_is_read_without_an_answer() {
    let mut b = Brain::start(1);
    // Before START too: a manager may send them either side of it.
    b.silent(&["INFO timeout_match 180000", "INFO rule 0"]);
    assert_eq!(b.ask("START 15"), "OK");
    b.silent(&[
        "INFO timeout_turn 5000",
        "INFO timeout_match 0",
        "INFO time_left 2147483647",
        "INFO time_left -20",
        "INFO max_memory 0",
        "INFO max_memory 367001600",
        "INFO game_type 1",
        "INFO rule 1",
        "INFO rule 4",
        "INFO rule 5",
        "INFO rule 0",
        "INFO evaluate 7,7",
        "INFO folder C:\\brains\\data",
        "INFO something_new 42",
    ]);
    coords(&b.ask("BEGIN"));
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn rules_the_brain_does_not_play_are_refused_at_once() {
    let mut b = Brain::start(1);
    for rule in ["2", "3", "6", "8", "9", "16"] {
        let answer = b.ask(&format!("INFO rule {rule}"));
        assert!(answer.starts_with("ERROR"), "rule {rule}: {answer:?}");
    }
    assert_eq!(b.ask("START 15"), "OK");
    assert!(b.ask("INFO rule 2").starts_with("ERROR"));
    // Without continuous games a winning line's stones (field 3) cannot come either.
    b.send("BOARD");
    assert!(b.ask("7,7,3").starts_with("ERROR"));
    b.send("8,8,2");
    coords(&b.ask("DONE"));
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn an_impossible_memory_limit_is_refused_and_a_small_one_shrinks_the_tables() {
    let mut b = Brain::start(8);
    assert_eq!(b.ask("START 15"), "OK");
    let answer = b.ask("INFO max_memory 1000");
    assert!(answer.starts_with("ERROR"), "{answer:?}");
    let limit: u64 = 32 << 20;
    let answer = b.ask(&format!("INFO max_memory {limit}"));
    assert!(answer.starts_with("MESSAGE"), "{answer:?}");
    b.silent(&["INFO timeout_turn 1500"]);
    b.board(&MIDDLE_GAME, true);
    b.thinking();
    coords(&b.answer());
    // The peak resident size of the whole process, searching, stays within the limit.
    #[cfg(target_os = "linux")]
    {
        let status = std::fs::read_to_string(format!("/proc/{}/status", b.child.id())).unwrap();
        let peak_kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM");
        println!("peak resident size under max_memory 32 MiB: {peak_kib} KiB");
        assert!(peak_kib * 1024 < limit, "{peak_kib} KiB");
    }
    b.silent(&["INFO max_memory 0"]);
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn timeout_turn_zero_means_a_move_at_once() {
    let mut b = Brain::start(8);
    assert_eq!(b.ask("START 15"), "OK");
    b.silent(&["INFO timeout_turn 0"]);
    let sent = Instant::now();
    b.board(&MIDDLE_GAME, true);
    let (x, y) = coords(&b.answer());
    let took = sent.elapsed();
    println!("timeout_turn 0: a move in {took:?}");
    assert!(!MIDDLE_GAME.contains(&(x, y)));
    // Level 8 otherwise thinks for seconds here; at once is milliseconds, with room for a slow machine.
    assert!(took < Duration::from_millis(1_500), "{took:?}");
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn a_move_is_written_well_inside_the_turn_time() {
    let mut b = Brain::start(8);
    assert_eq!(b.ask("START 15"), "OK");
    b.silent(&["INFO timeout_turn 1000", "INFO timeout_match 180000"]);
    let mut worst = Duration::ZERO;
    for own_first in [true, false] {
        b.silent(&["INFO time_left 170000"]);
        b.send("RESTART");
        assert_eq!(b.answer(), "OK");
        let stones = if own_first {
            &MIDDLE_GAME[..]
        } else {
            &MIDDLE_GAME[..9]
        };
        let sent = Instant::now();
        b.board(stones, own_first);
        coords(&b.answer());
        worst = worst.max(sent.elapsed());
    }
    println!("timeout_turn 1000: slowest move {worst:?}");
    // The plan stops the search at 800 ms; what is left covers a loaded machine.
    assert!(worst < Duration::from_millis(1_000), "{worst:?}");
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn time_left_bounds_the_move_too() {
    let mut b = Brain::start(8);
    assert_eq!(b.ask("START 15"), "OK");
    // A 15th of 9 seconds left is 600 ms, less than the turn's 30 s.
    b.silent(&[
        "INFO timeout_turn 30000",
        "INFO timeout_match 180000",
        "INFO time_left 9000",
    ]);
    let sent = Instant::now();
    b.board(&MIDDLE_GAME, true);
    coords(&b.answer());
    let took = sent.elapsed();
    println!("time_left 9000: a move in {took:?}");
    assert!(took < Duration::from_millis(600), "{took:?}");
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn book_moves_take_no_time() {
    let mut b = Brain::start(8);
    assert_eq!(b.ask("START 15"), "OK");
    b.silent(&["INFO timeout_turn 30000"]);
    let sent = Instant::now();
    assert_eq!(coords(&b.ask("BEGIN")), (7, 7));
    assert_eq!(b.ask("RESTART"), "OK");
    let reply = coords(&b.ask("TURN 3,4"));
    assert_eq!(b.ask("RESTART"), "OK");
    assert_eq!(
        coords(&b.ask("TURN 7,7")),
        (8, 8),
        "a diagonal neighbour of the centre"
    );
    let took = sent.elapsed();
    println!("book: three moves in {took:?}");
    assert_eq!(reply, (4, 5), "the diagonal neighbour towards the centre");
    assert!(took < Duration::from_secs(2), "{took:?}");
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn end_while_thinking_ends_the_process_at_once_and_writes_no_move() {
    let mut b = Brain::start(8);
    assert_eq!(b.ask("START 15"), "OK");
    // A budget that keeps the search going for seconds.
    b.silent(&["INFO timeout_turn 60000"]);
    b.board(&MIDDLE_GAME, true);
    b.thinking();
    let sent = b.send("END");
    let status = b.child.wait().unwrap();
    let took = sent.elapsed();
    println!("END while thinking: the process exited {took:?} after END");
    assert!(status.success(), "{status}");
    // The bound is 200 ms; this one holds on a machine several times slower.
    assert!(took < Duration::from_secs(2), "{took:?}");
    let mut after = Vec::new();
    while let Some(line) = b.next_line() {
        after.push(line);
    }
    assert!(after.is_empty(), "written after END: {after:?}");
}

#[test]
fn a_shorter_time_left_while_thinking_ends_the_search_with_a_move() {
    let mut b = Brain::start(8);
    assert_eq!(b.ask("START 15"), "OK");
    b.silent(&["INFO timeout_turn 60000", "INFO timeout_match 600000"]);
    b.board(&MIDDLE_GAME, true);
    b.thinking();
    // Level 8 would go on for four seconds at least; a second left in the match leaves no time to think.
    let sent = b.send("INFO time_left 1000");
    let (x, y) = coords(&b.answer());
    let took = sent.elapsed();
    println!("INFO time_left while thinking: a move {took:?} later");
    assert!(!MIDDLE_GAME.contains(&(x, y)));
    assert!(took < Duration::from_secs(2), "{took:?}");
    // The new limit holds for the next move too.
    let sent = Instant::now();
    b.send(&format!("TURN {},{}", 11, 5));
    coords(&b.answer());
    assert!(sent.elapsed() < Duration::from_secs(2));
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn stop_while_thinking_answers_the_best_move_so_far() {
    let mut b = Brain::start(8);
    assert_eq!(b.ask("START 15"), "OK");
    b.silent(&["INFO timeout_turn 60000"]);
    b.board(&MIDDLE_GAME, true);
    b.thinking();
    let sent = b.send("STOP");
    let (x, y) = coords(&b.answer());
    let took = sent.elapsed();
    println!("STOP while thinking: a move {took:?} later");
    assert!(!MIDDLE_GAME.contains(&(x, y)));
    assert!(took < Duration::from_secs(2), "{took:?}");
    // STOP outside a search has nothing to answer.
    b.silent(&["STOP", "YXSTOP"]);
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn the_brain_blocks_a_four_given_by_board() {
    let mut b = Brain::start(8);
    assert_eq!(b.ask("START 15"), "OK");
    b.silent(&["INFO timeout_turn 2000"]);
    b.send("BOARD");
    for stone in [
        "5,5,2", "0,0,1", "6,5,2", "0,14,1", "7,5,2", "14,0,1", "8,5,2", "14,14,1",
    ] {
        b.send(stone);
    }
    let answer = coords(&b.ask("DONE"));
    assert!(
        answer == (4, 5) || answer == (9, 5),
        "{answer:?} blocks the four"
    );
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn takeback_restart_and_renju_rules_are_understood() {
    let mut b = Brain::start(1);
    assert_eq!(b.ask("START 15"), "OK");
    b.silent(&["INFO rule 4"]);
    let (x, y) = coords(&b.ask("TURN 7,7"));
    assert_eq!(b.ask(&format!("TAKEBACK {x},{y}")), "OK");
    assert_eq!(b.ask("TAKEBACK 7,7"), "OK");
    assert!(
        b.ask("TAKEBACK 7,7").starts_with("ERROR"),
        "nothing left to take back"
    );
    coords(&b.ask("BEGIN"));
    assert_eq!(b.ask("RESTART"), "OK");
    coords(&b.ask("BEGIN"));
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn malformed_lines_get_an_error_and_the_brain_stays_up() {
    let mut b = Brain::start(1);
    assert!(b.ask("BEGIN").starts_with("ERROR"), "BEGIN before START");
    assert!(
        b.ask("START 30").starts_with("ERROR"),
        "30x30 is not offered"
    );
    assert!(b.ask("START fifteen").starts_with("ERROR"));
    assert!(b.ask("RECTSTART 15,19").starts_with("ERROR"));
    assert!(
        b.ask("RECTSTART 271,271").starts_with("ERROR"),
        "no wrap-around to 15"
    );
    assert_eq!(b.ask("RECTSTART 15,15"), "OK");
    assert!(b.ask("TURN 99,3").starts_with("ERROR"));
    assert!(b.ask("TURN seven").starts_with("ERROR"));
    assert!(b.ask("INFO timeout_turn soon").starts_with("ERROR"));
    assert!(b.ask("INFO timeout_turn -5").starts_with("ERROR"));
    assert!(b.ask("INFO max_memory lots").starts_with("ERROR"));
    assert!(b.ask("FROBNICATE").starts_with("UNKNOWN"));
    b.send("BOARD");
    assert!(b.ask("1,2,7").starts_with("ERROR"));
    assert!(b.ask("nonsense").starts_with("ERROR"));
    let answer = coords(&b.ask("DONE"));
    assert_eq!(answer, (7, 7));
    assert!(b.ask("TURN 7,7").starts_with("ERROR"), "occupied");
    coords(&b.ask("TURN 8,8"));
    b.send("SWAP2BOARD");
    b.send("7,7");
    assert!(
        b.ask("DONE").starts_with("ERROR"),
        "swap2 asks with 0, 3 or 5 stones"
    );
    b.send("END");
    assert!(b.exit().success());
}

/// A `SWAP2BOARD` answer's stones, or `None` for `SWAP`.
fn swap2(b: &mut Brain, stones: &[&str]) -> Option<Vec<(u8, u8)>> {
    b.send("SWAP2BOARD");
    for s in stones {
        b.send(s);
    }
    let answer = b.ask("DONE");
    if answer == "SWAP" {
        return None;
    }
    Some(answer.split(' ').map(coords).collect())
}

fn distinct_and_empty(placed: &[(u8, u8)], stones: &[&str]) {
    for (k, p) in placed.iter().enumerate() {
        assert!(p.0 < 15 && p.1 < 15, "{p:?} on the board");
        assert!(!placed[..k].contains(p), "{placed:?} distinct");
        assert!(
            !stones.contains(&format!("{},{}", p.0, p.1).as_str()),
            "{p:?} is empty"
        );
    }
}

#[test]
fn swap2_the_opener_places_three_stones() {
    let mut b = Brain::start(4);
    assert_eq!(b.ask("START 15"), "OK");
    // Level 4's node budget, not the clock, ends its searches: the same answers on any machine.
    b.silent(&["INFO timeout_turn 30000"]);
    let three = swap2(&mut b, &[]).expect("three stones, not SWAP");
    assert_eq!(three.len(), 3, "{three:?}");
    distinct_and_empty(&three, &[]);
    // The brain holds the three stones: the opponent keeps white and plays move 4, the brain plays move 5.
    let reply = coords(&b.ask("TURN 0,0"));
    assert!(!three.contains(&reply) && reply != (0, 0));
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn swap2_after_three_the_second_player_takes_the_better_colour_or_places_two() {
    let mut b = Brain::start(4);
    assert_eq!(b.ask("START 15"), "OK");
    b.silent(&["INFO timeout_turn 30000"]);
    // How deep level 4 gets within its time cap depends on the machine, and a shallow search may call these
    // positions close enough to place two; it never takes the clearly worse colour.
    // Black's two stones touch, white's is far away: black is much better; the brain does not keep white.
    let black_better = ["7,7", "0,0", "8,8"];
    if let Some(placed) = swap2(&mut b, &black_better) {
        assert_eq!(placed.len(), 2, "kept white: {placed:?}");
        distinct_and_empty(&placed, &black_better);
    }
    // White's stone is in the centre, black's two in corners: white is much better; the brain does not swap.
    let white_better = ["0,0", "7,7", "14,14"];
    let answer = swap2(&mut b, &white_better).expect("a stone or two, not SWAP");
    distinct_and_empty(&answer, &white_better);
    if let [(x, y)] = answer[..] {
        // Kept white and played move 4: the game goes on from there.
        let reply = coords(&b.ask("TURN 0,14"));
        assert!(
            reply != (x, y)
                && reply != (0, 14)
                && !white_better.contains(&format!("{},{}", reply.0, reply.1).as_str())
        );
    } else {
        assert_eq!(answer.len(), 2, "{answer:?}");
    }
    // Any three stones get one of the three answers, each legal.
    for stones in [["7,7", "8,7", "5,5"], ["7,7", "6,6", "8,9"]] {
        if let Some(placed) = swap2(&mut b, &stones) {
            assert!(matches!(placed.len(), 1 | 2), "{placed:?}");
            distinct_and_empty(&placed, &stones);
        }
    }
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn swap2_after_five_the_opener_chooses_a_colour() {
    let mut b = Brain::start(4);
    assert_eq!(b.ask("START 15"), "OK");
    // Level 4's node budget, not the clock, ends its searches: the same answers on any machine.
    b.silent(&["INFO timeout_turn 30000"]);
    // Black has an open three and white nothing near: the opener keeps black.
    assert_eq!(
        swap2(&mut b, &["7,7", "0,0", "8,8", "14,14", "6,6"]),
        None,
        "SWAP"
    );
    // White has two stones together in the centre and the move, black's three are in corners: the opener
    // takes white and plays move 6.
    let stones = ["0,0", "7,7", "14,14", "8,8", "0,14"];
    let answer = swap2(&mut b, &stones).expect("a stone, not SWAP");
    assert_eq!(answer.len(), 1, "{answer:?}");
    distinct_and_empty(&answer, &stones);
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn start_20_plays_gomocups_board_to_its_far_edge() {
    let mut b = Brain::start(4);
    b.silent(&["INFO rule 0", "INFO timeout_turn 2000"]);
    assert_eq!(b.ask("START 20"), "OK");
    let (x, y) = coords(&b.ask("BEGIN"));
    assert!(x < 20 && y < 20, "{x},{y} is on the 20x20 board");
    // The far corner is a point like any other.
    let reply = coords(&b.ask("TURN 19,19"));
    assert!(reply.0 < 20 && reply.1 < 20 && reply != (19, 19) && reply != (x, y));
    // A fresh position: the opponent's four along the last row, 15,19 to 18,19, closed at 14,19 by the brain's
    // stone: only the far corner 19,19 stops the five.
    b.send("BOARD");
    for stone in [
        "15,19,2", "14,19,1", "16,19,2", "0,2,1", "17,19,2", "2,0,1", "18,19,2", "2,2,1",
    ] {
        b.send(stone);
    }
    let answer = coords(&b.ask("DONE"));
    assert_eq!(
        answer,
        (19, 19),
        "the corner of the 20x20 board blocks the four"
    );
    assert!(b.ask("START 21").starts_with("ERROR"), "21x21 is refused");
    b.send("END");
    assert!(b.exit().success());
}

#[test]
fn renju_stays_on_15x15_for_the_brain() {
    let mut b = Brain::start(1);
    b.silent(&["INFO rule 4"]);
    assert!(b.ask("START 20").starts_with("ERROR"));
    assert_eq!(b.ask("START 15"), "OK");
    b.send("END");
    assert!(b.exit().success());
}
