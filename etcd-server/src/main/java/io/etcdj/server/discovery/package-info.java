/**
 * Finding a cluster through DNS: SRV lookups (the JDK's DNS provider) for the gateway, the gRPC
 * proxy and a member's --discovery-srv bootstrap, which turns the _etcd-server(-ssl) records
 * into the initial cluster etcd would build from them. Owns name resolution only; must not
 * depend on the configuration or the server (it throws its own exception).
 */
package io.etcdj.server.discovery;
