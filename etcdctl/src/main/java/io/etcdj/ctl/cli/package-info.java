/**
 * etcdctl's command-line machinery: global flags and ETCDCTL_* variables, pflag-compatible parsing
 * errors, cobra-style help, exit codes, and the per-invocation {@link io.etcdj.ctl.cli.CtlContext}.
 *
 * <p>Owns how an invocation is parsed, reported and exited; it must not contain command logic
 * (io.etcdj.ctl.command) or output formats (io.etcdj.ctl.printer).
 */
package io.etcdj.ctl.cli;
