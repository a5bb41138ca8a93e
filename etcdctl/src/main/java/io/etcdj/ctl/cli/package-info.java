/**
 * etcdctl's own command-line machinery: its global flags and ETCDCTL_* variables
 * ({@link io.etcdj.ctl.cli.GlobalOptions}, {@link io.etcdj.ctl.cli.GlobalArgs}), one invocation
 * ({@link io.etcdj.ctl.cli.EtcdctlApp}), etcdctl 3.4's help layout
 * ({@link io.etcdj.ctl.cli.UsageRenderer}), and the per-invocation {@link io.etcdj.ctl.cli.CtlContext}.
 * What etcdctl shares with etcdutl (exit codes, the typed failure and its reporting, pflag's error
 * texts, global-flag splitting, Go value parsing) is in {@code io.etcdj.cli} (module cli-support).
 *
 * <p>Owns how an invocation is parsed, reported and exited; it must not contain command logic
 * (io.etcdj.ctl.command) or output formats (io.etcdj.ctl.printer).
 */
package io.etcdj.ctl.cli;
