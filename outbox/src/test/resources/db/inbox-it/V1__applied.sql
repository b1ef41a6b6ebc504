-- What the test consumer's effect writes, in the inbox's transaction.
CREATE TABLE applied (
    order_id   uuid PRIMARY KEY,
    order_name text NOT NULL
);
