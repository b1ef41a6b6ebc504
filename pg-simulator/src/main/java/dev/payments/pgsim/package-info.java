/** A Toss-Payments-like payment gateway with runtime fault injection, started in-process or with {@code java -jar}. */
package dev.payments.pgsim;
