/**
 * The scenarios, one per failure of the field reports (each a picocli command, registered in
 * {@link dev.payments.drills.scenario.Scenarios}), and the runner that starts, loads, observes and audits any of them.
 */
package dev.payments.drills.scenario;
