package org.chunkcdm.remote;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;

/**
 * s3proxy (Maven Central, in-memory backend) as a loopback S3 server for the tests: a child JVM on 127.0.0.1,
 * a free port, SigV4 with a fixed test key pair; objects are uploaded {@code public-read}, so plain HTTP GETs of
 * {@code http://127.0.0.1:PORT/bucket/key} read them anonymously. {@link #https()} adds a TLS endpoint with a
 * self-signed certificate for 127.0.0.1/localhost (trusted by this JVM's default SSL context). Stopped by
 * {@link #close()} or at JVM exit.
 */
public final class S3Server implements AutoCloseable {
  public static final String KEY_ID = "AKIDCHUNKCDMTEST";
  public static final String SECRET = "chunkcdm-test-secret-not-a-real-one";

  private final Path dir;
  private final int port;
  private final int tlsPort;
  private Process process;
  private final S3Client admin;

  private S3Server(Path dir, int port, int tlsPort) throws IOException {
    this.dir = dir;
    this.port = port;
    this.tlsPort = tlsPort;
    start();
    this.admin = S3Client.builder()
        .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(60)).build())
        .endpointOverride(URI.create(endpoint())).forcePathStyle(true).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(KEY_ID, SECRET)))
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED).build();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      stop();
      removeDir(); // its settings, key store and log: nothing of a test run stays in the temporary directory
    }));
  }

  /** A new server (plain HTTP only, or also TLS). */
  public static S3Server start(boolean tls) throws IOException {
    Path dir = Files.createTempDirectory("chunkcdm-s3proxy");
    int port = freePort();
    int tlsPort = tls ? freePort() : -1;
    if (tls) {
      TestTls.keystore(dir.resolve("keystore.p12"));
    }
    return new S3Server(dir, port, tlsPort);
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return s.getLocalPort();
    }
  }

  public int port() {
    return port;
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** The TLS endpoint ({@code https://localhost:PORT}), or null. */
  public String https() {
    return tlsPort < 0 ? null : "https://localhost:" + tlsPort;
  }

  public int tlsPort() {
    return tlsPort;
  }

  public S3Client admin() {
    return admin;
  }

  /** Starts (or restarts, on the same ports, with empty storage) the server and waits until it answers. */
  public synchronized void start() throws IOException {
    if (process != null && process.isAlive()) {
      return;
    }
    Path props = dir.resolve("s3proxy.properties");
    List<String> lines = new ArrayList<>(List.of(
        "s3proxy.endpoint=http://127.0.0.1:" + port,
        "s3proxy.authorization=aws-v2-or-v4",
        "s3proxy.identity=" + KEY_ID,
        "s3proxy.credential=" + SECRET,
        "jclouds.provider=transient",
        "jclouds.identity=unused",
        "jclouds.credential=unused"));
    if (tlsPort >= 0) {
      lines.add("s3proxy.secure-endpoint=https://127.0.0.1:" + tlsPort);
      lines.add("s3proxy.keystore-path=" + dir.resolve("keystore.p12"));
      lines.add("s3proxy.keystore-password=" + TestTls.PASSWORD);
    }
    Files.write(props, lines);
    String jar = System.getProperty("s3proxy.jar");
    if (jar == null || !Files.isRegularFile(Paths.get(jar))) {
      throw new IllegalStateException("s3proxy.jar (system property) not found: " + jar);
    }
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-jar", jar, "--properties", props.toString());
    pb.redirectErrorStream(true);
    pb.redirectOutput(dir.resolve("s3proxy.log").toFile());
    pb.environment().put("LOG_LEVEL", "warn");
    process = pb.start();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < until) {
      if (!process.isAlive()) {
        throw new IOException("s3proxy exited: " + Files.readString(dir.resolve("s3proxy.log")));
      }
      try {
        HttpURLConnection c = (HttpURLConnection) URI.create(endpoint() + "/").toURL().openConnection();
        c.setConnectTimeout(500);
        c.setReadTimeout(2000);
        int s = c.getResponseCode();
        c.disconnect();
        if (s > 0) {
          return;
        }
      } catch (IOException e) {
        // not yet
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while starting s3proxy");
      }
    }
    stop();
    throw new IOException("s3proxy did not answer within 60 s");
  }

  /** Stops the server (its in-memory objects are gone). */
  public synchronized void stop() {
    if (process != null) {
      process.destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          process.waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      process = null;
    }
  }

  private void removeDir() {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // the JVM is exiting: a file the server still held stays
    }
  }

  public void createBucket(String bucket) {
    try {
      admin.createBucket(b -> b.bucket(bucket));
    } catch (BucketAlreadyOwnedByYouException e) {
      // there already
    }
  }

  /** Uploads one object, readable anonymously. */
  public void put(String bucket, String key, byte[] bytes) {
    admin.putObject(b -> b.bucket(bucket).key(key).acl(ObjectCannedACL.PUBLIC_READ), RequestBody.fromBytes(bytes));
  }

  public void delete(String bucket, String key) {
    admin.deleteObject(b -> b.bucket(bucket).key(key));
  }

  /** Uploads a file, or every file of a directory tree, as {@code prefix/relative/path}. */
  public void upload(String bucket, String prefix, Path local) throws IOException {
    if (Files.isRegularFile(local)) {
      put(bucket, prefix, Files.readAllBytes(local));
      return;
    }
    try (Stream<Path> s = Files.walk(local)) {
      for (Path f : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
        String rel = local.relativize(f).toString().replace('\\', '/');
        put(bucket, prefix.isEmpty() ? rel : prefix + "/" + rel, Files.readAllBytes(f));
      }
    }
  }

  @Override
  public void close() {
    stop();
    admin.close();
  }
}
