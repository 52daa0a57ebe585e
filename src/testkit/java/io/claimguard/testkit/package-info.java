/**
 * What tests and harnesses share: the one envelope builder and the examples, a database per run, brokers started
 * as processes of their own (Artemis, Kafka) and their clients, the service jar in a process, free ports and a TCP
 * proxy. May use the service's classes; the service uses nothing of it.
 */
package io.claimguard.testkit;
