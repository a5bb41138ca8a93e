/**
 * The version strings a member reports. Owns nothing else; every package may use it, it uses none.
 */
package io.etcdj.server.version;
