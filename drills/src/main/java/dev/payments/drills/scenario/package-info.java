/** The scenarios, one per failure of the field reports, and the runner that measures any of them. */
package dev.payments.drills.scenario;
