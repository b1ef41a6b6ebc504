/** The local stack launcher: embedded PostgreSQL and Kafka in this JVM, every service in its own JVM, and a control surface for drills. */
package dev.payments.localstack;
