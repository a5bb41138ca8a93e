/**
 * etcdctl for etcdj: the entry point and the command tree. Owns which commands exist; the commands
 * themselves live in io.etcdj.ctl.command, parsing in io.etcdj.ctl.cli, formats in io.etcdj.ctl.printer.
 */
package io.etcdj.ctl;
