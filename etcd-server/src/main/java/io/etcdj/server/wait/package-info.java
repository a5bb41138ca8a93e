/**
 * Client calls waiting for their proposals to be applied, by request ID; completed on an
 * executor of the caller's, never on the apply thread.
 */
package io.etcdj.server.wait;
