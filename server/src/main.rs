//! Starts the game server. (First cut: health endpoint only; rooms arrive with the server issue.)

use axum::{routing::get, Json, Router};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .init();
    let bind = std::env::var("BIND").unwrap_or_else(|_| "127.0.0.1:8080".to_string());
    let listener = tokio::net::TcpListener::bind(&bind).await?;
    let app = Router::new().route("/api/health", get(|| async { Json(serde_json_ok()) }));
    println!(
        "Gomoku server listening: open http://{}/",
        listener.local_addr()?
    );
    axum::serve(listener, app).await?;
    Ok(())
}

fn serde_json_ok() -> std::collections::BTreeMap<&'static str, &'static str> {
    [("status", "ok")].into_iter().collect()
}
