//! The login limits' token buckets shared by the nodes of a cluster (issue #22), against Postgres when
//! `TEST_DATABASE_URL` is set (a fresh schema per test): two stores stand for two nodes on one database, and a
//! bucket used from both is one bucket.

use crate::two_nodes;

use std::time::Duration;

use store::{BucketAnswer, BucketShape, BucketUse};
use two_nodes::{drop_schema, two_nodes};

/// Three tokens, never refilled during a test.
const THREE: BucketShape = BucketShape {
    burst: 3.0,
    per_ms: 0.0,
};
const TAKE: BucketUse = BucketUse {
    need: 1.0,
    cost: 1.0,
};
const CHARGE: BucketUse = BucketUse {
    need: -1.0,
    cost: 1.0,
};
const REFUND: BucketUse = BucketUse {
    need: -1.0,
    cost: -1.0,
};

fn short(answer: BucketAnswer) -> f64 {
    match answer {
        BucketAnswer::Short { tokens } => tokens,
        BucketAnswer::Taken => panic!("expected a refusal"),
    }
}

#[tokio::test]
async fn a_bucket_used_from_two_nodes_admits_exactly_its_burst() {
    let (a, b, admin, schema) = nodes_or_skip!();
    assert_eq!(
        a.use_bucket("k", THREE, TAKE).await,
        Ok(BucketAnswer::Taken)
    );
    assert_eq!(
        b.use_bucket("k", THREE, TAKE).await,
        Ok(BucketAnswer::Taken)
    );
    assert_eq!(
        a.use_bucket("k", THREE, TAKE).await,
        Ok(BucketAnswer::Taken)
    );
    let left = short(b.use_bucket("k", THREE, TAKE).await.unwrap());
    assert!(left.abs() < 1e-9, "{left}");
    // A refusal took nothing; other keys have their own buckets.
    assert!(a.bucket_tokens("k", THREE).await.unwrap().abs() < 1e-9);
    assert_eq!(
        a.use_bucket("j", THREE, TAKE).await,
        Ok(BucketAnswer::Taken)
    );
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn concurrent_uses_from_two_nodes_lose_no_token() {
    let (a, b, admin, schema) = nodes_or_skip!();
    let ten = BucketShape {
        burst: 10.0,
        per_ms: 0.0,
    };
    let mut uses = Vec::new();
    for i in 0..30 {
        let store = if i % 2 == 0 { a.clone() } else { b.clone() };
        uses.push(tokio::spawn(async move {
            store.use_bucket("k", ten, TAKE).await
        }));
    }
    let mut taken = 0;
    for u in uses {
        if u.await.unwrap().unwrap() == BucketAnswer::Taken {
            taken += 1;
        }
    }
    assert_eq!(taken, 10);
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_charge_counts_without_room_and_a_refund_gives_one_back_up_to_the_burst() {
    let (a, b, admin, schema) = nodes_or_skip!();
    assert_eq!(
        a.bucket_tokens("k", THREE).await,
        Ok(3.0),
        "a new key is full"
    );
    for _ in 0..5 {
        assert_eq!(
            b.use_bucket("k", THREE, CHARGE).await,
            Ok(BucketAnswer::Taken)
        );
    }
    assert_eq!(
        a.bucket_tokens("k", THREE).await,
        Ok(0.0),
        "never below zero"
    );
    a.use_bucket("k", THREE, REFUND).await.unwrap();
    assert_eq!(
        b.use_bucket("k", THREE, TAKE).await,
        Ok(BucketAnswer::Taken)
    );
    for _ in 0..5 {
        a.use_bucket("k", THREE, REFUND).await.unwrap();
    }
    assert_eq!(
        b.bucket_tokens("k", THREE).await,
        Ok(3.0),
        "never above the burst"
    );
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_use_that_needs_a_full_bucket_waits_for_every_token() {
    let (a, b, admin, schema) = nodes_or_skip!();
    let when_full = BucketUse {
        need: THREE.burst,
        cost: 1.0,
    };
    assert_eq!(
        a.use_bucket("k", THREE, when_full).await,
        Ok(BucketAnswer::Taken)
    );
    let tokens = short(b.use_bucket("k", THREE, when_full).await.unwrap());
    assert!((tokens - 2.0).abs() < 1e-9, "{tokens}");
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_bucket_refills_on_the_databases_clock_and_refilled_buckets_are_swept() {
    let (a, b, admin, schema) = nodes_or_skip!();
    // One token every 100 ms, two at most.
    let shape = BucketShape {
        burst: 2.0,
        per_ms: 0.01,
    };
    a.use_bucket("slow", shape, TAKE).await.unwrap();
    a.use_bucket("slow", shape, TAKE).await.unwrap();
    let tokens = short(b.use_bucket("slow", shape, TAKE).await.unwrap());
    assert!(tokens < 1.0, "{tokens}");
    // A bucket that never refills stays, whatever the time.
    a.use_bucket("never", THREE, TAKE).await.unwrap();
    tokio::time::sleep(Duration::from_millis(120)).await;
    assert_eq!(
        b.use_bucket("slow", shape, TAKE).await,
        Ok(BucketAnswer::Taken)
    );
    tokio::time::sleep(Duration::from_millis(250)).await;
    assert_eq!(a.sweep_buckets().await, Ok(1), "the refilled bucket only");
    assert_eq!(a.bucket_tokens("slow", shape).await, Ok(2.0));
    assert_eq!(b.bucket_tokens("never", THREE).await, Ok(2.0));
    drop_schema(&admin, &schema).await;
}
