//! Two stores standing for two cluster nodes on one fresh Postgres schema (the cluster tests of the store).

#![allow(dead_code)]

use std::sync::Arc;

use store::Store;

/// Two stores (two nodes) on one fresh schema of `TEST_DATABASE_URL`, or `None` when it is not set.
pub async fn two_nodes() -> Option<(Arc<dyn Store>, Arc<dyn Store>, String, String)> {
    let fresh = testkit::postgres::FreshSchema::of_test_database("two_nodes").await?;
    let a = store::open(&fresh.url).await.expect("open a");
    let b = store::open(&fresh.url).await.expect("open b");
    Some((a, b, fresh.admin_url, fresh.schema))
}

/// Drops the schema [`two_nodes`] made.
pub async fn drop_schema(admin_url: &str, schema: &str) {
    testkit::postgres::FreshSchema {
        admin_url: admin_url.to_owned(),
        schema: schema.to_owned(),
        url: testkit::postgres::schema_url(admin_url, schema),
    }
    .drop()
    .await;
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
