/**
 * The one harness for process-level tests (Failsafe, {@code *IT}) of every module: etcd members as
 * operating-system processes, ours or the real etcd 3.4, alone or as a cluster, on free loopback
 * ports, with their data in temp dirs.
 *
 * <p>Owns {@link io.etcdj.harness.FreePorts} (ports below the kernel's ephemeral range),
 * {@link io.etcdj.harness.TempDirs}, {@link io.etcdj.harness.LoggedProcess} (a process whose output
 * goes to a log file: start, wait, stop by pid, SIGKILL, log tail), {@link io.etcdj.harness.ServerCommand}
 * (which etcd runs), {@link io.etcdj.harness.EtcdProcess} and {@link io.etcdj.harness.ProcessCluster},
 * the JUnit extensions {@link io.etcdj.harness.EtcdClusterExtension} and {@link io.etcdj.harness.Resources}
 * that remove everything again and attach log tails to a failure, {@link io.etcdj.harness.Eventually},
 * the one wait with a deadline, {@link io.etcdj.harness.LeaderProbe} (a leader in a member's status) and
 * {@link io.etcdj.harness.StrayProcesses} (processes a test caused but did not start, found by their command line).
 *
 * <p>Depends on nothing of the project's: our server is a process started from the packaged build or a
 * {@code bin/} script, and is reached only through its ports. Starts processes on 127.0.0.1 only, stops
 * what it started by its pid, never by name. No wait here is a bare sleep: every wait has a deadline and
 * says, when it runs out, what it waited for and what it saw last.
 */
package io.etcdj.harness;
