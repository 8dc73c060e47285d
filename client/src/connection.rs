//! The client over a WebSocket: typed frames out, typed frames in, requests answered by id.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use protocol::{ClientMessage, DecodeError, Frame, ServerMessage};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::requests::{decode, Requests};

/// How long [`Connection`] waits for any one frame unless told otherwise.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(10);

/// What came next from the server.
// A frame lives for one match; boxing the message would only add noise.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Next {
    /// A protocol frame.
    Frame(Frame<ServerMessage>),
    /// A close frame, with its code.
    Closed(Option<u16>),
    /// The socket ended without a close frame (or failed).
    Dropped,
    /// Nothing within the connection's wait.
    Silent,
    /// A binary frame (the protocol has none).
    Binary(Vec<u8>),
    /// A text frame that is not a server message.
    Undecodable {
        /// The frame.
        text: String,
        /// Why it does not decode.
        error: DecodeError,
    },
}

/// One client connection: a WebSocket, the request bookkeeping and a bound on waiting.
pub struct Connection<S = MaybeTlsStream<TcpStream>> {
    ws: WebSocketStream<S>,
    requests: Requests,
    wait: Duration,
}

impl Connection {
    /// Opens a WebSocket to `request` (a `ws://` URL, or a request with headers such as a cookie).
    pub async fn open(request: impl IntoClientRequest + Unpin) -> Result<Connection, WsError> {
        let (ws, _) = tokio_tungstenite::connect_async(request).await?;
        Ok(Connection::new(ws))
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> Connection<S> {
    /// A client on a WebSocket opened elsewhere (from a chosen source address, with small buffers, …).
    pub fn new(ws: WebSocketStream<S>) -> Connection<S> {
        Connection {
            ws,
            requests: Requests::new(),
            wait: DEFAULT_WAIT,
        }
    }

    /// The same, waiting at most `wait` for any one frame.
    pub fn with_wait(mut self, wait: Duration) -> Connection<S> {
        self.wait = wait;
        self
    }

    /// The request bookkeeping (ids, kept frames).
    pub fn requests(&mut self) -> &mut Requests {
        &mut self.requests
    }

    /// Sends a message under a fresh request id and returns the id.
    pub async fn send(&mut self, msg: &ClientMessage) -> Result<u64, WsError> {
        let (rid, text) = self.requests.encode(msg);
        self.send_text(text).await?;
        Ok(rid)
    }

    /// Sends a message under the given request id, or none.
    pub async fn send_as(&mut self, msg: &ClientMessage, rid: Option<u64>) -> Result<(), WsError> {
        self.send_text(protocol::encode(msg, rid)).await
    }

    /// Sends any text frame.
    pub async fn send_text(&mut self, text: impl Into<String>) -> Result<(), WsError> {
        self.ws.send(Message::text(text.into())).await
    }

    /// Sends a binary frame.
    pub async fn send_binary(&mut self, bytes: Vec<u8>) -> Result<(), WsError> {
        self.ws.send(Message::binary(bytes)).await
    }

    /// Sends a pong frame with this payload, whether or not a ping asked for it (the server must count only the
    /// pongs that answer its own pings; tests of its lag measurement send others).
    pub async fn send_pong(&mut self, payload: Vec<u8>) -> Result<(), WsError> {
        self.ws.send(Message::Pong(payload.into())).await
    }

    /// The next frame: a kept one first, else the next from the socket.
    pub async fn next(&mut self) -> Next {
        match self.requests.next_kept() {
            Some(frame) => Next::Frame(frame),
            None => self.next_wire().await,
        }
    }

    /// The next frame from the socket, passing over kept ones (pings and pongs are answered and skipped).
    pub async fn next_wire(&mut self) -> Next {
        loop {
            let Ok(next) = tokio::time::timeout(self.wait, self.ws.next()).await else {
                return Next::Silent;
            };
            return match next {
                Some(Ok(Message::Text(text))) => match decode(text.as_str()) {
                    Ok(frame) => Next::Frame(frame),
                    Err(error) => Next::Undecodable {
                        text: text.as_str().to_owned(),
                        error,
                    },
                },
                Some(Ok(Message::Close(frame))) => Next::Closed(frame.map(|f| u16::from(f.code))),
                Some(Ok(Message::Binary(bytes))) => Next::Binary(bytes.to_vec()),
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => Next::Dropped,
            };
        }
    }

    /// Waits for the frame that carries `rid` (perhaps already kept), keeping every other frame for later; `Err`
    /// with whatever came instead of a frame (a close, silence, …).
    pub async fn reply_to(&mut self, rid: u64) -> Result<ServerMessage, Next> {
        if let Some(reply) = self.requests.take_reply(rid) {
            return Ok(reply);
        }
        loop {
            match self.next_wire().await {
                Next::Frame(f) if f.rid == Some(rid) => return Ok(f.msg),
                Next::Frame(f) => self.requests.keep(f),
                other => return Err(other),
            }
        }
    }

    /// Sends a message under a fresh id and waits for its answer ([`Connection::reply_to`]).
    pub async fn request(&mut self, msg: &ClientMessage) -> Result<ServerMessage, Next> {
        let rid = match self.send(msg).await {
            Ok(rid) => rid,
            Err(_) => return Err(Next::Dropped),
        };
        self.reply_to(rid).await
    }

    /// Sends a close frame (the server answers with its own; read it with [`Connection::next_wire`]).
    pub async fn close(&mut self, frame: Option<CloseFrame>) -> Result<(), WsError> {
        self.ws.close(frame).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::net::TcpListener;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

    /// A WebSocket server on port 0 that sends `frames` to its one client, then closes with 1000.
    async fn serving(frames: Vec<Message>) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}/ws", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.unwrap();
            let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
            for f in frames {
                ws.send(f).await.unwrap();
            }
            let normal = CloseFrame {
                code: CloseCode::Normal,
                reason: "".into(),
            };
            let _ = ws.close(Some(normal)).await;
            while let Some(Ok(_)) = ws.next().await {}
        });
        url
    }

    #[tokio::test]
    async fn a_reply_is_found_among_other_frames_which_are_kept_in_order() {
        let url = serving(vec![
            Message::text(r#"{"t":"pong"}"#),
            Message::text(r#"{"t":"pong","rid":2}"#),
            Message::Ping(Vec::new().into()),
            Message::text(r#"{"t":"pong","rid":1}"#),
            Message::binary(vec![1, 2]),
            Message::text("not json"),
        ])
        .await;
        let mut c = Connection::open(url.as_str()).await.unwrap();
        assert!(matches!(c.reply_to(1).await, Ok(ServerMessage::Pong {})));
        assert_eq!(c.requests().kept(), 2);
        assert!(matches!(c.reply_to(2).await, Ok(ServerMessage::Pong {})));
        assert!(matches!(
            c.next().await,
            Next::Frame(Frame { rid: None, .. })
        ));
        assert!(matches!(c.next().await, Next::Binary(b) if b == [1, 2]));
        assert!(
            matches!(c.next().await, Next::Undecodable { error, .. } if error.code() == "bad_json")
        );
        assert!(matches!(c.next().await, Next::Closed(Some(1000))));
    }

    // Paused time: the wait runs out as soon as everything is idle, with no real waiting.
    #[tokio::test(start_paused = true)]
    async fn waiting_for_an_answer_that_never_comes_ends_in_silence_or_the_close() {
        let url = serving(vec![Message::text(r#"{"t":"pong","rid":5}"#)]).await;
        let mut c = Connection::open(url.as_str()).await.unwrap();
        assert!(matches!(c.reply_to(9).await, Err(Next::Closed(Some(1000)))));
        assert_eq!(c.requests().kept(), 1, "the other answer is kept");

        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}/ws", listener.local_addr().unwrap());
        let (ready, silent) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.unwrap();
            let _ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
            let _ = silent.await;
        });
        let mut c = Connection::open(url.as_str()).await.unwrap();
        assert!(matches!(c.reply_to(1).await, Err(Next::Silent)));
        drop(ready);
    }
}
