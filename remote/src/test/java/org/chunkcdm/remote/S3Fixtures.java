package org.chunkcdm.remote;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.chunkcdm.cdm.RemoteRafProvider;
import org.chunkcdm.io.Locations;
import org.chunkcdm.io.remote.RemoteStores;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.RemoteFixtures;

/**
 * The fixtures on the shared loopback S3 server ({@link #server()}: started once per test JVM), for every
 * format's {@link org.chunkcdm.testkit.IospContract}: a fixture family is uploaded to bucket {@code fixtures} on
 * its first use (key = its path under {@code testdata/}); other files (a module's test resources, a cache case's
 * private copy) go under {@code extra/N/}. Three location forms: {@code s3://} (endpoint and key pair from the
 * {@code aws.*} system properties this class sets), {@code cdms3://localhost:PORT/...} over TLS, and anonymous
 * {@code http://127.0.0.1:PORT/fixtures/...}.
 */
public final class S3Fixtures implements RemoteFixtures {
  public static final String BUCKET = "fixtures";
  private static volatile S3Server server;
  private static final Map<Path, String> UPLOADED = new ConcurrentHashMap<>();
  private static final AtomicInteger EXTRA = new AtomicInteger();

  /** The shared server (started, the bucket made, the AWS settings set, on first use). */
  public static synchronized S3Server server() {
    if (server == null) {
      try {
        S3Server s = S3Server.start(true);
        s.createBucket(BUCKET);
        System.setProperty("aws.endpointUrl", s.endpoint());
        System.setProperty("aws.accessKeyId", S3Server.KEY_ID);
        System.setProperty("aws.secretAccessKey", S3Server.SECRET);
        System.setProperty("aws.region", "us-east-1");
        RemoteStores.reset();
        RemoteRafProvider.register();
        server = s;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return server;
  }

  @Override
  public int forms() {
    return 3;
  }

  @Override
  public String formName(int form) {
    return form == 0 ? "s3" : form == 1 ? "cdms3 https" : "http";
  }

  @Override
  public boolean datasetsOpen(int form) {
    return form != 2; // NetcdfDatasets asks an http server whether it is OPeNDAP or cdmremote first
  }

  @Override
  public boolean canList(int form) {
    return form != 2; // plain HTTP lists nothing
  }

  /** The key of a local fixture: uploads its family (or the file itself) first. */
  public static String key(Path local) throws IOException {
    S3Server s = server();
    Path abs = local.toAbsolutePath().normalize();
    Path data = Fixtures.testdata().toAbsolutePath().normalize();
    if (abs.startsWith(data) && abs.getNameCount() > data.getNameCount()) {
      Path family = data.resolve(abs.getName(data.getNameCount()));
      synchronized (UPLOADED) {
        if (!UPLOADED.containsKey(family)) {
          s.upload(BUCKET, family.getFileName().toString(), family);
          UPLOADED.put(family, family.getFileName().toString());
        }
      }
      return data.relativize(abs).toString().replace('\\', '/');
    }
    synchronized (UPLOADED) {
      String k = UPLOADED.get(abs);
      if (k == null) {
        k = "extra/" + EXTRA.incrementAndGet() + "/" + abs.getFileName();
        s.upload(BUCKET, k, abs);
        UPLOADED.put(abs, k);
      }
      return k;
    }
  }

  static Path location(String key, int form) {
    S3Server s = server();
    switch (form) {
      case 0:
        return Locations.path("s3://" + BUCKET + "/" + key);
      case 1:
        return Locations.path("cdms3://localhost:" + s.tlsPort() + "/" + BUCKET + "?" + key);
      default:
        return Locations.path(s.endpoint() + "/" + BUCKET + "/" + key);
    }
  }

  @Override
  public Path remote(Path local, int form) throws IOException {
    return location(key(local), form);
  }

  @Override
  public Path upload(Path local) throws IOException {
    S3Server s = server();
    Path abs = local.toAbsolutePath().normalize();
    String k;
    synchronized (UPLOADED) {
      k = UPLOADED.get(abs);
      if (k == null) {
        k = "extra/" + EXTRA.incrementAndGet() + "/" + abs.getFileName();
        UPLOADED.put(abs, k);
      }
    }
    s.upload(BUCKET, k, abs);
    return location(k, 0);
  }
}
