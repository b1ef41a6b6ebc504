/** Incident recovery: moving a consumer group's offsets to a timestamp, and one order's replay dry run; Kafka ports. */
package dev.payments.reconciliation.application.replay;
