/** Kafka as an operator tool: consumer groups' offsets (replay) and reading an order's records back (dry run). */
package dev.payments.reconciliation.adapter.out.kafka;
