package io.etcdj.launcher.supervisor;

/**
 * The supervisor's control protocol, one request per connection on 127.0.0.1. The client sends
 * one line: the secret from the state file and the words of the request, separated by tabs. The
 * server answers with lines that each start with a type letter: {@code O} a line for stdout,
 * {@code E} a line for stderr, and finally {@code X} followed by the exit code.
 */
final class ControlProtocol {
    static final char OUT = 'O';
    static final char ERR = 'E';
    static final char EXIT = 'X';
    static final String SEPARATOR = "\t";

    private ControlProtocol() {}
}
