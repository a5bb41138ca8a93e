/**
 * The {@code etcd-certs} command line (picocli, set up by cli-support's ToolCommandLine): one class
 * per command, errors mapped to exit codes in {@link io.etcdj.certs.cli.Main#failure} only.
 * Commands parse flags and print; all certificate work is delegated to {@code io.etcdj.certs} and
 * {@code io.etcdj.certs.cfssl}.
 */
package io.etcdj.certs.cli;
