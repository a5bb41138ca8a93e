/**
 * etcdutl: offline tools on a stopped member's data directory or on snapshot files, with etcd
 * 3.6's commands, flags, output formats, error texts and exit codes. This package owns the
 * command line and the printing only; the work on files is done by the server's
 * {@code io.etcdj.server.datadir} package, and nothing here opens the server's files directly.
 * Exit codes, failures and their reporting, pflag's parse errors, the global {@code -w} flag's
 * splitting and formats, the table and JSON strings come from {@code io.etcdj.cli} (module
 * cli-support), shared with etcdctl.
 */
package io.etcdj.etcdutl;
