/** A benchmark main (not a test): hanging, slow and fast requests against a simulator in a child JVM. */
package dev.payments.pgsim.bench;
