//! Starts the game server: reads the config, opens the store (running its migrations), binds and serves until
//! SIGINT or SIGTERM.

use anyhow::Context;
use clap::Parser;
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
    let config = Config::parse();
    raise_fd_limit();
    tracing::info!(?config, "starting");
    let url = config.database_url();
    let store = store::open(&url)
        .await
        .with_context(|| format!("opening the database {}", config.database_url_redacted()))?;
    let listener = tokio::net::TcpListener::bind(config.bind)
        .await
        .with_context(|| format!("binding {}", config.bind))?;
    let addr = listener.local_addr()?;
    let state = AppState::new(config, store).await?;
    println!("Gomoku server listening: open http://{addr}/");
    server::run(listener, state, shutdown_signal()).await?;
    Ok(())
}

/// Every connection is a file descriptor: lift the soft open-file limit to the hard one (often 1024 → much more).
fn raise_fd_limit() {
    if let Ok((soft, hard)) = rlimit::Resource::NOFILE.get() {
        if soft < hard && rlimit::Resource::NOFILE.set(hard, hard).is_ok() {
            tracing::info!(from = soft, to = hard, "raised the open-file limit");
        }
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
