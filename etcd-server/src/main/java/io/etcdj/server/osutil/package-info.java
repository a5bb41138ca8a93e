/** Process-level behaviour etcd's pkg/osutil gives its commands: how a signal ends the process. */
package io.etcdj.server.osutil;
