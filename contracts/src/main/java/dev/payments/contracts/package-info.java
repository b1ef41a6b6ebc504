/** The wire contract between services: event envelope, logical event types, topics and their JSON form. */
package dev.payments.contracts;
