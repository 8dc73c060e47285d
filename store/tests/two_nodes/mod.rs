//! Two stores standing for two cluster nodes on one fresh Postgres schema (the cluster tests of the store).

#![allow(dead_code)]

use std::sync::Arc;

use store::Store;

/// Two stores (two nodes) on one fresh schema of `TEST_DATABASE_URL`, or `None` when it is not set.
pub async fn two_nodes() -> Option<(Arc<dyn Store>, Arc<dyn Store>, String, String)> {
    let admin_url = std::env::var("TEST_DATABASE_URL").ok()?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let schema = format!("two_nodes_{}_{nanos}", std::process::id());
    let admin = sqlx::PgPool::connect(&admin_url).await.expect("connect");
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&admin)
        .await
        .expect("create schema");
    admin.close().await;
    let separator = if admin_url.contains('?') { '&' } else { '?' };
    let url = format!("{admin_url}{separator}options=-c%20search_path%3D{schema}");
    let a = store::open(&url).await.expect("open a");
    let b = store::open(&url).await.expect("open b");
    Some((a, b, admin_url, schema))
}

/// Drops the schema [`two_nodes`] made.
pub async fn drop_schema(admin_url: &str, schema: &str) {
    let admin = sqlx::PgPool::connect(admin_url).await.expect("connect");
    sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
        .execute(&admin)
        .await
        .expect("drop schema");
    admin.close().await;
}

/// The two nodes' stores, the admin URL and the schema; without `TEST_DATABASE_URL`, says the test is skipped and
/// returns from it.
macro_rules! nodes_or_skip {
    () => {
        match two_nodes().await {
            Some(nodes) => nodes,
            None => {
                eprintln!("skipped: TEST_DATABASE_URL is not set (cluster state is Postgres only)");
                return;
            }
        }
    };
}
