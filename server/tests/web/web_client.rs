//! Runs the web client's own test suites (Node, in `e2e/`) from `cargo test`, so the README's one test command
//! covers them: the unit tests of its modules, and the browser tests that drive Debian's Chromium against this
//! crate's server binary. Without Node, npm or Chromium the suites say so loudly and are skipped, except in CI
//! (`CI=true`), where their absence fails the run.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn e2e_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../e2e")
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Runs a command in `e2e/` with its output going straight to the terminal (not captured), and says whether
/// it succeeded.
fn run(program: &str, args: &[&str], env: &[(&str, &str)]) -> bool {
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(e2e_dir()).stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    match cmd.status() {
        Ok(status) => status.success(),
        Err(e) => panic!("cannot run {program}: {e}"),
    }
}

/// Whether the Node toolchain is here; outside CI its absence skips the suites with a loud message.
fn node_available() -> bool {
    let found = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
        && Command::new("npm")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            !in_ci(),
            "node and npm are required in CI for the web client's tests"
        );
        eprintln!("\n*** WEB CLIENT TESTS NOT RUN: node/npm not found (install Node.js to run them) ***\n");
    }
    found
}

#[test]
fn the_web_client_unit_tests_pass() {
    if !node_available() {
        return;
    }
    assert!(
        run("node", &["--test", "unit/"], &[]),
        "web client unit tests failed (output above)"
    );
}

#[test]
fn the_web_client_works_end_to_end_in_a_real_browser() {
    if !node_available() {
        return;
    }
    if !e2e_dir().join("node_modules/playwright-core").exists() {
        assert!(
            run("npm", &["ci", "--no-audit", "--no-fund"], &[]),
            "npm ci in e2e/ failed (output above)"
        );
    }
    // The browser tests skip loudly when Chromium is missing, and fail in CI. Two files at a time: each file
    // has its own server (its own port and database) and its own Chromium, and a file's tests wait for events,
    // never for fixed times, so the two cores are shared between them (`BROWSER_TEST_CONCURRENCY` overrides).
    let concurrency = format!(
        "--test-concurrency={}",
        std::env::var("BROWSER_TEST_CONCURRENCY").unwrap_or_else(|_| "2".into())
    );
    assert!(
        run(
            "node",
            &["--test", &concurrency, "browser/"],
            &[("SERVER_BIN", env!("CARGO_BIN_EXE_server"))]
        ),
        "web client browser tests failed (output above)"
    );
}
