/**
 * The wire contract between services (event envelope, logical event types, topics and their JSON form) and the one
 * value every service's domain shares with it, {@link dev.payments.contracts.Money}.
 */
package dev.payments.contracts;
