/** The command line: one subcommand per registered scenario, with the common options for the stack and the reports. */
package dev.payments.drills.cli;
