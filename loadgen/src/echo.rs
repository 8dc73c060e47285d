//! The baseline: a minimal tokio-tungstenite echo server, and a driver that loads it with the same connection
//! pattern as a game run (pairs taking turns with a think time, idle extra connections in place of spectators),
//! so a report can state the game server's throughput as a share of what raw WebSockets do on this machine.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::net::TcpListener;
use tokio::time::sleep_until;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;

use crate::conn::{self, Ws};
use crate::session::Ctx;
use crate::stats::Audience;

/// Serves echo WebSockets on `listener` until the process ends, with `buffer`-byte read buffers (the game
/// server's default is 4 KiB; tungstenite's own default is 128 KiB).
pub async fn serve(listener: TcpListener, buffer: usize) -> anyhow::Result<()> {
    loop {
        let (stream, _) = listener.accept().await?;
        tokio::spawn(async move {
            let _ = stream.set_nodelay(true);
            let config = WebSocketConfig::default()
                .read_buffer_size(buffer)
                .write_buffer_size(0);
            let Ok(mut ws) =
                tokio_tungstenite::accept_async_with_config(stream, Some(config)).await
            else {
                return;
            };
            while let Some(Ok(msg)) = ws.next().await {
                let echo = match msg {
                    Message::Text(_) | Message::Binary(_) => msg,
                    Message::Close(_) => return,
                    _ => continue,
                };
                if ws.send(echo).await.is_err() {
                    return;
                }
            }
        });
    }
}

/// A frame the size of a game server's `move` event, so the echo measures the same bytes.
fn payload(seq: u64) -> String {
    format!(
        r#"{{"t":"event","room":"r7xk2p","version":{seq},"event":{{"kind":"move","colour":"black","point":"h8","ply":1,"to_act":"white","phase":"place","clocks":null,"forbidden":[]}}}}"#
    )
}

/// Drives pair `g`: two connections taking turns (send, wait for the echo, hand over after the think time), plus
/// `spectators` idle connections, on the run's timeline.
pub async fn run_pair(g: usize, ctx: Arc<Ctx>) {
    let t = ctx.timeline;
    sleep_until(t.connect_at(g, ctx.args.games).into()).await;
    let per_game = 2 + ctx.args.spectators;
    let spread = ctx.args.spread();
    let mut conns: Vec<Ws> = Vec::with_capacity(per_game);
    for k in 0..per_game {
        // Several echo servers, like several nodes: each pair's connections on one of them in turn.
        let target = &ctx.targets[g % ctx.targets.len()];
        match conn::connect(target, conn::source_ip(g * per_game + k, spread)).await {
            Ok(ws) => {
                ctx.rec.connected();
                conns.push(ws);
            }
            Err(_) => ctx.rec.error("connect_failed"),
        }
    }
    if conns.len() >= 2 {
        let mut rng = StdRng::seed_from_u64(ctx.args.seed ^ g as u64);
        let think = Duration::from_millis(ctx.args.think_ms);
        let mut next = t.seated + think.mul_f64(rng.random_range(0.0..1.0));
        let mut seq = 0u64;
        while next < t.end {
            sleep_until(next.into()).await;
            let ws = &mut conns[(seq % 2) as usize];
            seq += 1;
            let sent = Instant::now();
            if ws.send(Message::text(payload(seq))).await.is_err() {
                ctx.rec.error("connection_lost");
                break;
            }
            match ws.next().await {
                Some(Ok(Message::Text(_))) => {
                    ctx.rec.latency(Audience::Opponent, sent.elapsed());
                    ctx.rec.moved();
                }
                _ => {
                    ctx.rec.error("connection_lost");
                    break;
                }
            }
            let now = Instant::now();
            next = if think.is_zero() {
                now
            } else {
                now + think.mul_f64(rng.random_range(0.8..1.2))
            };
        }
    }
    sleep_until(t.closed.into()).await;
    for mut ws in conns {
        let _ = ws
            .send(Message::Close(Some(CloseFrame {
                code: CloseCode::Normal,
                reason: "".into(),
            })))
            .await;
        ctx.rec.disconnected();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::SocketAddr;

    async fn spawn_server(buffer: usize) -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(serve(listener, buffer));
        addr
    }

    #[tokio::test]
    async fn the_echo_server_echoes_text() {
        let addr = spawn_server(4096).await;
        let target = conn::Target::parse(&format!("ws://{addr}/")).unwrap();
        let mut ws = conn::connect(&target, None).await.unwrap();
        ws.send(Message::text(payload(3))).await.unwrap();
        let back = ws.next().await.unwrap().unwrap();
        assert_eq!(back, Message::text(payload(3)));
    }
}
