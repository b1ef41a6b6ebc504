/** The dependency rules every service's {@code DependencyRulesTest} checks: one rule set for the whole house. */
package dev.payments.architecture;
