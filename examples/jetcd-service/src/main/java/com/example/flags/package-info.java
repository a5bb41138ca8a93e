/** An example service on jetcd: feature flags kept in etcd and followed by a watch. */
package com.example.flags;
