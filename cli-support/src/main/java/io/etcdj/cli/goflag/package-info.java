/**
 * Go command lines without picocli: one parser ({@link io.etcdj.cli.goflag.GoFlagParser}) for the two
 * conventions etcd's own binary uses, Go's standard {@code flag} package (the member's flags:
 * {@code -name v}, {@code --name=v}, parsing stops at the first word that is not a flag) and
 * spf13/pflag under cobra (the {@code gateway} and {@code grpc-proxy} commands: {@code --name v},
 * {@code -h}, words and flags mixed), each with its exact error texts
 * ({@code flag provided but not defined: -x}, {@code unknown flag: --x}). Value kinds parse with
 * strconv's and time's rules ({@link io.etcdj.cli.goflag.FlagKind}).
 *
 * <p>Depends on the JDK and {@link io.etcdj.cli.GoDuration}/{@link io.etcdj.cli.GoValues} alone: the
 * server uses it with cli-support's picocli dependency excluded.
 */
package io.etcdj.cli.goflag;
