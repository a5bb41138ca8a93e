/**
 * The machinery of {@code etcdctl check perf}: workload models, a paced write load, latency
 * statistics and the terminal progress counter etcdctl draws while the check runs.
 *
 * <p>It owns no command-line parsing (io.etcdj.ctl.command) and prints only the progress line; the
 * command prints the verdict.
 */
package io.etcdj.ctl.check;
