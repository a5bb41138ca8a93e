package io.etcdj.launcher.spec;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/** Parsing and checking of the http(s)://host:port URLs etcd flags take. */
final class Urls {
  private Urls() {}

  static List<URI> parseList(String commaSeparated, String what) throws EtcdCommandParser.ParseError {
    List<URI> urls = new ArrayList<>();
    for (String part : commaSeparated.split(",")) {
      if (!part.isBlank()) {
        urls.add(parse(part.trim(), what));
      }
    }
    if (urls.isEmpty()) {
      throw new EtcdCommandParser.ParseError(what + " is empty");
    }
    return urls;
  }

  static URI parse(String text, String what) throws EtcdCommandParser.ParseError {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new EtcdCommandParser.ParseError(what + ": invalid URL \"" + text + "\"");
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
      throw new EtcdCommandParser.ParseError(what + ": URL scheme must be http or https (got \"" + text + "\")");
    }
    if (uri.getHost() == null || uri.getPort() < 0) {
      throw new EtcdCommandParser.ParseError(what + ": URL must have a host and a port (got \"" + text + "\")");
    }
    return uri;
  }
}
