/**
 * Shell completion scripts for {@code etcdctl completion} and {@code etcdutl completion}: a tool's
 * command tree's words (subcommands and flags per command path, its global flags everywhere) and
 * the script text for each supported shell.
 *
 * <p>Scripts are computed from the registered picocli model, so they list exactly the commands that
 * are built; this package must not talk to a cluster or parse command lines.
 */
package io.etcdj.cli.completion;
