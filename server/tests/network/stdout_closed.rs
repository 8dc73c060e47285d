//! The server binary keeps serving when whoever started it closes its stdout (a supervisor that reads the URL line
//! and hangs up). It once panicked on its second start-up line with `failed printing to stdout: Broken pipe`.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn health(addr: SocketAddr) -> Option<Vec<u8>> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(1)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .ok()?;
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    Some(answer)
}

#[test]
fn a_closed_stdout_does_not_stop_the_server() {
    let dir = tempfile::tempdir().unwrap();
    // A free port, so the test knows the address without reading stdout.
    let addr = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_server"))
        .arg("--bind")
        .arg(addr.to_string())
        .arg("--database-url")
        .arg(dir.path().join("s.db"))
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    // Hang up before the server has written anything.
    drop(child.stdout.take());
    let started = Instant::now();
    let mut answered = None;
    while started.elapsed() < Duration::from_secs(30) {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the server stopped with {status} once its stdout was closed");
        }
        if let Some(a) = health(addr).filter(|a| a.starts_with(b"HTTP/1.1 200")) {
            answered = Some(a);
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // Still up a moment after its start-up lines.
    std::thread::sleep(Duration::from_millis(300));
    let still = child.try_wait().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(answered.is_some(), "no answer from /api/health within 30 s");
    assert!(still.is_none(), "the server stopped: {still:?}");
}
