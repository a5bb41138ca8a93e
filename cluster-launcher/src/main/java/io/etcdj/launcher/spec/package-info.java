/**
 * The cluster description: what a cluster file (Procfile-style YAML or plain Procfile) says, as
 * immutable values, and the parsers that produce them with line-numbered errors.
 *
 * <p>Owns parsing and validation only. It must not start processes, open sockets or touch the
 * file system beyond reading the cluster file.
 */
package io.etcdj.launcher.spec;
