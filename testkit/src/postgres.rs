//! Fresh Postgres for tests: a schema of its own (the store's, accounts' and server tests) or a database of its
//! own (a cluster's nodes share one), beside the database `TEST_DATABASE_URL` names. Every test that needs
//! Postgres gets it here, so that names never collide (process id, a counter and the time) and everything made
//! is dropped the same way.

use std::sync::atomic::{AtomicU32, Ordering};

/// The admin URL of the test Postgres (`TEST_DATABASE_URL`), `None` when it is not set.
pub fn admin_url() -> Option<String> {
    std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|url| !url.is_empty())
}

/// A name no other test of any process uses at the same time: `PREFIX_PID_N_NANOS` (lower case, digits and `_`,
/// as Postgres takes unquoted).
pub fn unique_name(prefix: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "{prefix}_{}_{}_{nanos}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// The URL that opens `admin_url`'s database with `schema` as its search path (what `store::open` takes).
pub fn schema_url(admin_url: &str, schema: &str) -> String {
    let separator = if admin_url.contains('?') { '&' } else { '?' };
    format!("{admin_url}{separator}options=-c%20search_path%3D{schema}")
}

async fn admin(admin_url: &str) -> sqlx::PgPool {
    sqlx::PgPool::connect(admin_url)
        .await
        .expect("connect to TEST_DATABASE_URL")
}

/// A schema of its own in the test database. Dropped by [`FreshSchema::drop`] (a test that fails leaves it, to be
/// looked at).
#[derive(Clone, Debug)]
pub struct FreshSchema {
    /// The admin URL it was made through.
    pub admin_url: String,
    /// Its name.
    pub schema: String,
    /// The URL that opens it ([`schema_url`]).
    pub url: String,
}

impl FreshSchema {
    /// A new, empty schema named after `prefix` ([`unique_name`]).
    pub async fn create(admin_url: &str, prefix: &str) -> FreshSchema {
        let schema = unique_name(prefix);
        let pool = admin(admin_url).await;
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&pool)
            .await
            .expect("create schema");
        pool.close().await;
        FreshSchema {
            admin_url: admin_url.to_owned(),
            url: schema_url(admin_url, &schema),
            schema,
        }
    }

    /// A new schema in the database of `TEST_DATABASE_URL`, `None` when it is not set.
    pub async fn of_test_database(prefix: &str) -> Option<FreshSchema> {
        Some(FreshSchema::create(&admin_url()?, prefix).await)
    }

    /// Drops the schema and everything in it. A server still running on it (its background tasks: the events,
    /// fair play, follow notices) may hold a lock the drop needs while it waits for one the drop holds: Postgres
    /// then ends one of the two as a deadlock (40P01), and when that is the drop, it is tried again.
    pub async fn drop(self) {
        let pool = admin(&self.admin_url).await;
        let sql = format!("DROP SCHEMA IF EXISTS {} CASCADE", self.schema);
        for attempt in 1.. {
            match sqlx::query(&sql).execute(&pool).await {
                Ok(_) => break,
                Err(sqlx::Error::Database(e))
                    if e.code().as_deref() == Some("40P01") && attempt < 50 =>
                {
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                }
                Err(e) => panic!("drop schema: {e:?}"),
            }
        }
        pool.close().await;
    }
}

/// A database of its own beside the one `admin_url` names, named after `prefix`; its URL (the admin URL's
/// server, user and options).
pub async fn fresh_database(admin_url: &str, prefix: &str) -> String {
    let name = unique_name(prefix);
    let pool = admin(admin_url).await;
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&pool)
        .await
        .expect("create database");
    pool.close().await;
    let (base, query) = match admin_url.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (admin_url, String::new()),
    };
    let (server, _) = base.rsplit_once('/').expect("a database in the URL");
    format!("{server}/{name}{query}")
}

/// Drops a database [`fresh_database`] made, closing what still connects to it.
pub async fn drop_database(admin_url: &str, url: &str) {
    let name = url
        .split('?')
        .next()
        .and_then(|u| u.rsplit_once('/'))
        .map(|(_, n)| n.to_owned())
        .expect("a database in the URL");
    let pool = admin(admin_url).await;
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&pool)
        .await
        .expect("drop database");
    pool.close().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_differ_and_urls_keep_their_options() {
        assert_ne!(unique_name("t"), unique_name("t"));
        assert!(unique_name("accounts").starts_with("accounts_"));
        assert_eq!(
            schema_url("postgres://u@h/db", "s1"),
            "postgres://u@h/db?options=-c%20search_path%3Ds1"
        );
        assert_eq!(
            schema_url("postgres://u@h/db?sslmode=disable", "s1"),
            "postgres://u@h/db?sslmode=disable&options=-c%20search_path%3Ds1"
        );
    }
}
