package org.chunkcdm.io.remote;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

/**
 * A dataset location in an object store or on an HTTP server, parsed from the forms users and catalogs write:
 * <ul>
 *   <li>{@code s3://bucket/key}: S3, endpoint, region and credentials from the AWS chain;
 *   <li>{@code cdms3:bucket?key}: netcdf-java's form of the same;
 *   <li>{@code cdms3://[profile@]host[:port][/path]/bucket?key[#delimiter=/]}: netcdf-java's form for another
 *       endpoint (https, or http on ports 80, 8008, 8080, 7001, 9080, 16080 as netcdf-java decides; host
 *       {@code aws} means AWS itself); the user part names a profile of the AWS profile files;
 *   <li>{@code http://host[:port]/path} and {@code https://...}: plain ranged GETs, no listing. A query string
 *       (e.g. a presigned URL's signature) is sent with requests for that object and never shown in messages;
 *       user names and passwords in a URL are refused.
 * </ul>
 * A key never starts or ends with {@code /}; the empty key is the bucket (or server) root.
 */
public final class RemoteLocation {
  /** Which kind of client reads a location. */
  public enum Kind {
    S3,
    HTTP
  }

  /** How locations of a root are written back (the form the user gave). */
  public enum Style {
    S3_URL,
    CDMS3,
    CDMS3_AUTHORITY,
    HTTP
  }

  /**
   * The store a location lies in: locations with equal roots share one file system and one client. For S3:
   * {@code endpoint} null means the AWS chain decides ({@code AWS_ENDPOINT_URL}, profiles, else AWS);
   * {@code profile} null means the default profile. For HTTP: {@code endpoint} is {@code scheme://host:port}
   * and {@code bucket} is empty.
   */
  public static final class Root {
    private final Kind kind;
    private final Style style;
    private final URI endpoint;
    private final String profile;
    private final String bucket;
    private final String authorityText; // cdms3 with authority: "[profile@]host[:port]/path/" before the bucket

    Root(Kind kind, Style style, URI endpoint, String profile, String bucket, String authorityText) {
      this.kind = kind;
      this.style = style;
      this.endpoint = endpoint;
      this.profile = profile;
      this.bucket = bucket;
      this.authorityText = authorityText;
    }

    public Kind kind() {
      return kind;
    }

    public Style style() {
      return style;
    }

    /** The endpoint URI, or null when the AWS chain decides (S3 only). */
    public URI endpoint() {
      return endpoint;
    }

    /** The AWS profile named by the location, or null. */
    public String profile() {
      return profile;
    }

    /** The bucket (S3), empty for HTTP. */
    public String bucket() {
      return bucket;
    }

    /** The same store, whatever the style: what one client serves. */
    public String storeId() {
      return kind + "|" + endpoint + "|" + profile + "|" + bucket;
    }

    /** The location of {@code key} in this root's style (never with credentials or a query string). */
    public String format(String key) {
      switch (style) {
        case S3_URL:
          return "s3://" + bucket + "/" + key;
        case CDMS3:
          return "cdms3:" + bucket + "?" + key;
        case CDMS3_AUTHORITY:
          return "cdms3://" + authorityText + bucket + "?" + key;
        default:
          return endpoint + "/" + encodePath(key);
      }
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Root)) {
        return false;
      }
      Root r = (Root) o;
      return kind == r.kind && style == r.style && Objects.equals(endpoint, r.endpoint)
          && Objects.equals(profile, r.profile) && bucket.equals(r.bucket)
          && Objects.equals(authorityText, r.authorityText);
    }

    @Override
    public int hashCode() {
      return Objects.hash(kind, style, endpoint, profile, bucket, authorityText);
    }

    @Override
    public String toString() {
      return format("");
    }
  }

  private final Root root;
  private final String key;
  private final String query; // HTTP only, may be null

  private RemoteLocation(Root root, String key, String query) {
    this.root = root;
    this.key = key;
    this.query = query;
  }

  public Root root() {
    return root;
  }

  /** The object key (HTTP: the decoded path without its leading slash). */
  public String key() {
    return key;
  }

  /** An HTTP location's query string (without '?'), or null. */
  public String query() {
    return query;
  }

  @Override
  public String toString() {
    return root.format(key);
  }

  /** True when {@code location} has one of the remote forms (it may still fail to parse). */
  public static boolean isRemote(String location) {
    if (location == null) {
      return false;
    }
    String l = location.trim().toLowerCase(Locale.ROOT);
    return l.startsWith("s3://") || l.startsWith("cdms3:") || l.startsWith("http://") || l.startsWith("https://");
  }

  /** Parses a remote location; IllegalArgumentException (naming the location, never its credentials) when malformed. */
  public static RemoteLocation parse(String location) {
    String loc = location.trim();
    String lower = loc.toLowerCase(Locale.ROOT);
    if (lower.startsWith("s3://")) {
      String rest = loc.substring(5);
      int slash = rest.indexOf('/');
      String bucket = slash < 0 ? rest : rest.substring(0, slash);
      String key = slash < 0 ? "" : rest.substring(slash + 1);
      int frag = key.indexOf('#');
      key = frag >= 0 ? key.substring(0, frag) : key;
      checkBucket(bucket, location);
      return new RemoteLocation(new Root(Kind.S3, Style.S3_URL, null, null, bucket, null), cleanKey(key), null);
    }
    if (lower.startsWith("cdms3:")) {
      return parseCdms3(loc, location);
    }
    if (lower.startsWith("http://") || lower.startsWith("https://")) {
      return parseHttp(loc, location);
    }
    throw new IllegalArgumentException(safe(location) + ": not an s3://, cdms3:, http:// or https:// location");
  }

  /**
   * The endpoint of a {@code cdms3://host:port/path/} location: netcdf-java's choice of scheme by port, so that
   * catalogs written for cdm-s3 reach the same endpoint.
   */
  private static URI cdms3Endpoint(String host, int port, String endpointPath, String original) {
    String scheme;
    boolean keepPort = true;
    switch (port) {
      case -1:
      case 443:
        scheme = "https";
        keepPort = false;
        break;
      case 80:
        scheme = "http";
        keepPort = false;
        break;
      case 8008:
      case 8080:
      case 7001:
      case 9080:
      case 16080:
        scheme = "http";
        break;
      default:
        scheme = "https";
        break;
    }
    String ep = scheme + "://" + host + (keepPort ? ":" + port : "") + endpointPath;
    if (ep.endsWith("/")) {
      ep = ep.substring(0, ep.length() - 1);
    }
    try {
      return new URI(ep);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(safe(original) + ": bad endpoint " + ep);
    }
  }

  private static RemoteLocation parseCdms3(String loc, String original) {
    String body = loc.substring("cdms3:".length());
    int frag = body.indexOf('#');
    if (frag >= 0) {
      body = body.substring(0, frag); // configuration options (delimiter=/): keys are always read as paths
    }
    int q = body.indexOf('?');
    String before = q < 0 ? body : body.substring(0, q);
    String key = q < 0 ? "" : body.substring(q + 1);
    if (!before.startsWith("//")) {
      checkBucket(before, original);
      return new RemoteLocation(new Root(Kind.S3, Style.CDMS3, null, null, before, null), cleanKey(key), null);
    }
    String rest = before.substring(2);
    int slash = rest.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException(safe(original) + ": a cdms3:// location needs a bucket after the host");
    }
    String authority = rest.substring(0, slash);
    String path = rest.substring(slash); // "/bucket" or "/endpoint/path/bucket", maybe with a trailing slash
    while (path.endsWith("/") && path.length() > 1) {
      path = path.substring(0, path.length() - 1);
    }
    int last = path.lastIndexOf('/');
    String bucket = path.substring(last + 1);
    String endpointPath = path.substring(0, last + 1); // "/" or "/endpoint/path/"
    checkBucket(bucket, original);
    String profile = null;
    String hostPort = authority;
    int at = authority.lastIndexOf('@');
    if (at >= 0) {
      profile = authority.substring(0, at);
      hostPort = authority.substring(at + 1);
      if (profile.contains(":")) {
        throw new IllegalArgumentException(safe(original) + ": the user part of a cdms3 location names an AWS profile; "
            + "credentials do not belong in the location");
      }
    }
    String host = hostPort;
    int port = -1;
    int colon = hostPort.lastIndexOf(':');
    if (colon > 0 && hostPort.indexOf(']') < colon) {
      host = hostPort.substring(0, colon);
      try {
        port = Integer.parseInt(hostPort.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(safe(original) + ": bad port in '" + hostPort + "'");
      }
    }
    if (host.isEmpty()) {
      throw new IllegalArgumentException(safe(original) + ": no host");
    }
    URI endpoint = host.equalsIgnoreCase("aws") ? null : cdms3Endpoint(host, port, endpointPath, original);
    String authorityText = authority + endpointPath;
    return new RemoteLocation(new Root(Kind.S3, Style.CDMS3_AUTHORITY, endpoint, profile, bucket, authorityText),
        cleanKey(key), null);
  }

  private static RemoteLocation parseHttp(String loc, String original) {
    URI u;
    try {
      u = new URI(loc);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(safe(original) + ": not a valid URL (" + e.getReason() + ")");
    }
    if (u.getRawUserInfo() != null) {
      throw new IllegalArgumentException(safe(original) + ": user names and passwords in URLs are not supported");
    }
    if (u.getHost() == null) {
      throw new IllegalArgumentException(safe(original) + ": no host");
    }
    String scheme = u.getScheme().toLowerCase(Locale.ROOT);
    int port = u.getPort();
    String hostPort = u.getHost() + (port >= 0 ? ":" + port : "");
    URI endpoint = URI.create(scheme + "://" + hostPort);
    String path = u.getRawPath() == null ? "" : u.getRawPath();
    StringBuilder key = new StringBuilder();
    for (String seg : path.split("/")) {
      if (!seg.isEmpty()) {
        key.append(key.length() > 0 ? "/" : "").append(URLDecoder.decode(seg.replace("+", "%2B"), StandardCharsets.UTF_8));
      }
    }
    return new RemoteLocation(new Root(Kind.HTTP, Style.HTTP, endpoint, null, "", null), key.toString(),
        u.getRawQuery());
  }

  private static void checkBucket(String bucket, String original) {
    if (bucket.isEmpty() || bucket.contains("/") || bucket.contains("?")) {
      throw new IllegalArgumentException(safe(original) + ": no bucket name");
    }
  }

  private static String cleanKey(String key) {
    String k = key;
    while (k.startsWith("/")) {
      k = k.substring(1);
    }
    while (k.endsWith("/")) {
      k = k.substring(0, k.length() - 1);
    }
    return k;
  }

  /** A key as an URL path: each segment percent-encoded, slashes kept. */
  public static String encodePath(String key) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < key.length(); ) {
      int cp = key.codePointAt(i);
      i += Character.charCount(cp);
      if (cp < 128 && (Character.isLetterOrDigit(cp) || "-._~/!$&'()*+,;=:@".indexOf(cp) >= 0)) {
        sb.append((char) cp);
      } else {
        for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
          sb.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
              .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
        }
      }
    }
    return sb.toString();
  }

  /** A location fit for a message: without credentials in its user part, and (HTTP) without query or fragment. */
  public static String safe(String location) {
    if (location == null) {
      return "null";
    }
    String s = location.trim();
    String lower = s.toLowerCase(Locale.ROOT);
    if (lower.startsWith("http://") || lower.startsWith("https://")) {
      int q = s.indexOf('?');
      s = q >= 0 ? s.substring(0, q) : s;
      int h = s.indexOf('#');
      s = h >= 0 ? s.substring(0, h) : s;
    }
    int start = s.indexOf("://");
    if (start >= 0) {
      start += 3;
      int end = s.indexOf('/', start);
      String auth = end < 0 ? s.substring(start) : s.substring(start, end);
      int at = auth.lastIndexOf('@');
      boolean http = lower.startsWith("http");
      if (at >= 0 && (http || auth.substring(0, at).contains(":"))) { // an AWS profile name is no secret
        s = s.substring(0, start) + auth.substring(at + 1) + (end < 0 ? "" : s.substring(end));
      }
    }
    return s;
  }

}
