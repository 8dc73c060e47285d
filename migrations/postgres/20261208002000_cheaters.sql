-- Issue #38: a moderator marks a cheater. The account is marked (its profile says so) and the rating gains of its
-- rated games are removed by recomputing their pools without them (store/src/refund.rs); the audit log says who
-- marked it, when and why.
ALTER TABLE users ADD COLUMN marked_cheater_at BIGINT;
