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
    tracing::info!(?config, "starting");
    let url = config.database_url();
    let store = store::open(&url)
        .await
        .with_context(|| format!("opening the database {}", config_db_shown(&config)))?;
    let listener = tokio::net::TcpListener::bind(config.bind)
        .await
        .with_context(|| format!("binding {}", config.bind))?;
    let addr = listener.local_addr()?;
    let state = AppState::new(config, store).await?;
    println!("Gomoku server listening: open http://{addr}/");
    server::run(listener, state, shutdown_signal()).await?;
    Ok(())
}

fn config_db_shown(config: &Config) -> String {
    // The Debug form redacts passwords.
    format!("{config:?}")
        .split("database_url: ")
        .nth(1)
        .and_then(|s| s.split(", grace").next())
        .unwrap_or("")
        .to_owned()
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
