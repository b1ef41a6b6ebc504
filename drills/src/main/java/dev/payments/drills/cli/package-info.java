/** The command line: one subcommand per scenario, common options for the stack and the reports. */
package dev.payments.drills.cli;
