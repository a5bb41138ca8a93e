package io.etcdj.certs.cfssl;

/**
 * Starting points for {@code print-defaults config} and {@code print-defaults csr}, in cfssl's
 * shapes: a signing config with a server ("www") and a client profile, and an ECDSA request.
 * Users edit them, as the transport-security guide does after {@code cfssl print-defaults}.
 */
public final class CfsslDefaults {
    private CfsslDefaults() {
    }

    public static String config() {
        return """
        {
            "signing": {
                "default": {
                    "expiry": "168h"
                },
                "profiles": {
                    "www": {
                        "expiry": "8760h",
                        "usages": [
                            "signing",
                            "key encipherment",
                            "server auth"
                        ]
                    },
                    "client": {
                        "expiry": "8760h",
                        "usages": [
                            "signing",
                            "key encipherment",
                            "client auth"
                        ]
                    }
                }
            }
        }
            """;
    }

    public static String csr() {
        return """
        {
            "CN": "example.net",
            "hosts": [
                "example.net",
                "www.example.net"
            ],
            "key": {
                "algo": "ecdsa",
                "size": 256
            },
            "names": [
                {
                    "C": "US",
                    "ST": "CA",
                    "L": "San Francisco"
                }
            ]
        }
            """;
    }
}
