//! The server's configuration: one typed struct read from CLI flags and environment variables.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand};
use ipnet::IpNet;

/// Everything the server can be told at start-up. Every flag also reads an environment variable.
#[derive(Clone, Parser)]
#[command(name = "server", version, about = "Gomoku / Renju game server")]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "BIND", default_value_t = Config::DEFAULT_BIND)]
    pub bind: SocketAddr,
    /// `sqlite://path` or `postgres://…`; default a SQLite file under `./data/`.
    #[arg(long, env = "DATABASE_URL", global = true)]
    pub database_url: Option<String>,
    /// Seconds a disconnected player keeps the seat before forfeiting.
    #[arg(long, env = "GRACE_SECS", default_value_t = 60)]
    pub grace_secs: u64,
    /// Seconds each player's first action of a clocked game may take before that player's clock starts to run
    /// (docs/rules.md, "The first move"); 0 runs the clock from the start.
    #[arg(long, env = "FIRST_MOVE_SECS", default_value_t = 30)]
    pub first_move_secs: u64,
    /// Largest accepted text frame in bytes.
    #[arg(long, env = "MAX_FRAME_BYTES", default_value_t = protocol::DEFAULT_MAX_FRAME)]
    pub max_frame_bytes: usize,
    /// Messages per second a connection may send on average.
    #[arg(long, env = "MSG_RATE", default_value_t = 20.0)]
    pub msg_rate: f64,
    /// Messages a connection may send in one burst.
    #[arg(long, env = "MSG_BURST", default_value_t = 40)]
    pub msg_burst: u32,
    /// Bad frames or rate-limit hits a connection may cause (one more every 5 s) before it is closed with 1008.
    #[arg(long, env = "ABUSE_LIMIT", default_value_t = 10)]
    pub abuse_limit: u32,
    /// Most simultaneous WebSocket connections.
    #[arg(long, env = "MAX_CONNECTIONS", default_value_t = 20_000)]
    pub max_connections: usize,
    /// Most simultaneous WebSocket connections from one IP address.
    #[arg(long, env = "MAX_CONNECTIONS_PER_IP", default_value_t = 500)]
    pub max_connections_per_ip: usize,
    /// Most simultaneous WebSocket connections of one player: an account (all its sessions together) or a guest.
    /// A few tabs; one token could otherwise hold every socket its address may (#35).
    #[arg(long, env = "MAX_CONNECTIONS_PER_PLAYER", default_value_t = 8)]
    pub max_connections_per_player: usize,
    /// Most simultaneous WebSocket connections from one address range (`--connection-range-v4-prefix`,
    /// `--connection-range-v6-prefix`), from all its addresses together.
    #[arg(long, env = "MAX_CONNECTIONS_PER_RANGE", default_value_t = 1_000)]
    pub max_connections_per_range: usize,
    /// The prefix length of an IPv4 address range for `--max-connections-per-range` (a /24).
    #[arg(long, env = "CONNECTION_RANGE_V4_PREFIX", default_value_t = 24,
          value_parser = clap::value_parser!(u8).range(8..=32))]
    pub connection_range_v4_prefix: u8,
    /// The prefix length of an IPv6 address range for `--max-connections-per-range` (a /48, a site's usual
    /// allocation; one subscriber's /64 is already one address to the per-address cap).
    #[arg(long, env = "CONNECTION_RANGE_V6_PREFIX", default_value_t = 48,
          value_parser = clap::value_parser!(u8).range(16..=64))]
    pub connection_range_v6_prefix: u8,
    /// Most open rooms one player may have created.
    #[arg(long, env = "MAX_ROOMS_PER_PLAYER", default_value_t = 5)]
    pub max_rooms_per_player: u32,
    /// Most rooms one connection may be in at once (playing or watching).
    #[arg(long, env = "MAX_ROOMS_PER_CONNECTION", default_value_t = 16)]
    pub max_rooms_per_connection: usize,
    /// Messages queued for one connection's writer before it counts as slow.
    #[arg(long, env = "OUTBOX_CAPACITY", default_value_t = 128)]
    pub outbox_capacity: usize,
    /// WebSocket read and write buffer sizes in bytes (small: tens of thousands of sockets are the goal).
    #[arg(long, env = "WS_BUFFER_BYTES", default_value_t = 4096)]
    pub ws_buffer_bytes: usize,
    /// Room events kept per room for reconnecting clients (older gaps get a snapshot; kept small because it is
    /// paid by every live room).
    #[arg(long, env = "EVENT_LOG", default_value_t = 32)]
    pub event_log: usize,
    /// Seconds a slow client may stay behind before it is disconnected.
    #[arg(long, env = "SLOW_CLIENT_SECS", default_value_t = 10)]
    pub slow_client_secs: u64,
    /// Seconds between WebSocket pings.
    #[arg(long, env = "PING_SECS", default_value_t = 30)]
    pub ping_secs: u64,
    /// Seconds of silence after which a connection is closed.
    #[arg(long, env = "IDLE_SECS", default_value_t = 120)]
    pub idle_secs: u64,
    /// Days a guest token stays valid.
    #[arg(long, env = "GUEST_SESSION_DAYS", default_value_t = 30)]
    pub guest_session_days: u64,
    /// Days a login session stays valid.
    #[arg(long, env = "SESSION_DAYS", default_value_t = 30)]
    pub session_days: u64,
    /// Mark the session cookie `Secure` (set when the site is served over HTTPS).
    #[arg(long, env = "SECURE_COOKIES")]
    pub secure_cookies: bool,
    /// Login and registration attempts one address may make in a burst.
    #[arg(long, env = "LOGIN_BURST_PER_IP", default_value_t = 20)]
    pub login_burst_per_ip: u32,
    /// Login and registration attempts one address regains per minute.
    #[arg(long, env = "LOGIN_PER_MINUTE_PER_IP", default_value_t = 10.0)]
    pub login_per_minute_per_ip: f64,
    /// Accounts one address (an IPv6 address by its /64) may register a day: that many at once, then one every
    /// 24 hours divided by it (issue #35: twenty accounts from one address farmed a booster to #1); 0 turns the
    /// limit off. Behind a reverse proxy this counts the forwarded client address (`--trusted-proxies`).
    #[arg(long, env = "REGISTRATIONS_PER_DAY_PER_IP", default_value_t = 5)]
    pub registrations_per_day_per_ip: u32,
    /// Accounts one address range (`--registration-range-v4-prefix`, `--registration-range-v6-prefix`) may
    /// register a day, from all its addresses together; 0 turns the limit off.
    #[arg(long, env = "REGISTRATIONS_PER_DAY_PER_RANGE", default_value_t = 10)]
    pub registrations_per_day_per_range: u32,
    /// The prefix length that makes an IPv4 address range for `--registrations-per-day-per-range` (a /24).
    #[arg(long, env = "REGISTRATION_RANGE_V4_PREFIX", default_value_t = 24,
          value_parser = clap::value_parser!(u8).range(8..=32))]
    pub registration_range_v4_prefix: u8,
    /// The prefix length that makes an IPv6 address range for `--registrations-per-day-per-range` (a /48, a
    /// site's usual allocation; a single subscriber's /64 is already one address to every per-address limit).
    #[arg(long, env = "REGISTRATION_RANGE_V6_PREFIX", default_value_t = 48,
          value_parser = clap::value_parser!(u8).range(16..=64))]
    pub registration_range_v6_prefix: u8,
    /// Failed logins one account name may take in a burst, from all addresses together; past it, only addresses
    /// without recent failures for the name may try (the right password always gets through from those).
    #[arg(long, env = "LOGIN_BURST_PER_ACCOUNT", default_value_t = 5)]
    pub login_burst_per_account: u32,
    /// Failed logins one account name regains per minute, from all addresses together.
    #[arg(long, env = "LOGIN_PER_MINUTE_PER_ACCOUNT", default_value_t = 3.0)]
    pub login_per_minute_per_account: f64,
    /// Memory cost of argon2id password hashes in KiB (OWASP: 19456).
    #[arg(long, env = "PASSWORD_MEMORY_KIB", default_value_t = 19_456)]
    pub password_memory_kib: u32,
    /// Password hashes computed at once (default: one per core). More wait in fair turns per address.
    #[arg(long, env = "PASSWORD_HASH_THREADS")]
    pub password_hash_threads: Option<usize>,
    /// Password hashes one address (an IPv6 address by its /64) may have running or waiting at once; more are
    /// answered 429 `rate_limited` with `Retry-After`.
    #[arg(long, env = "PASSWORD_HASHES_PER_IP", default_value_t = 2)]
    pub password_hashes_per_ip: usize,
    /// Password hashes that may wait for a place, all addresses together; more are answered 503 `server_busy`
    /// with `Retry-After`.
    #[arg(long, env = "PASSWORD_HASH_QUEUE", default_value_t = 64)]
    pub password_hash_queue: usize,
    /// Reverse proxies (addresses or CIDRs, comma-separated) whose forwarding header names the client; off by
    /// default, when every connection's own address is its client's.
    #[arg(long, env = "TRUSTED_PROXIES", value_delimiter = ',', value_parser = parse_proxy)]
    pub trusted_proxies: Vec<IpNet>,
    /// The header trusted proxies name the client in: `x-forwarded-for` or `forwarded` (RFC 7239). Only the one
    /// your proxy sets: a header it passes through untouched is the client's to forge.
    #[arg(long, env = "FORWARDED_HEADER", value_enum, default_value_t = ForwardedHeader::XForwardedFor)]
    pub forwarded_header: ForwardedHeader,
    /// Seconds a connection may take to send a request's headers, and may wait idle before its next request.
    #[arg(long, env = "HEADER_READ_SECS", default_value_t = 10)]
    pub header_read_secs: u64,
    /// Seconds an HTTP request may take, body included, before it is answered 408.
    #[arg(long, env = "REQUEST_SECS", default_value_t = 30)]
    pub request_secs: u64,
    /// Most open TCP connections (WebSockets included); more are closed as they are accepted. Lowered at start
    /// to fit under the open-file limit.
    #[arg(long, env = "MAX_TCP_CONNECTIONS", default_value_t = 20_500)]
    pub max_tcp_connections: usize,
    /// Most open TCP connections (WebSockets included) from one address (IPv6: one /64); trusted proxies are
    /// exempt, their clients are counted by the WebSocket and login limits instead.
    #[arg(long, env = "MAX_TCP_CONNECTIONS_PER_IP", default_value_t = 550)]
    pub max_tcp_connections_per_ip: usize,
    /// Seconds a WebSocket may stay open without saying `hello`.
    #[arg(long, env = "HELLO_SECS", default_value_t = 10)]
    pub hello_secs: u64,
    /// Bearer token that `GET /metrics` requires; without one (and without `--metrics-bind`) only loopback
    /// clients may read it.
    #[arg(long, env = "METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// A separate address that serves `/metrics` (and nothing else); the main address then does not serve it.
    #[arg(long, env = "METRICS_BIND")]
    pub metrics_bind: Option<SocketAddr>,
    /// Login attempts one address may make for one account name in a burst (a correct one is given back).
    #[arg(long, env = "LOGIN_BURST_PER_ADDRESS_ACCOUNT", default_value_t = 5)]
    pub login_burst_per_address_account: u32,
    /// Login attempts one address regains per minute for one account name.
    #[arg(
        long,
        env = "LOGIN_PER_MINUTE_PER_ADDRESS_ACCOUNT",
        default_value_t = 3.0
    )]
    pub login_per_minute_per_address_account: f64,
    /// New guest identities (a `hello` without a valid token) one address may make in a burst.
    #[arg(long, env = "GUEST_BURST_PER_IP", default_value_t = 20)]
    pub guest_burst_per_ip: u32,
    /// New guest identities one address regains per minute.
    #[arg(long, env = "GUESTS_PER_MINUTE_PER_IP", default_value_t = 10.0)]
    pub guests_per_minute_per_ip: f64,
    /// Minutes a new guest's token lasts until the guest joins or creates a room (from then on
    /// `GUEST_SESSION_DAYS`): a guest that never plays leaves only a short-lived row for the sweep.
    #[arg(long, env = "UNUSED_GUEST_SESSION_MINS", default_value_t = 60)]
    pub unused_guest_session_mins: u64,
    /// Stones a rated game needs on the board (both sides moved) before its result counts; one that ends sooner
    /// (resigned, drawn, flagged or left) is aborted and leaves the ratings alone.
    #[arg(long, env = "RATED_MIN_MOVES", default_value_t = 2)]
    pub rated_min_moves: u32,
    /// Rated games between the same two accounts that count in any window of `rated_repeat_window_secs`;
    /// further games between them in that window are played unrated (rating farming needs many opponents).
    #[arg(long, env = "RATED_REPEAT_LIMIT", default_value_t = 3)]
    pub rated_repeat_limit: u32,
    /// The window of `rated_repeat_limit`, in seconds.
    #[arg(long, env = "RATED_REPEAT_WINDOW_SECS", default_value_t = 86_400)]
    pub rated_repeat_window_secs: u64,
    /// Seconds an unanswered challenge stays open before it expires (both sides are told).
    #[arg(long, env = "CHALLENGE_EXPIRY_SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub challenge_expiry_secs: u64,
    /// Challenges one player may send in a burst (to anyone; refused ones do not count).
    #[arg(long, env = "CHALLENGE_BURST", default_value_t = 5)]
    pub challenge_burst: u32,
    /// Challenges one player regains per minute.
    #[arg(long, env = "CHALLENGES_PER_MINUTE", default_value_t = 6.0)]
    pub challenges_per_minute: f64,
    /// Challenges one player may receive in a burst, from all challengers together: each one is a notice on
    /// every tab the player has open.
    #[arg(long, env = "CHALLENGE_BURST_PER_RECIPIENT", default_value_t = 10)]
    pub challenge_burst_per_recipient: u32,
    /// Challenges one player regains per minute as a recipient.
    #[arg(
        long,
        env = "CHALLENGES_PER_MINUTE_PER_RECIPIENT",
        default_value_t = 10.0
    )]
    pub challenges_per_minute_per_recipient: f64,
    /// Seconds a challenger who withdrew a challenge (`cancel_challenge`, or by closing the connection) waits
    /// before challenging the same player again, as after a decline.
    #[arg(long, env = "CHALLENGE_CANCEL_COOLDOWN_SECS", default_value_t = 60)]
    pub challenge_cancel_cooldown_secs: u64,
    /// Most live rooms on the server.
    #[arg(long, env = "MAX_ROOMS", default_value_t = 20_000)]
    pub max_rooms: usize,
    /// Most rooms created from one IP address that still wait for their first game.
    #[arg(long, env = "MAX_WAITING_ROOMS_PER_IP", default_value_t = 20)]
    pub max_waiting_rooms_per_ip: u32,
    /// Seconds a room waits for its second player before it closes (its creator may still be there).
    #[arg(long, env = "WAITING_ROOM_SECS", default_value_t = 1800)]
    pub waiting_room_secs: u64,
    /// Most rooms the lobby sends (established players' first, then the newest); `total` says how many are listed.
    #[arg(long, env = "LOBBY_ROOMS", default_value_t = 100)]
    pub lobby_rooms: usize,
    /// Most rooms created from one address (IPv6: one /64) that the lobby shows; the address's other rooms stay
    /// open and joinable by link. Rooms of players established in a pool are not counted.
    #[arg(long, env = "LOBBY_ROOMS_PER_IP", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub lobby_rooms_per_ip: u32,
    /// Most rooms created from one address range (`--connection-range-v4-prefix`, `--connection-range-v6-prefix`)
    /// that the lobby shows, from all its addresses together. Rooms of players established in a pool are not
    /// counted.
    #[arg(long, env = "LOBBY_ROOMS_PER_RANGE", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub lobby_rooms_per_range: u32,
    /// Most players waiting in the quick-pairing queues at once (all presets together); more are refused with
    /// `queue_full`.
    #[arg(long, env = "MAX_QUICK_SEEKERS", default_value_t = 20_000)]
    pub max_quick_seekers: usize,
    /// Bytes of chat text a room keeps for reconnecting clients (older events then go, and a reconnect gets a
    /// snapshot instead).
    #[arg(long, env = "CHAT_LOG_BYTES", default_value_t = 4096)]
    pub chat_log_bytes: usize,
    /// Chat messages one member of a room may send in a burst.
    #[arg(long, env = "CHAT_BURST", default_value_t = 5)]
    pub chat_burst: u32,
    /// Chat messages one member of a room regains per minute.
    #[arg(long, env = "CHAT_PER_MINUTE", default_value_t = 20.0)]
    pub chat_per_minute: f64,
    /// Spectators' chat messages one room takes in a burst, from all its spectators together.
    #[arg(long, env = "SPECTATOR_CHAT_BURST", default_value_t = 10)]
    pub spectator_chat_burst: u32,
    /// Spectators' chat messages one room regains per minute.
    #[arg(long, env = "SPECTATOR_CHAT_PER_MINUTE", default_value_t = 30.0)]
    pub spectator_chat_per_minute: f64,
    /// Seconds a player of a game without a clock waits for the opponent to act before `claim_win` wins it.
    #[arg(long, env = "IDLE_CLAIM_SECS", default_value_t = 300)]
    pub idle_claim_secs: u64,
    /// Lines a room keeps of each of its chats (the players' and the spectators'), for snapshots: a reload or a
    /// late spectator reads them.
    #[arg(long, env = "CHAT_HISTORY_LINES", default_value_t = 50)]
    pub chat_history_lines: usize,
    /// Bytes of chat (names and text) a room keeps of each of its chats; the oldest lines go first.
    #[arg(long, env = "CHAT_HISTORY_BYTES", default_value_t = 8192)]
    pub chat_history_bytes: usize,
    /// Threads the computer player searches on (default: one fewer than the cores, at least one). They are
    /// threads of their own, never the runtime's.
    #[arg(long, env = "COMPUTER_THREADS")]
    pub computer_threads: Option<usize>,
    /// Searches that may wait for a free search thread; with every thread busy and every place taken, new games
    /// against the computer are refused with `computer_busy`.
    #[arg(long, env = "COMPUTER_MAX_QUEUED", default_value_t = 8)]
    pub computer_max_queued: usize,
    /// Games against the computer the server plays at once; more are refused with `computer_busy`.
    #[arg(long, env = "COMPUTER_MAX_GAMES", default_value_t = 200)]
    pub computer_max_games: usize,
    /// Computer analyses of finished games run at once (issue #33), each on a thread of its own at the lowest
    /// scheduling priority, never the computer opponent's search threads; the others wait in turn.
    #[arg(long, env = "ANALYSIS_JOBS", default_value_t = 1)]
    pub analysis_jobs: usize,
    /// Analyses that may wait for their turn; one more request is refused with `analysis_busy`.
    #[arg(long, env = "ANALYSIS_MAX_QUEUED", default_value_t = 32)]
    pub analysis_max_queued: usize,
    /// Analyses one player (an account, or a guest) may request in 24 hours; one more is `429 analysis_limit`.
    #[arg(long, env = "ANALYSIS_PER_DAY", default_value_t = 20)]
    pub analysis_per_day: u32,
    /// Milliseconds the engine thinks about each position of an analysed game.
    #[arg(long, env = "ANALYSIS_MS_PER_POSITION", default_value_t = 400)]
    pub analysis_ms_per_position: u64,
    /// Milliseconds the analysis board's engine (`POST /api/analysis/evaluate`) thinks about a posted
    /// position, at most.
    #[arg(long, env = "ANALYSIS_EVALUATE_MS", default_value_t = 1000)]
    pub analysis_evaluate_ms: u64,
    /// Positions one address may have evaluated by the analysis board's engine in a minute (a burst of as many).
    #[arg(long, env = "ANALYSIS_EVALUATES_PER_MINUTE", default_value_t = 30)]
    pub analysis_evaluates_per_minute: u32,
    /// Fair play (issue #38, `docs/fairplay.md`): milliseconds the engine thinks about each position of a rated
    /// game when its moves are compared with the engine's.
    #[arg(long, env = "FAIR_PLAY_MS_PER_POSITION", default_value_t = 50)]
    pub fair_play_ms_per_position: u64,
    /// Fair play: the level of the judging engine, 0 for its top level (a lower level searches to a fixed depth,
    /// so that its choices do not depend on the machine's speed).
    #[arg(long, env = "FAIR_PLAY_LEVEL", default_value_t = 0)]
    pub fair_play_level: u8,
    /// Fair play: rated games that may wait to be judged (one is judged at a time); the news of one more is
    /// dropped with a warning.
    #[arg(long, env = "FAIR_PLAY_MAX_QUEUED", default_value_t = 256)]
    pub fair_play_max_queued: usize,
    /// Fair play: a player's last rated games of a pool that the statistic reads.
    #[arg(long, env = "FAIR_PLAY_WINDOW", default_value_t = 20)]
    pub fair_play_window: u32,
    /// Fair play: judged moves the window must hold before a player can be flagged.
    #[arg(long, env = "FAIR_PLAY_MIN_MOVES", default_value_t = 150)]
    pub fair_play_min_moves: u32,
    /// Fair play: the largest chance, under honest play, of matching the engine as often, that flags a player.
    #[arg(long, env = "FAIR_PLAY_ALPHA", default_value_t = 1e-4)]
    pub fair_play_alpha: f64,
    /// Games against the computer (its levels and external engines together) one player (an account, or a guest)
    /// plays at once; one more is refused with `too_many_computer_games`.
    #[arg(long, env = "COMPUTER_MAX_GAMES_PER_PLAYER", default_value_t = 2)]
    pub computer_max_games_per_player: usize,
    /// Games against the computer played at once from one address (IPv6: one /64), whoever asked; one more is
    /// refused with `too_many_computer_games`.
    #[arg(long, env = "COMPUTER_MAX_GAMES_PER_IP", default_value_t = 4)]
    pub computer_max_games_per_ip: usize,
    /// A fixed seed for every game of the computer, and time caps long enough that its node budget decides
    /// (levels 1–7): the same moves give the same replies on any machine (tests and documented transcripts).
    /// Without it each game draws a seed.
    #[arg(long, env = "COMPUTER_SEED")]
    pub computer_seed: Option<u64>,
    /// An external Piskvork (Gomocup) engine to offer as a computer player, `NAME=PATH` (repeatable): each game
    /// runs it in a process of its own.
    #[arg(long = "engine", value_name = "NAME=PATH", value_parser = crate::computer::external::parse_engine)]
    pub engines: Vec<crate::computer::external::EngineSpec>,
    /// Milliseconds an external engine may think per move (`INFO timeout_turn`; a second more and it loses).
    #[arg(long, env = "ENGINE_MOVE_MS", default_value_t = 5_000)]
    pub engine_move_ms: u64,
    /// Memory an external engine's process may use, in MiB (its address space is capped where the OS allows).
    #[arg(long, env = "ENGINE_MEMORY_MIB", default_value_t = 512)]
    pub engine_memory_mib: u64,
    /// CPU seconds an external engine's process may use (each game's process, or until a takeback restarts it);
    /// over them the system stops it and the engine loses the game.
    #[arg(long, env = "ENGINE_CPU_SECS", default_value_t = 1800)]
    pub engine_cpu_secs: u64,
    /// Processes and threads the engines' user may have, all together, beyond which an engine cannot start
    /// another (`RLIMIT_NPROC`: it counts every process of that user, the server's own threads too when they share
    /// it, and is not applied to root: see `--engine-user`).
    #[arg(long, env = "ENGINE_MAX_PROCESSES", default_value_t = 4096)]
    pub engine_max_processes: u64,
    /// Run external engines as this user, `UID` or `UID:GID` (the server must run as root to give one): a server
    /// run as root should give its engines an unprivileged user, or they run as root and the process cap does not
    /// bind.
    #[arg(long, env = "ENGINE_USER", value_name = "UID[:GID]", value_parser = crate::computer::external::parse_user)]
    pub engine_user: Option<(u32, u32)>,
    /// A NATS server (`nats://host:4222`): turns on cluster mode, where several nodes share one Postgres
    /// database and reach each other's rooms over NATS (issue #22). Without it the server is a single node.
    #[arg(long, env = "NATS_URL")]
    pub nats_url: Option<String>,
    /// This node's id in a cluster (letters and digits, at most 16): room ids start with it and the ownership
    /// rows name it. Generated at start when absent.
    #[arg(long, env = "NODE_ID")]
    pub node_id: Option<String>,
    /// Milliseconds a node's ownership of a room lasts unless renewed (the owner renews it every third).
    #[arg(long, env = "LEASE_MS", default_value_t = 15_000)]
    pub lease_ms: u64,
    /// The user name this node gives NATS (with `--nats-password`). Run NATS with users and no anonymous access
    /// (docs/security.md, "The cluster's messaging"): without credentials anyone who reaches NATS can act for
    /// any player.
    #[arg(long, env = "NATS_USER")]
    pub nats_user: Option<String>,
    /// The password of `--nats-user` (the variable `NATS_PASSWORD` keeps it out of the process list).
    #[arg(long, env = "NATS_PASSWORD", hide_env_values = true)]
    pub nats_password: Option<String>,
    /// A token this node gives NATS (`authorization { token: … }`), instead of a user and password.
    #[arg(long, env = "NATS_TOKEN", hide_env_values = true)]
    pub nats_token: Option<String>,
    /// A file holding this node's NKey seed (`SU…`), instead of a password: NATS checks a signature, and the
    /// seed never leaves the node.
    #[arg(long, env = "NATS_NKEY_FILE")]
    pub nats_nkey_file: Option<PathBuf>,
    /// A NATS credentials file (`.creds`: a user JWT and its NKey seed, for NATS's decentralised accounts).
    #[arg(long, env = "NATS_CREDS_FILE")]
    pub nats_creds_file: Option<PathBuf>,
    /// Speak to NATS only over TLS (also implied by `--nats-ca-file`, a client certificate or a `tls://` URL).
    #[arg(long, env = "NATS_REQUIRE_TLS")]
    pub nats_require_tls: bool,
    /// A PEM file of the certificate authority that signed NATS's certificate (else the system's roots).
    #[arg(long, env = "NATS_CA_FILE")]
    pub nats_ca_file: Option<PathBuf>,
    /// A PEM client certificate for NATS servers that verify clients (`verify: true`), with `--nats-client-key`.
    #[arg(long, env = "NATS_CLIENT_CERT")]
    pub nats_client_cert: Option<PathBuf>,
    /// The PEM key of `--nats-client-cert`.
    #[arg(long, env = "NATS_CLIENT_KEY")]
    pub nats_client_key: Option<PathBuf>,
    /// An operator's task to run instead of serving (none: serve).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Operators' tasks the binary runs against the database and then exits, instead of serving.
#[derive(Clone, Debug, PartialEq, Eq, Subcommand)]
pub enum Command {
    /// Issues a one-time password reset code for an account and prints it (there is no mail: pass it to the
    /// player yourself). The code replaces any earlier one of the account, works once, and ends every session
    /// of the account when used.
    ResetPassword {
        /// The account's name (any case).
        name: String,
        /// Minutes the code stays valid (at most a week).
        #[arg(long, default_value_t = crate::accounts::reset::DEFAULT_VALID_MINS,
              value_parser = clap::value_parser!(u64).range(1..=7 * 24 * 60))]
        valid_mins: u64,
    },
    /// Roles (issue #38): `admin grant NAME` makes an existing account an administrator (how the first one is
    /// made: there is no default account or password), `--role moderator` a moderator; `admin revoke NAME` makes
    /// it a player again.
    #[command(subcommand)]
    Admin(AdminCommand),
}

/// `server admin …`: an account's role.
#[derive(Clone, Debug, PartialEq, Eq, Subcommand)]
pub enum AdminCommand {
    /// Gives the account a role (administrator unless `--role` says otherwise).
    Grant {
        /// The account's name (any case).
        name: String,
        /// `administrator` or `moderator`.
        #[arg(long, default_value = "administrator", value_parser = ["administrator", "moderator"])]
        role: String,
    },
    /// Makes the account a player again.
    Revoke {
        /// The account's name (any case).
        name: String,
    },
}

/// Why the cluster settings cannot start a node.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClusterConfigError {
    /// Cluster mode on SQLite: several nodes cannot share a SQLite file, and it has no ownership fencing.
    #[error(
        "cluster mode (--nats-url) needs a Postgres database (--database-url postgres://…); \
         SQLite serves a single node only"
    )]
    NeedsPostgres,
    /// A node id that is empty, too long or not made of ASCII letters and digits.
    #[error("--node-id must be 1 to 16 ASCII letters or digits, not `{0}`")]
    BadNodeId(String),
    /// A lease too short to renew in time.
    #[error("--lease-ms must be at least 300")]
    LeaseTooShort,
    /// A NATS user without a password or a password without a user.
    #[error("--nats-user and --nats-password go together: give both or neither")]
    NatsUserAndPassword,
    /// More than one way to authenticate to NATS.
    #[error(
        "give NATS one kind of credentials: a user and password, a token, an NKey seed file or a credentials \
         file, not {0}"
    )]
    NatsCredentialsConflict(String),
    /// A client certificate without its key or a key without its certificate.
    #[error("--nats-client-cert and --nats-client-key go together: give both or neither")]
    NatsClientCertAndKey,
}

/// A secret (a password, a token) that `Debug` never shows.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// The secret itself, for the one place that sends it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Secret {
    fn from(s: &str) -> Secret {
        Secret(s.to_owned())
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// How a node proves itself to NATS (issue #35): one kind of credentials, from flags or the environment; there
/// is no default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NatsAuth {
    /// No credentials (only those a `nats://user:pass@host` URL carries): a NATS server that admits such a node
    /// admits anyone who reaches it.
    None,
    /// `--nats-user` and `--nats-password`.
    UserPassword {
        /// The user name.
        user: String,
        /// The password.
        password: Secret,
    },
    /// `--nats-token`.
    Token(Secret),
    /// `--nats-nkey-file`: the file with the seed (read at connect).
    NKeyFile(PathBuf),
    /// `--nats-creds-file`: a JWT and seed (read at connect).
    CredsFile(PathBuf),
}

impl NatsAuth {
    /// Which flags the credentials came from, for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            NatsAuth::None => "no credentials",
            NatsAuth::UserPassword { .. } => "--nats-user/--nats-password",
            NatsAuth::Token(_) => "--nats-token",
            NatsAuth::NKeyFile(_) => "--nats-nkey-file",
            NatsAuth::CredsFile(_) => "--nats-creds-file",
        }
    }
}

/// How a node speaks TLS to NATS.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NatsTls {
    /// Refuse a connection without TLS.
    pub required: bool,
    /// The CA to trust instead of the system's roots.
    pub ca_file: Option<PathBuf>,
    /// A client certificate and its key (mutual TLS).
    pub client_cert: Option<(PathBuf, PathBuf)>,
}

/// The settings of a node in cluster mode, checked. `Debug` hides the secrets (the URL's password too).
#[derive(Clone, PartialEq, Eq)]
pub struct ClusterConfig {
    /// Where NATS is.
    pub nats_url: String,
    /// This node's id.
    pub node_id: String,
    /// How long an ownership lease lasts, in milliseconds.
    pub lease_ms: u64,
    /// The node's credentials for NATS.
    pub nats_auth: NatsAuth,
    /// TLS to NATS.
    pub nats_tls: NatsTls,
}

impl ClusterConfig {
    /// The NATS URL with any password in it hidden (for logs and error messages).
    pub fn nats_url_redacted(&self) -> String {
        // `nats://token@host`: a bare user part is a token.
        if let Some((scheme, rest)) = self.nats_url.split_once("://") {
            if let Some((creds, host)) = rest.rsplit_once('@') {
                if !creds.contains(':') {
                    return format!("{scheme}://***@{host}");
                }
            }
        }
        redact(&self.nats_url)
    }
}

impl fmt::Debug for ClusterConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClusterConfig")
            .field("nats_url", &self.nats_url_redacted())
            .field("node_id", &self.node_id)
            .field("lease_ms", &self.lease_ms)
            .field("nats_auth", &self.nats_auth)
            .field("nats_tls", &self.nats_tls)
            .finish()
    }
}

/// The longest node id (it prefixes every room id of the node).
pub const MAX_NODE_ID: usize = 16;

/// The header trusted proxies name the client in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ForwardedHeader {
    /// `X-Forwarded-For: client, proxy1, …` (nginx, Caddy, Traefik, HAProxy).
    XForwardedFor,
    /// `Forwarded: for=client;proto=https, for=…` (RFC 7239).
    Forwarded,
}

/// A trusted proxy: a CIDR (`10.0.0.0/8`) or a single address (`10.0.0.1`).
fn parse_proxy(s: &str) -> Result<IpNet, String> {
    let s = s.trim();
    s.parse::<IpNet>()
        .or_else(|_| s.parse::<std::net::IpAddr>().map(IpNet::from))
        .map_err(|_| format!("`{s}` is neither an IP address nor a CIDR"))
}

impl Config {
    /// The default listening address.
    pub const DEFAULT_BIND: SocketAddr =
        SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 8080);

    /// The database URL to open: the configured one or the default SQLite file.
    pub fn database_url(&self) -> String {
        self.database_url.clone().unwrap_or_else(store::default_url)
    }

    /// The database URL to open, with any password hidden (for logs and error messages).
    pub fn database_url_redacted(&self) -> String {
        redact(&self.database_url())
    }

    /// How long a room waits for its second player, as a duration.
    pub fn waiting_room(&self) -> Duration {
        Duration::from_secs(self.waiting_room_secs)
    }

    /// Where the data lives, for people: a SQLite database as its absolute file path, Postgres as its URL with
    /// the password hidden.
    pub fn database_location(&self) -> String {
        let url = self.database_url();
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return redact(&url);
        }
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .unwrap_or(&url);
        let path = path.split('?').next().unwrap_or(path);
        match std::path::absolute(path) {
            Ok(abs) => format!("SQLite file {}", abs.display()),
            Err(_) => format!("SQLite file {path}"),
        }
    }

    /// The grace period as a duration.
    pub fn grace(&self) -> Duration {
        Duration::from_secs(self.grace_secs)
    }

    /// The cluster settings: `None` for a single node (no `--nats-url`), the checked settings for a cluster node
    /// (a node id is generated when none is given), or why they cannot start one (SQLite, a bad node id).
    pub fn cluster(&self) -> Result<Option<ClusterConfig>, ClusterConfigError> {
        let Some(nats_url) = &self.nats_url else {
            return Ok(None);
        };
        let url = self.database_url();
        if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
            return Err(ClusterConfigError::NeedsPostgres);
        }
        let node_id = match &self.node_id {
            Some(id) => {
                if id.is_empty()
                    || id.len() > MAX_NODE_ID
                    || !id.bytes().all(|b| b.is_ascii_alphanumeric())
                {
                    return Err(ClusterConfigError::BadNodeId(id.clone()));
                }
                id.clone()
            }
            None => {
                use rand::Rng;
                let mut rng = rand::rng();
                (0..6)
                    .map(|_| (b'a' + rng.random_range(0..26u8)) as char)
                    .collect()
            }
        };
        if self.lease_ms < 300 {
            return Err(ClusterConfigError::LeaseTooShort);
        }
        Ok(Some(ClusterConfig {
            nats_url: nats_url.clone(),
            node_id,
            lease_ms: self.lease_ms,
            nats_auth: self.nats_auth()?,
            nats_tls: self.nats_tls()?,
        }))
    }

    /// The one kind of NATS credentials the flags give, or why they do not make one.
    fn nats_auth(&self) -> Result<NatsAuth, ClusterConfigError> {
        let mut given = Vec::new();
        let user_password = match (&self.nats_user, &self.nats_password) {
            (Some(user), Some(password)) => {
                given.push("--nats-user/--nats-password");
                Some(NatsAuth::UserPassword {
                    user: user.clone(),
                    password: Secret(password.clone()),
                })
            }
            (None, None) => None,
            _ => return Err(ClusterConfigError::NatsUserAndPassword),
        };
        let token = self.nats_token.as_deref().map(|t| {
            given.push("--nats-token");
            NatsAuth::Token(Secret::from(t))
        });
        let nkey = self.nats_nkey_file.clone().map(|f| {
            given.push("--nats-nkey-file");
            NatsAuth::NKeyFile(f)
        });
        let creds = self.nats_creds_file.clone().map(|f| {
            given.push("--nats-creds-file");
            NatsAuth::CredsFile(f)
        });
        if given.len() > 1 {
            return Err(ClusterConfigError::NatsCredentialsConflict(
                given.join(" and "),
            ));
        }
        Ok(user_password
            .or(token)
            .or(nkey)
            .or(creds)
            .unwrap_or(NatsAuth::None))
    }

    /// The TLS settings the flags give.
    fn nats_tls(&self) -> Result<NatsTls, ClusterConfigError> {
        let client_cert = match (&self.nats_client_cert, &self.nats_client_key) {
            (Some(cert), Some(key)) => Some((cert.clone(), key.clone())),
            (None, None) => None,
            _ => return Err(ClusterConfigError::NatsClientCertAndKey),
        };
        let url_says_tls = self
            .nats_url
            .as_deref()
            .is_some_and(|u| u.starts_with("tls://"));
        Ok(NatsTls {
            required: self.nats_require_tls
                || url_says_tls
                || self.nats_ca_file.is_some()
                || client_cert.is_some(),
            ca_file: self.nats_ca_file.clone(),
            client_cert,
        })
    }
}

impl Default for Config {
    /// The defaults of every flag, ignoring the environment (for tests and embedding).
    fn default() -> Config {
        Config::try_parse_from(["server"]).expect("the defaults parse")
    }
}

/// Hides the password of a database URL (`postgres://user:secret@host` → `postgres://user:***@host`).
fn redact(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        if let Some((creds, host)) = rest.rsplit_once('@') {
            if let Some((user, _)) = creds.split_once(':') {
                return format!("{scheme}://{user}:***@{host}");
            }
        }
    }
    url.to_owned()
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("bind", &self.bind)
            .field("database_url", &self.database_url.as_deref().map(redact))
            .field("grace_secs", &self.grace_secs)
            .field("first_move_secs", &self.first_move_secs)
            .field("max_frame_bytes", &self.max_frame_bytes)
            .field("msg_rate", &self.msg_rate)
            .field("msg_burst", &self.msg_burst)
            .field("abuse_limit", &self.abuse_limit)
            .field("max_connections", &self.max_connections)
            .field("max_connections_per_ip", &self.max_connections_per_ip)
            .field(
                "max_connections_per_player",
                &self.max_connections_per_player,
            )
            .field("max_connections_per_range", &self.max_connections_per_range)
            .field(
                "connection_range_v4_prefix",
                &self.connection_range_v4_prefix,
            )
            .field(
                "connection_range_v6_prefix",
                &self.connection_range_v6_prefix,
            )
            .field("max_rooms_per_player", &self.max_rooms_per_player)
            .field("max_rooms_per_connection", &self.max_rooms_per_connection)
            .field("outbox_capacity", &self.outbox_capacity)
            .field("ws_buffer_bytes", &self.ws_buffer_bytes)
            .field("event_log", &self.event_log)
            .field("slow_client_secs", &self.slow_client_secs)
            .field("ping_secs", &self.ping_secs)
            .field("idle_secs", &self.idle_secs)
            .field("guest_session_days", &self.guest_session_days)
            .field("session_days", &self.session_days)
            .field("secure_cookies", &self.secure_cookies)
            .field("login_burst_per_ip", &self.login_burst_per_ip)
            .field("login_per_minute_per_ip", &self.login_per_minute_per_ip)
            .field("login_burst_per_account", &self.login_burst_per_account)
            .field(
                "registrations_per_day_per_ip",
                &self.registrations_per_day_per_ip,
            )
            .field(
                "registrations_per_day_per_range",
                &self.registrations_per_day_per_range,
            )
            .field(
                "registration_range_v4_prefix",
                &self.registration_range_v4_prefix,
            )
            .field(
                "registration_range_v6_prefix",
                &self.registration_range_v6_prefix,
            )
            .field(
                "login_per_minute_per_account",
                &self.login_per_minute_per_account,
            )
            .field("password_memory_kib", &self.password_memory_kib)
            .field("password_hash_threads", &self.password_hash_threads)
            .field("password_hashes_per_ip", &self.password_hashes_per_ip)
            .field("password_hash_queue", &self.password_hash_queue)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("forwarded_header", &self.forwarded_header)
            .field("header_read_secs", &self.header_read_secs)
            .field("request_secs", &self.request_secs)
            .field("max_tcp_connections", &self.max_tcp_connections)
            .field(
                "max_tcp_connections_per_ip",
                &self.max_tcp_connections_per_ip,
            )
            .field("hello_secs", &self.hello_secs)
            .field("metrics_token", &self.metrics_token.as_ref().map(|_| "***"))
            .field("metrics_bind", &self.metrics_bind)
            .field(
                "login_burst_per_address_account",
                &self.login_burst_per_address_account,
            )
            .field(
                "login_per_minute_per_address_account",
                &self.login_per_minute_per_address_account,
            )
            .field("guest_burst_per_ip", &self.guest_burst_per_ip)
            .field("guests_per_minute_per_ip", &self.guests_per_minute_per_ip)
            .field("unused_guest_session_mins", &self.unused_guest_session_mins)
            .field("rated_min_moves", &self.rated_min_moves)
            .field("rated_repeat_limit", &self.rated_repeat_limit)
            .field("rated_repeat_window_secs", &self.rated_repeat_window_secs)
            .field("challenge_expiry_secs", &self.challenge_expiry_secs)
            .field("challenge_burst", &self.challenge_burst)
            .field("challenges_per_minute", &self.challenges_per_minute)
            .field(
                "challenge_burst_per_recipient",
                &self.challenge_burst_per_recipient,
            )
            .field(
                "challenges_per_minute_per_recipient",
                &self.challenges_per_minute_per_recipient,
            )
            .field(
                "challenge_cancel_cooldown_secs",
                &self.challenge_cancel_cooldown_secs,
            )
            .field("max_rooms", &self.max_rooms)
            .field("max_waiting_rooms_per_ip", &self.max_waiting_rooms_per_ip)
            .field("waiting_room_secs", &self.waiting_room_secs)
            .field("lobby_rooms", &self.lobby_rooms)
            .field("lobby_rooms_per_ip", &self.lobby_rooms_per_ip)
            .field("lobby_rooms_per_range", &self.lobby_rooms_per_range)
            .field("max_quick_seekers", &self.max_quick_seekers)
            .field("chat_log_bytes", &self.chat_log_bytes)
            .field("chat_burst", &self.chat_burst)
            .field("chat_per_minute", &self.chat_per_minute)
            .field("spectator_chat_burst", &self.spectator_chat_burst)
            .field("spectator_chat_per_minute", &self.spectator_chat_per_minute)
            .field("idle_claim_secs", &self.idle_claim_secs)
            .field("chat_history_lines", &self.chat_history_lines)
            .field("chat_history_bytes", &self.chat_history_bytes)
            .field("computer_threads", &self.computer_threads)
            .field("computer_max_queued", &self.computer_max_queued)
            .field("analysis_jobs", &self.analysis_jobs)
            .field("analysis_max_queued", &self.analysis_max_queued)
            .field("analysis_per_day", &self.analysis_per_day)
            .field("analysis_ms_per_position", &self.analysis_ms_per_position)
            .field("analysis_evaluate_ms", &self.analysis_evaluate_ms)
            .field(
                "analysis_evaluates_per_minute",
                &self.analysis_evaluates_per_minute,
            )
            .field("fair_play_ms_per_position", &self.fair_play_ms_per_position)
            .field("fair_play_max_queued", &self.fair_play_max_queued)
            .field("fair_play_level", &self.fair_play_level)
            .field("fair_play_window", &self.fair_play_window)
            .field("fair_play_min_moves", &self.fair_play_min_moves)
            .field("fair_play_alpha", &self.fair_play_alpha)
            .field("computer_max_games", &self.computer_max_games)
            .field(
                "computer_max_games_per_player",
                &self.computer_max_games_per_player,
            )
            .field("computer_max_games_per_ip", &self.computer_max_games_per_ip)
            .field("computer_seed", &self.computer_seed)
            .field("engines", &self.engines)
            .field("engine_move_ms", &self.engine_move_ms)
            .field("engine_memory_mib", &self.engine_memory_mib)
            .field("engine_cpu_secs", &self.engine_cpu_secs)
            .field("engine_max_processes", &self.engine_max_processes)
            .field("engine_user", &self.engine_user)
            .field("nats_url", &self.nats_url.as_deref().map(redact))
            .field("node_id", &self.node_id)
            .field("lease_ms", &self.lease_ms)
            .field("nats_user", &self.nats_user)
            .field("nats_password", &self.nats_password.as_ref().map(|_| "***"))
            .field("nats_token", &self.nats_token.as_ref().map(|_| "***"))
            .field("nats_nkey_file", &self.nats_nkey_file)
            .field("nats_creds_file", &self.nats_creds_file)
            .field("nats_require_tls", &self.nats_require_tls)
            .field("nats_ca_file", &self.nats_ca_file)
            .field("nats_client_cert", &self.nats_client_cert)
            .field("nats_client_key", &self.nats_client_key)
            .field("command", &self.command)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_the_database_password() {
        let config = Config {
            database_url: Some("postgres://game:hunter2@db:5432/gomoku".into()),
            ..Config::default()
        };
        let shown = format!("{config:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("postgres://game:***@db:5432/gomoku"));
    }

    #[test]
    fn debug_hides_the_metrics_token() {
        let config = Config {
            metrics_token: Some("s3cret-scrape".into()),
            ..Config::default()
        };
        let shown = format!("{config:?}");
        assert!(!shown.contains("s3cret-scrape"), "{shown}");
        assert!(shown.contains(r#"metrics_token: Some("***")"#), "{shown}");
    }

    #[test]
    fn trusted_proxies_are_addresses_or_cidrs_separated_by_commas() {
        let config =
            Config::try_parse_from(["server", "--trusted-proxies", "10.0.0.0/8, 192.168.1.7,::1"])
                .unwrap();
        let shown: Vec<String> = config
            .trusted_proxies
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(shown, ["10.0.0.0/8", "192.168.1.7/32", "::1/128"]);
        assert!(Config::default().trusted_proxies.is_empty());
        assert!(Config::try_parse_from(["server", "--trusted-proxies", "proxy.local"]).is_err());
    }

    #[test]
    fn the_database_location_is_an_absolute_file_or_a_redacted_url() {
        let here = std::env::current_dir().unwrap();
        assert_eq!(
            Config::default().database_location(),
            format!("SQLite file {}", here.join("data/gomoku.db").display())
        );
        let file = Config {
            database_url: Some("sqlite:///tmp/g.db?mode=rwc".into()),
            ..Config::default()
        };
        assert_eq!(file.database_location(), "SQLite file /tmp/g.db");
        let pg = Config {
            database_url: Some("postgres://game:hunter2@db:5432/gomoku".into()),
            ..Config::default()
        };
        assert_eq!(pg.database_location(), "postgres://game:***@db:5432/gomoku");
    }

    #[test]
    fn a_single_node_needs_no_cluster_settings() {
        assert_eq!(Config::default().cluster(), Ok(None));
    }

    #[test]
    fn cluster_mode_on_sqlite_is_refused() {
        let config =
            Config::try_parse_from(["server", "--nats-url", "nats://127.0.0.1:4222"]).unwrap();
        assert_eq!(config.cluster(), Err(ClusterConfigError::NeedsPostgres));
        let file = Config::try_parse_from([
            "server",
            "--nats-url",
            "nats://127.0.0.1:4222",
            "--database-url",
            "sqlite://data/g.db",
        ])
        .unwrap();
        assert_eq!(file.cluster(), Err(ClusterConfigError::NeedsPostgres));
        assert!(ClusterConfigError::NeedsPostgres
            .to_string()
            .contains("Postgres"));
    }

    #[test]
    fn cluster_mode_on_postgres_generates_a_node_id_when_none_is_given() {
        let config = Config::try_parse_from([
            "server",
            "--nats-url",
            "nats://127.0.0.1:4222",
            "--database-url",
            "postgres://postgres@127.0.0.1/g",
        ])
        .unwrap();
        let cluster = config.cluster().unwrap().unwrap();
        assert_eq!(cluster.nats_url, "nats://127.0.0.1:4222");
        assert_eq!(cluster.node_id.len(), 6);
        assert!(cluster.node_id.bytes().all(|b| b.is_ascii_lowercase()));
    }

    #[test]
    fn node_ids_are_one_to_sixteen_letters_or_digits() {
        let with = |id: &str| {
            Config::try_parse_from([
                "server",
                "--nats-url",
                "nats://127.0.0.1:4222",
                "--database-url",
                "postgres://postgres@127.0.0.1/g",
                "--node-id",
                id,
            ])
            .unwrap()
            .cluster()
        };
        assert_eq!(
            with(&"a".repeat(16)).unwrap().unwrap().node_id,
            "a".repeat(16)
        );
        assert_eq!(with("n1").unwrap().unwrap().node_id, "n1");
        for bad in ["", &"a".repeat(17), "n-1", "n.1"] {
            assert_eq!(
                with(bad),
                Err(ClusterConfigError::BadNodeId(bad.to_owned()))
            );
        }
    }

    #[test]
    fn leases_are_at_least_300_milliseconds() {
        let with = |ms: &str| {
            Config::try_parse_from([
                "server",
                "--nats-url",
                "nats://127.0.0.1:4222",
                "--database-url",
                "postgres://postgres@127.0.0.1/g",
                "--lease-ms",
                ms,
            ])
            .unwrap()
            .cluster()
        };
        assert_eq!(with("299"), Err(ClusterConfigError::LeaseTooShort));
        assert_eq!(with("300").unwrap().unwrap().lease_ms, 300);
    }

    fn clustered(extra: &[&str]) -> Result<Option<ClusterConfig>, ClusterConfigError> {
        let mut args = vec![
            "server",
            "--nats-url",
            "nats://127.0.0.1:4222",
            "--database-url",
            "postgres://postgres@127.0.0.1/g",
        ];
        args.extend_from_slice(extra);
        Config::try_parse_from(args).unwrap().cluster()
    }

    #[test]
    fn nats_credentials_come_from_flags_and_have_no_default() {
        assert_eq!(clustered(&[]).unwrap().unwrap().nats_auth, NatsAuth::None);
        let auth = clustered(&["--nats-user", "node", "--nats-password", "hunter2"])
            .unwrap()
            .unwrap()
            .nats_auth;
        assert_eq!(
            auth,
            NatsAuth::UserPassword {
                user: "node".into(),
                password: Secret::from("hunter2")
            }
        );
        assert_eq!(
            clustered(&["--nats-token", "t0k"])
                .unwrap()
                .unwrap()
                .nats_auth,
            NatsAuth::Token(Secret::from("t0k"))
        );
        assert_eq!(
            clustered(&["--nats-nkey-file", "/etc/gomoku/nkey"])
                .unwrap()
                .unwrap()
                .nats_auth,
            NatsAuth::NKeyFile("/etc/gomoku/nkey".into())
        );
        assert_eq!(
            clustered(&["--nats-user", "node"]),
            Err(ClusterConfigError::NatsUserAndPassword)
        );
        assert_eq!(
            clustered(&["--nats-password", "x"]),
            Err(ClusterConfigError::NatsUserAndPassword)
        );
        assert!(matches!(
            clustered(&["--nats-token", "t", "--nats-creds-file", "n.creds"]),
            Err(ClusterConfigError::NatsCredentialsConflict(_))
        ));
    }

    #[test]
    fn nats_secrets_are_hidden_in_debug() {
        let config = Config::try_parse_from([
            "server",
            "--nats-url",
            "nats://node:urlsecret@127.0.0.1:4222",
            "--database-url",
            "postgres://postgres@127.0.0.1/g",
            "--nats-user",
            "node",
            "--nats-password",
            "hunter2",
        ])
        .unwrap();
        let shown = format!("{config:?} {:?}", config.cluster().unwrap().unwrap());
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(!shown.contains("urlsecret"), "{shown}");
        assert!(shown.contains(r#"nats_password: Some("***")"#), "{shown}");
        let token = clustered(&["--nats-token", "t0ksecret"]).unwrap().unwrap();
        assert!(!format!("{token:?}").contains("t0ksecret"));
        let in_url = ClusterConfig {
            nats_url: "nats://urltoken@nats:4222".into(),
            ..token
        };
        assert_eq!(in_url.nats_url_redacted(), "nats://***@nats:4222");
        assert!(!format!("{in_url:?}").contains("urltoken"));
    }

    #[test]
    fn nats_tls_flags_are_read_and_a_ca_or_certificate_requires_tls() {
        let plain = clustered(&[]).unwrap().unwrap().nats_tls;
        assert_eq!(plain, NatsTls::default());
        assert!(
            clustered(&["--nats-require-tls"])
                .unwrap()
                .unwrap()
                .nats_tls
                .required
        );
        let ca = clustered(&["--nats-ca-file", "/etc/nats/ca.pem"])
            .unwrap()
            .unwrap()
            .nats_tls;
        assert!(ca.required);
        assert_eq!(ca.ca_file, Some("/etc/nats/ca.pem".into()));
        let mutual = clustered(&["--nats-client-cert", "c.pem", "--nats-client-key", "k.pem"])
            .unwrap()
            .unwrap()
            .nats_tls;
        assert_eq!(mutual.client_cert, Some(("c.pem".into(), "k.pem".into())));
        assert!(mutual.required);
        assert_eq!(
            clustered(&["--nats-client-cert", "c.pem"]),
            Err(ClusterConfigError::NatsClientCertAndKey)
        );
    }

    #[test]
    fn flags_override_defaults() {
        let config =
            Config::try_parse_from(["server", "--bind", "127.0.0.1:0", "--grace-secs", "5"])
                .unwrap();
        assert_eq!(config.bind.port(), 0);
        assert_eq!(config.grace(), Duration::from_secs(5));
        assert_eq!(config.max_frame_bytes, 16 * 1024);
    }
}
