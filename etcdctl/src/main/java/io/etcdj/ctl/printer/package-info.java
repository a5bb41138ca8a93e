/**
 * Output formats of etcdctl: one {@link io.etcdj.ctl.printer.Printer} implementation per {@code -w} value
 * (simple, json, fields, table, protobuf), each producing etcdctl 3.4's bytes for the same response.
 *
 * <p>Printers only format; they never call the server and never decide exit codes, except that
 * a format that does not support a response raises {@link io.etcdj.cli.CliException} as etcdctl does.
 */
package io.etcdj.ctl.printer;
