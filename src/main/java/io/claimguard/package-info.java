/**
 * ClaimGuard: the application class ({@link io.claimguard.ClaimGuardApplication}), which wires the service's packages
 * together and is no layer of its own. What each package holds and may use is said in its {@code package-info.java}
 * and written down once in {@code Architecture.java} (the test sources' {@code architecture} package).
 */
package io.claimguard;
