/**
 * The audit explorer: read-only pages and their reads through {@code claimguard_reader} on the runtime login, SVG
 * plots, the web login and the management port's rules, the operators checked before the start.
 * May use {@code seal} (a row's seal check), {@code support} and {@code config}.
 */
package io.claimguard.explorer;
