/**
 * The member's sense of time: one {@link io.etcdj.server.clock.Clock} that every time-based
 * decision of a running member reads (Raft ticks, lease expiry, request and read deadlines, the
 * member's timer tasks). A member runs on {@link io.etcdj.server.clock.Clock#SYSTEM}; the in-JVM
 * test cluster runs its members on a manual clock that the test advances. Depends on nothing.
 */
package io.etcdj.server.clock;
