//! `loadgen greedy-brain` as a separate process, as the match harness runs it: a whole game over its stdin and
//! stdout against the engine at level 1, every answer a legal move, and `END` ends the process cleanly.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use engine::piskvork::{parse_move, Brain};
use rules::{Action, ForbiddenPolicy, Game, Opening, RuleSet, Rules};

#[test]
fn the_greedy_brain_plays_a_whole_legal_game_over_stdio_and_ends_on_end() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_loadgen"))
        .args(["greedy-brain", "--seed", "5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the brain");
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |line: &str| -> String {
        writeln!(to, "{line}").unwrap();
        to.flush().unwrap();
        let mut answer = String::new();
        from.read_line(&mut answer).unwrap();
        answer.trim().to_string()
    };
    // `INFO` has no answer; the next command's answer shows it was read.
    assert_eq!(ask("START 15\nINFO rule 4"), "OK");
    let rules = Rules::new(15, RuleSet::Renju, ForbiddenPolicy::Reject, Opening::None).unwrap();
    let mut game = Game::new(rules);
    let mut engine = Brain::new(1, 9);
    assert!(engine.handle("START 15").lines == ["OK"]);
    assert!(engine.handle("INFO rule 4").lines.is_empty());
    let mut to_greedy = "BEGIN".to_string();
    while !game.status().is_over() {
        let answer = ask(&to_greedy);
        let p = parse_move(&answer).unwrap_or_else(|| panic!("not a move: {answer:?}"));
        game.apply(Action::place(p))
            .unwrap_or_else(|e| panic!("the greedy brain played {answer} illegally: {e}"));
        if game.status().is_over() {
            break;
        }
        let reply = engine.handle(&format!("TURN {answer}"));
        let q = parse_move(&reply.lines[0]).expect("the engine answers a move");
        game.apply(Action::place(q)).unwrap();
        to_greedy = format!("TURN {},{}", q.x(), q.y());
    }
    // A five needs at least nine stones; under renju with `reject`, `apply` refused any forbidden black stone.
    assert!(game.ply() >= 9, "a game of {} stones", game.ply());
    // `END` has no answer: the brain exits, so its stdout ends.
    assert_eq!(ask("END"), "");
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
}
