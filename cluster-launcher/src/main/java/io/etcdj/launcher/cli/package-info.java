/**
 * The picocli commands: one class per noun (cluster lifecycle, member lifecycle, membership,
 * faults, status, logs, env, clean). Commands read the cluster file and state file, start or
 * reach the supervisor, and print; they hold no cluster logic of their own.
 */
package io.etcdj.launcher.cli;
