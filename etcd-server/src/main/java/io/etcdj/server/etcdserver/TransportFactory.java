package io.etcdj.server.etcdserver;

import io.etcdj.server.transport.PeerHandler;
import io.etcdj.server.transport.Transporter;
import java.io.IOException;

/** Builds the member's peer network around the handler that receives its traffic. */
@FunctionalInterface
public interface TransportFactory {
    Transporter create(PeerHandler handler) throws IOException;
}
