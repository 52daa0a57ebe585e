package io.claimguard.broker;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What each role may do on which address: the one place this is decided. The embedded broker is secured with it and
 * {@code deploy/artemis/broker.properties} grants the same (a test compares them). Every match here is exact but the
 * management replies', so that on Artemis, where the most specific match is used alone, nothing granted elsewhere
 * ({@code #}) reaches ClaimGuard's queues; nobody may create or delete a queue or an address on them.
 *
 * <table>
 * <caption>Permissions</caption>
 * <tr><th>address</th><th>service</th><th>producer</th><th>consumer</th><th>operator</th></tr>
 * <tr><td>input queue</td><td>consume</td><td>send</td><td></td><td>send (redrive)</td></tr>
 * <tr><td>output queue</td><td>send</td><td></td><td>consume, browse</td><td></td></tr>
 * <tr><td>dead-letter queue</td><td>send</td><td></td><td></td><td>browse</td></tr>
 * <tr><td>management address</td><td></td><td></td><td></td><td>manage</td></tr>
 * <tr><td>management replies ({@code <management address>.#})</td><td></td><td></td><td></td><td>a temporary reply
 * queue: create and delete it and its address, send to it (the broker's reply), consume it</td></tr>
 * </table>
 */
public final class BrokerPermissions {

    /** The Artemis permissions ClaimGuard grants; it never grants creating or deleting a durable queue. */
    public enum Permission {
        SEND, CONSUME, BROWSE, MANAGE, CREATE_NON_DURABLE_QUEUE, DELETE_NON_DURABLE_QUEUE, CREATE_ADDRESS, DELETE_ADDRESS
    }

    private BrokerPermissions() {
    }

    /**
     * The grants, by address match and role: on ClaimGuard's three queues, on the broker's management address, and on
     * the addresses under it where a management request's reply comes back (Artemis' {@code ClientRequestor}, which
     * the {@code artemis} command line uses too, makes its temporary reply queue {@code <management address>.<uuid>},
     * and the broker sends the reply with the requester's login).
     */
    public static Map<String, Map<BrokerRole, Set<Permission>>> grants(String inputQueue, String outputQueue,
            String deadLetterQueue, String managementAddress) {
        Map<String, Map<BrokerRole, Set<Permission>>> grants = new LinkedHashMap<>();
        grant(grants, inputQueue, BrokerRole.SERVICE, Permission.CONSUME);
        grant(grants, inputQueue, BrokerRole.PRODUCER, Permission.SEND);
        grant(grants, inputQueue, BrokerRole.OPERATOR, Permission.SEND);
        grant(grants, outputQueue, BrokerRole.SERVICE, Permission.SEND);
        grant(grants, outputQueue, BrokerRole.CONSUMER, Permission.CONSUME, Permission.BROWSE);
        grant(grants, deadLetterQueue, BrokerRole.SERVICE, Permission.SEND);
        grant(grants, deadLetterQueue, BrokerRole.OPERATOR, Permission.BROWSE);
        grant(grants, managementAddress, BrokerRole.OPERATOR, Permission.MANAGE);
        grant(grants, managementReplies(managementAddress), BrokerRole.OPERATOR, Permission.CREATE_NON_DURABLE_QUEUE,
                Permission.DELETE_NON_DURABLE_QUEUE, Permission.CREATE_ADDRESS, Permission.DELETE_ADDRESS,
                Permission.SEND, Permission.CONSUME);
        return freeze(grants);
    }

    /** The match of the management replies' addresses: every address under the management address. */
    public static String managementReplies(String managementAddress) {
        return managementAddress + ".#";
    }

    private static void grant(Map<String, Map<BrokerRole, Set<Permission>>> grants, String address, BrokerRole role,
            Permission... permissions) {
        Map<BrokerRole, Set<Permission>> roles = grants.computeIfAbsent(address, name -> new EnumMap<>(BrokerRole.class));
        roles.computeIfAbsent(role, any -> EnumSet.noneOf(Permission.class)).addAll(Set.of(permissions));
    }

    private static Map<String, Map<BrokerRole, Set<Permission>>> freeze(Map<String, Map<BrokerRole, Set<Permission>>> grants) {
        Map<String, Map<BrokerRole, Set<Permission>>> frozen = new LinkedHashMap<>();
        grants.forEach((address, roles) -> {
            Map<BrokerRole, Set<Permission>> copy = new EnumMap<>(BrokerRole.class);
            roles.forEach((role, permissions) -> copy.put(role, Collections.unmodifiableSet(EnumSet.copyOf(permissions))));
            frozen.put(address, Collections.unmodifiableMap(copy));
        });
        return Collections.unmodifiableMap(frozen);
    }
}
