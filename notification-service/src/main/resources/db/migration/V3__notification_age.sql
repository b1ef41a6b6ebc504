-- The retention job finds old delivered or given-up notifications by age (docs/operations.md, "Retention").
CREATE INDEX notifications_created_at_idx ON notifications (created_at);
