//! Starts the game server: reads the config, opens the store (running its migrations), binds and serves until
//! SIGINT or SIGTERM.

use anyhow::Context;
use clap::Parser;
use server::config::Command;
use server::{AppState, Config};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // Logs go to stderr, so stdout carries only the line with the URL to open.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let mut config = Config::parse();
    if let Some(command) = config.command.take() {
        return run_command(&config, command).await;
    }
    fit_connections_to_fd_limit(&mut config, raise_fd_limit());
    // The whole configuration only at debug: at the default level the start-up says where to go and where the
    // data lives, not forty flags.
    tracing::debug!(?config, "configuration");
    // Cluster mode on SQLite is refused before anything is opened.
    let cluster = config.cluster()?;
    let url = config.database_url();
    let config_database = config.database_location();
    let store = store::open(&url)
        .await
        .with_context(|| format!("opening the database {}", config.database_url_redacted()))?;
    let listener = tokio::net::TcpListener::bind(config.bind)
        .await
        .with_context(|| format!("binding {}", config.bind))?;
    let metrics_listener = match config.metrics_bind {
        Some(bind) => Some(
            tokio::net::TcpListener::bind(bind)
                .await
                .with_context(|| format!("binding {bind} for metrics"))?,
        ),
        None => None,
    };
    let addr = listener.local_addr()?;
    let state = match cluster {
        None => AppState::new(config, store).await?,
        Some(cluster) => {
            tracing::info!(
                node = %cluster.node_id,
                nats = %cluster.nats_url_redacted(),
                credentials = cluster.nats_auth.describe(),
                tls = cluster.nats_tls.required,
                "cluster mode"
            );
            AppState::clustered(config, store, cluster).await?
        }
    };
    if let Some(metrics_listener) = metrics_listener {
        tracing::info!(addr = %metrics_listener.local_addr()?, "serving /metrics");
        tokio::spawn(server::run_metrics(metrics_listener, state.clone()));
    }
    let database = config_database;
    // A closed stdout (a supervisor that read the URL and hung up) is no reason to stop serving: `println!` would
    // panic there, so the lines are written and a failure only logged.
    announce(&format!(
        "Gomoku server listening: open http://{addr}/\nDatabase: {database}\n"
    ));
    server::run(listener, state, shutdown_signal()).await?;
    Ok(())
}

/// Runs an operator's task against the database (its migrations run first, as at start-up) and returns.
async fn run_command(config: &Config, command: Command) -> anyhow::Result<()> {
    let store = store::open(&config.database_url())
        .await
        .with_context(|| format!("opening the database {}", config.database_url_redacted()))?;
    let outcome = match command {
        Command::ResetPassword { name, valid_mins } => {
            let valid_for = std::time::Duration::from_secs(valid_mins.saturating_mul(60));
            server::accounts::reset::issue(&*store, &name, valid_for, server::time::unix_ms())
                .await
                .map_err(|e| match e {
                    server::accounts::ApiError::NotFound => {
                        anyhow::anyhow!("no account named {name}")
                    }
                    server::accounts::ApiError::Internal(detail) => {
                        anyhow::anyhow!("could not issue a reset code: {detail}")
                    }
                    other => anyhow::anyhow!("could not issue a reset code: {other}"),
                })
                .map(|issued| {
                    // The code goes to stdout alone on its last line, so scripts can take it; logs go to stderr.
                    announce(&format!(
                        "Password reset code for {} (valid {valid_mins} minutes, works once; \
                         using it ends every session of the account):\n{}\n",
                        issued.name, issued.code
                    ));
                })
        }
        Command::Admin(admin) => {
            use server::community::{admin::grant, Role};
            let (name, role) = match admin {
                server::config::AdminCommand::Grant { name, role } => {
                    (name, Role::named(&role).unwrap_or(Role::Administrator))
                }
                server::config::AdminCommand::Revoke { name } => (name, Role::Player),
            };
            grant(&*store, &name, role)
                .await
                .map(|stored| announce(&format!("{stored} is now {}\n", role.as_str())))
                .map_err(|e| anyhow::anyhow!(e))
        }
    };
    store.close().await;
    outcome
}

/// Writes the start-up lines to stdout; a closed or broken stdout is logged, not fatal.
fn announce(lines: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(error) = out.write_all(lines.as_bytes()).and_then(|()| out.flush()) {
        tracing::warn!(%error, "could not write the start-up lines to stdout");
    }
}

/// Every connection is a file descriptor: lift the soft open-file limit to the hard one (often 1024 → much more).
/// Returns the limit now in force, if it could be read.
fn raise_fd_limit() -> Option<u64> {
    let (soft, hard) = rlimit::Resource::NOFILE.get().ok()?;
    if soft < hard && rlimit::Resource::NOFILE.set(hard, hard).is_ok() {
        tracing::info!(from = soft, to = hard, "raised the open-file limit");
        return Some(hard);
    }
    Some(soft)
}

/// File descriptors kept for the database, the web client's files and logs when sockets take all the others.
const SPARE_FDS: u64 = 64;

/// Lowers the TCP connection cap to what the open-file limit allows: past it, accepting fails for everyone
/// (the health check included) until some connection closes, while under the cap the extra ones are turned away.
fn fit_connections_to_fd_limit(config: &mut Config, fd_limit: Option<u64>) {
    let Some(limit) = fd_limit else { return };
    let fits = usize::try_from(limit.saturating_sub(SPARE_FDS)).unwrap_or(usize::MAX);
    if config.max_tcp_connections > fits {
        tracing::warn!(
            from = config.max_tcp_connections,
            to = fits,
            fd_limit = limit,
            "lowered --max-tcp-connections to fit the open-file limit (raise `ulimit -n` to allow more)"
        );
        config.max_tcp_connections = fits;
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
