//! The writer of one connection: drains the bounded outbox into the socket, pings, and closes with a code.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message};
use futures_util::{Sink, SinkExt};
use protocol::{code, encode, ServerMessage};
use tokio::sync::{mpsc, oneshot, Notify};

use super::outbox::Out;

/// Close code for policy violations (abuse).
pub(super) const CLOSE_POLICY: u16 = 1008;
/// Close code when the server goes away.
pub(super) const CLOSE_GOING_AWAY: u16 = 1001;
/// Close code when the server is full.
pub(super) const CLOSE_TRY_LATER: u16 = 1013;
/// How long a close frame may take to go out before the socket is simply dropped.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// Sends what the outbox holds until it closes, the client is kicked (too far behind) or a send fails, with a ping
/// every `ping_every`; dropping `_done` on the way out tells the reader to stop.
pub(super) async fn write<S>(
    mut sink: S,
    mut rx: mpsc::Receiver<Out>,
    kick: Arc<Notify>,
    ping_every: Duration,
    stamp: super::lag::Stamp,
    _done: oneshot::Sender<()>,
) where
    S: Sink<Message> + Unpin,
{
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
    // One kick waiter for the whole connection, polled by both selects below: a fresh `notified()` per select
    // would join and leave the Notify's waiter list (a mutex each time) twice for every frame sent. A kick that
    // comes while this waiter is not being polled is kept in it (or as the Notify's permit before its first
    // poll), so none is lost; and it completes only once, since either select then stops the writer.
    let kicked = kick.notified();
    tokio::pin!(kicked);
    loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some(Out::Text(text)) => {
                    // A client that stopped reading blocks this send; a kick must still get through.
                    tokio::select! {
                        sent = sink.send(Message::Text(text)) => {
                            if sent.is_err() {
                                break;
                            }
                        }
                        () = &mut kicked => break,
                    }
                }
                Some(Out::Close(code, reason)) => {
                    let frame = CloseFrame { code, reason: reason.into() };
                    let _ = tokio::time::timeout(CLOSE_WAIT, sink.send(Message::Close(Some(frame)))).await;
                    break;
                }
                None => {
                    let _ = tokio::time::timeout(CLOSE_WAIT, sink.close()).await;
                    break;
                }
            },
            () = &mut kicked => {
                // Ahead of the frames it could not take, so the client learns why it is closed (and that a
                // reconnect with `since` catches it up). A socket that takes nothing gets no close frame either.
                // Encoded in one statement, so the message itself (a large enum) is not kept across the await and
                // does not make every connection's writer task larger.
                let why = encode(
                    &ServerMessage::error(
                        code::SLOW_CLIENT,
                        "this connection fell too far behind its events; reconnect to catch up",
                    ),
                    None,
                );
                let told = sink.send(Message::Text(why.into()));
                if matches!(tokio::time::timeout(CLOSE_WAIT, told).await, Ok(Ok(()))) {
                    let frame = CloseFrame { code: CLOSE_POLICY, reason: "too slow".into() };
                    let _ = tokio::time::timeout(CLOSE_WAIT, sink.send(Message::Close(Some(frame)))).await;
                }
                break;
            }
            _ = ping.tick() => {
                if sink.send(Message::Ping(stamp.payload().to_vec().into())).await.is_err() {
                    break;
                }
            }
        }
    }
    // Dropping `_done` tells the reader to stop, which drops the socket.
}

#[cfg(test)]
mod tests {
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use protocol::decode;

    use super::*;

    fn test_stamp() -> crate::ws::lag::Stamp {
        crate::ws::lag::Stamp::new(std::sync::Arc::new(crate::time::TokioClock))
    }

    /// A client that stopped reading: every send waits forever.
    struct Stuck;

    impl Sink<Message> for Stuck {
        type Error = axum::Error;

        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Pending
        }

        fn start_send(self: Pin<&mut Self>, _: Message) -> Result<(), Self::Error> {
            Ok(())
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Pending
        }

        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Pending
        }
    }

    /// A client that reads everything: keeps what was sent.
    #[derive(Default)]
    struct Sent(Vec<Message>);

    impl Sink<Message> for Sent {
        type Error = axum::Error;

        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }

        fn start_send(mut self: Pin<&mut Self>, m: Message) -> Result<(), Self::Error> {
            self.0.push(m);
            Ok(())
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }

        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
    }

    fn text(s: &str) -> Out {
        Out::Text(s.into())
    }

    // Every test here runs on tokio's paused clock: a sleep finishes only once every task is waiting, so
    // "let the writer block first" is an order, not a race, and the idle test takes no real seconds.
    #[tokio::test(start_paused = true)]
    async fn a_kick_stops_the_writer_while_a_send_is_blocked() {
        let (tx, rx) = mpsc::channel(4);
        let kick = Arc::new(Notify::new());
        let (done, _done_rx) = oneshot::channel();
        tx.send(text("a")).await.unwrap();
        let writer = tokio::spawn(write(
            Stuck,
            rx,
            kick.clone(),
            Duration::from_secs(60),
            test_stamp(),
            done,
        ));
        // The writer takes the frame and blocks in its send before the paused clock moves.
        tokio::time::sleep(Duration::from_millis(50)).await;
        kick.notify_one();
        tokio::time::timeout(Duration::from_secs(5), writer)
            .await
            .expect("the kicked writer stopped")
            .unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn a_kick_after_frames_went_out_says_slow_client_then_closes_with_1008_too_slow() {
        let (tx, rx) = mpsc::channel(4);
        let kick = Arc::new(Notify::new());
        let (done, _done_rx) = oneshot::channel();
        let mut sent = Sent::default();
        let drive = async {
            tx.send(text("a")).await.unwrap();
            tx.send(text("b")).await.unwrap();
            tokio::time::sleep(Duration::from_millis(50)).await;
            kick.notify_one();
            tx
        };
        let ((), _tx) = tokio::join!(
            write(
                &mut sent,
                rx,
                kick.clone(),
                Duration::from_secs(60),
                test_stamp(),
                done
            ),
            drive
        );
        let close = Message::Close(Some(CloseFrame {
            code: CLOSE_POLICY,
            reason: "too slow".into(),
        }));
        let [a, b, Message::Text(why), last] = &sent.0[..] else {
            panic!("{:?}", sent.0);
        };
        assert_eq!(
            (a, b, last),
            (
                &Message::Text("a".into()),
                &Message::Text("b".into()),
                &close
            )
        );
        let why = decode::<ServerMessage>(why, usize::MAX).unwrap().msg;
        assert!(
            matches!(&why, ServerMessage::Error { code, .. } if code == code::SLOW_CLIENT),
            "{why:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_kick_before_the_writer_starts_is_not_lost() {
        let (_tx, rx) = mpsc::channel(4);
        let kick = Arc::new(Notify::new());
        let (done, _done_rx) = oneshot::channel();
        kick.notify_one();
        let mut sent = Sent::default();
        write(
            &mut sent,
            rx,
            kick,
            Duration::from_secs(60),
            test_stamp(),
            done,
        )
        .await;
        assert!(
            matches!(&sent.0[..], [Message::Text(_), Message::Close(Some(f))] if f.code == CLOSE_POLICY),
            "{:?}",
            sent.0
        );
    }

    #[tokio::test(start_paused = true)]
    async fn the_writer_pings_every_ping_interval() {
        let (tx, rx) = mpsc::channel::<Out>(4);
        let kick = Arc::new(Notify::new());
        let (done, _done_rx) = oneshot::channel();
        let mut sent = Sent::default();
        let drive = async {
            tokio::time::sleep(Duration::from_millis(110)).await;
            drop(tx);
        };
        tokio::join!(
            write(
                &mut sent,
                rx,
                kick,
                Duration::from_millis(30),
                test_stamp(),
                done
            ),
            drive
        );
        let pings = sent
            .0
            .iter()
            .filter(|m| matches!(m, Message::Ping(_)))
            .count();
        // At 30, 60 and 90 ms of the 110.
        assert_eq!(pings, 3, "{:?}", sent.0);
    }
}
