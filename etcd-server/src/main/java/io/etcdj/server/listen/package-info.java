/**
 * Where a listen or peer URL binds and how it is dialed: TCP for http/https, a unix domain socket
 * for unix/unixs (etcd's socket file named by the URL's host:port, relative to the working
 * directory). Owns the mapping from URL to socket address and Netty channel type, and which of a
 * server's calls run on its event loops ({@code OffEventLoop}); it does not build servers or hold
 * connections.
 */
package io.etcdj.server.listen;
