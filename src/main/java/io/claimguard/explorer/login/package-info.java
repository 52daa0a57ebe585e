/**
 * The explorer's failed-login throttle: failed logins counted per user and per address, and the logins refused
 * while one is throttled. Part of the {@code explorer} layer: may use {@code seal}, {@code support} and {@code config}.
 */
package io.claimguard.explorer.login;
