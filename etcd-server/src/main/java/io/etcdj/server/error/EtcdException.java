package io.etcdj.server.error;

/** A request failed with one of etcd's errors; carried as a value through apply and the API layer. */
public final class EtcdException extends RuntimeException {
    private final EtcdError error;

    public EtcdException(EtcdError error) {
        super(error.text(), null, false, false);
        this.error = error;
    }

    public EtcdError error() {
        return error;
    }
}
