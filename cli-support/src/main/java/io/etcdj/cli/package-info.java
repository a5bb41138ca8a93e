/**
 * The command-line plumbing etcdctl and etcdutl share, so that both fail, parse and print the way
 * etcd's tools (cobra, pflag, cobrautl) do, from one implementation:
 * <ul>
 *   <li>{@link io.etcdj.cli.ExitCodes}: etcd's exit codes (cobrautl), the one table;</li>
 *   <li>{@link io.etcdj.cli.CliException} and {@link io.etcdj.cli.ErrorReporter}: the typed failure
 *       and the one place where a failure becomes {@code Error: <text>} and an exit code;</li>
 *   <li>{@link io.etcdj.cli.PflagErrors}, {@link io.etcdj.cli.GoValues}: pflag's and Go's words for
 *       bad flags and values;</li>
 *   <li>{@link io.etcdj.cli.GlobalFlag}, {@link io.etcdj.cli.PersistentFlags}: cobra's persistent
 *       (global) flags, taken out of a command line wherever they stand;</li>
 *   <li>{@link io.etcdj.cli.OutputFormat}, {@link io.etcdj.cli.AsciiTable},
 *       {@link io.etcdj.cli.GoJsonString}: the {@code -w} option and the table and JSON pieces both
 *       tools print with.</li>
 * </ul>
 *
 * <p>Owns only what is the same in both tools. It must not know any command, client, server or
 * protobuf type (it depends on picocli alone), and it never writes to a stream it was not given nor
 * exits the process. Each tool's help layout stays with the tool: etcdctl 3.4 prints its own
 * NAME/USAGE template, etcdutl its own.
 */
package io.etcdj.cli;
