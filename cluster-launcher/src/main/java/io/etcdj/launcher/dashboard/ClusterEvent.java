package io.etcdj.launcher.dashboard;

/**
 * One line of the dashboard's event log.
 *
 * @param kind leader, member, fault, membership, health, action, error or key: the page colours by it
 */
record ClusterEvent(long seq, long at, String kind, String text) {}
