package io.claimguard.broker;

import java.util.Locale;

/**
 * The four logins ClaimGuard's broker knows, each with a role of its own and nothing more than its work needs (see
 * {@link BrokerPermissions}): ClaimGuard itself, the producers of verifier results, the consumers of effective results
 * and the operators.
 */
public enum BrokerRole {

    /** ClaimGuard itself: takes the input queue, sends to the output and dead-letter queues. */
    SERVICE("claimguard"),
    /** A producer of verifier results: sends to the input queue. */
    PRODUCER("producer"),
    /** A consumer of effective results: takes and browses the output queue. */
    CONSUMER("consumer"),
    /** An operator: browses the dead-letter queue, re-drives to the input queue, manages the broker. */
    OPERATOR("operator");

    private final String generatedUser;

    BrokerRole(String generatedUser) {
        this.generatedUser = generatedUser;
    }

    /**
     * How the role is named in the credentials file ({@code <key>.user}), in {@code claimguard.broker.users.<key>} and in
     * messages: {@code service}, {@code producer}, {@code consumer}, {@code operator}.
     */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The Artemis role a login of this kind has, on the embedded broker and in {@code deploy/artemis}: prefixed, so
     * that it cannot clash with a role an organisation's broker already has.
     */
    public String artemisRole() {
        return "claimguard-" + key();
    }

    /** The user name a generated login of this kind gets. */
    public String generatedUser() {
        return generatedUser;
    }
}
