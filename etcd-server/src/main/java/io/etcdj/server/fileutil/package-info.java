/**
 * Durability of files and directories (etcd's {@code fileutil}): fsync of a file, of a directory
 * after a create, rename or unlink in it, and a rename that survives a power cut.
 */
package io.etcdj.server.fileutil;
