/**
 * Server configuration as etcd takes it: flags, ETCD_* environment variables and the YAML config
 * file, validated into a typed {@link io.etcdj.server.config.ServerConfig}. No I/O beyond reading
 * the config file.
 */
package io.etcdj.server.config;
