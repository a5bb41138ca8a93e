/**
 * The interactive shell ({@code etcdctl shell}), an etcdj addition: runs every etcdctl command line by
 * line over one kept connection, with history and completion of commands, flags and live keys.
 *
 * <p>Owns the terminal loop and completion only; each line is executed by
 * {@link io.etcdj.ctl.cli.EtcdctlApp} exactly as on the command line.
 */
package io.etcdj.ctl.shell;
