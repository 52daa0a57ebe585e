-- Kafka delivery counts (issue 26, part 6). Kafka keeps no delivery count: a record whose processing fails, or kills
-- the process, every time would be read again after every failure and restart and hold its partition for ever. The
-- Kafka entry counts, before it processes a batch, how often the first record it holds of each partition (where
-- consumption resumes after a failure or a crash) has been handed to processing without its offset being committed;
-- a record counted more than claimguard.kafka.max-delivery-attempts times is set aside as processing_failed. Once a
-- partition's batch is redelivered, its records are processed one at a time, each committed on its own, so that every
-- record in turn is the first one and is counted alone.
--
-- One row per partition, updated in place: the count starts again at 1 when the first uncommitted offset moves on. Its
-- updates change no indexed column, so they are heap-only and pruned on their page without VACUUM (autovacuum may be
-- off); the spare room on each page (fillfactor) is where they go.

CREATE TABLE claimguard.kafka_delivery (
    topic             text        NOT NULL,
    "partition"       integer     NOT NULL,
    record_offset     bigint      NOT NULL,
    deliveries        integer     NOT NULL CHECK (deliveries >= 1),
    first_delivery_at timestamptz NOT NULL,
    last_delivery_at  timestamptz NOT NULL,
    PRIMARY KEY (topic, "partition")
) WITH (fillfactor = 50);

COMMENT ON TABLE claimguard.kafka_delivery IS
    'How often the first uncommitted record of each input partition has been handed to processing (one row per '
    'partition, updated in place); over claimguard.kafka.max-delivery-attempts it is dead-lettered as processing_failed.';
COMMENT ON COLUMN claimguard.kafka_delivery.record_offset IS 'The offset of the record counted: where consumption resumes';
COMMENT ON COLUMN claimguard.kafka_delivery.deliveries IS
    'How often that record was handed to processing without its offset being committed (a failure, or the process ending)';

-- The service's bookkeeping, not audit: claimguard_writer may add and change these rows (never remove them); the
-- audit tables stay append-only. Analysts may read them.
GRANT SELECT, INSERT, UPDATE ON claimguard.kafka_delivery TO claimguard_writer;
GRANT SELECT ON claimguard.kafka_delivery TO claimguard_reader;
