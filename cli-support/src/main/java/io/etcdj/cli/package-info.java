/**
 * The command-line plumbing every tool of the project shares, so that etcdctl and etcdutl fail, parse
 * and print the way etcd's tools (cobra, pflag, cobrautl) do, and our own tools (cluster-launcher,
 * etcd-certs, benchmark) the way each other do, from one implementation:
 * <ul>
 *   <li>{@link io.etcdj.cli.ExitCodes}: every tool's exit codes, the one table;</li>
 *   <li>{@link io.etcdj.cli.CliException} and {@link io.etcdj.cli.ErrorReporter}: the typed failure
 *       and the one place where a failure becomes its error line and an exit code;</li>
 *   <li>{@link io.etcdj.cli.ToolCommandLine}: the picocli set-up of the launcher, etcd-certs and
 *       benchmark (streams, usage errors, failures, exit codes);</li>
 *   <li>{@link io.etcdj.cli.PflagErrors}, {@link io.etcdj.cli.GoValues},
 *       {@link io.etcdj.cli.GoDuration}: pflag's and Go's words for bad flags and values, and Go's
 *       durations;</li>
 *   <li>{@link io.etcdj.cli.GlobalFlag}, {@link io.etcdj.cli.PersistentFlags}: cobra's persistent
 *       (global) flags, taken out of a command line wherever they stand;</li>
 *   <li>{@link io.etcdj.cli.OutputFormat}, {@link io.etcdj.cli.AsciiTable},
 *       {@link io.etcdj.cli.GoJsonString}: the {@code -w} option and the table and JSON pieces the
 *       tools print with;</li>
 *   <li>{@code io.etcdj.cli.goflag}: Go's flag and pflag conventions without picocli, for the etcd
 *       binary's own flags.</li>
 * </ul>
 *
 * <p>Owns only what is the same in several tools. It must not know any command, client, server or
 * protobuf type (it depends on picocli alone, and the server uses it with picocli excluded: the
 * classes it uses, GoDuration, GoJsonString and the goflag package, need only the JDK), and it
 * never writes to a stream it was not given nor exits the process. Each tool's help layout stays
 * with the tool: etcdctl 3.4 prints its own NAME/USAGE template, etcdutl its own.
 */
package io.etcdj.cli;
