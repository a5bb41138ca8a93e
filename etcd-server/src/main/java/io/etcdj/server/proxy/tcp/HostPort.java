package io.etcdj.server.proxy.tcp;

/** Go's net.SplitHostPort, enough for endpoints and listen addresses ("h:p", "[v6]:p", ":p"). */
record HostPort(String host, String portText) {
    static HostPort split(String s) {
        String host;
        String port;
        if (s.startsWith("[")) {
            int end = s.indexOf("]:");
            if (end < 0) {
                return null;
            }
            host = s.substring(1, end);
            port = s.substring(end + 2);
        } else {
            int colon = s.lastIndexOf(':');
            if (colon < 0 || s.indexOf(':') != colon) {
                return null;
            }
            host = s.substring(0, colon);
            port = s.substring(colon + 1);
        }
        return new HostPort(host, port);
    }

    /** The port as etcd reads it (Sscanf "%d" into a uint16): leading digits, 0 when there are none. */
    int port() {
        int i = 0;
        while (i < portText.length() && Character.isDigit(portText.charAt(i))) {
            i++;
        }
        if (i == 0) {
            return 0;
        }
        try {
            return (int) (Long.parseLong(portText.substring(0, Math.min(i, 18))) & 0xFFFF);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
