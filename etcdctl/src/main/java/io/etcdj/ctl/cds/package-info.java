/**
 * Build-time training for the AppCDS archive: runs typical commands against a canned in-JVM KV
 * service so the archive holds the classes of a successful request, not only of a failed one.
 * Never used at run time; must not be reachable from the command tree.
 */
package io.etcdj.ctl.cds;
