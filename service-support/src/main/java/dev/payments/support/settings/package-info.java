/** Settings every service shares and checks before it starts: actuator on its own port, no missing secrets. */
package dev.payments.support.settings;
