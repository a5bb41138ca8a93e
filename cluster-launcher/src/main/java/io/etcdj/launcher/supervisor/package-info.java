/**
 * The supervisor: the one process that owns a running cluster's members and proxies, in the
 * foreground ({@code up}) or in the background ({@code up --detach}). Other launcher commands
 * reach it through its control port on 127.0.0.1, found in the state file under the base dir.
 *
 * <p>Owns member lifecycles, membership changes and fault rules. It must not parse command lines
 * or print to the user's terminal except through the sinks it is given.
 */
package io.etcdj.launcher.supervisor;
