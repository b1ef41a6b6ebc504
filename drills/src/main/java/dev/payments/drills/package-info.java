/** Failure drills: each field report (shared/SEEDS.md) reproduced against the whole system, measured and reported. */
package dev.payments.drills;
