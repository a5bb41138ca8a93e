/**
 * etcdctl's commands, one class per command (a group's subcommands are nested classes of the noun's
 * file). Each validates its arguments with etcdctl's messages, sends requests through the shared
 * client, and hands responses to the chosen printer.
 *
 * <p>Commands must not format output themselves beyond etcdctl's plain sentences, and must not
 * parse global flags (io.etcdj.ctl.cli owns those).
 */
package io.etcdj.ctl.command;
