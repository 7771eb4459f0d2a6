package org.chunkcdm.remote;

import java.io.IOException;
import java.net.URI;
import org.chunkcdm.io.remote.ObjectStore;
import org.chunkcdm.io.remote.ObjectStoreProvider;
import org.chunkcdm.io.remote.RemoteLocation;
import org.chunkcdm.io.remote.RemoteStores;

/**
 * A {@link FaultProxy} in front of the shared test server, and every S3 location's client sent through it
 * (while installed): tests count and disturb exactly the requests a read makes.
 */
final class Proxied implements AutoCloseable {
  final S3Server server = S3Fixtures.server();
  final FaultProxy proxy;
  private final ObjectStoreProvider provider;

  Proxied() throws IOException {
    proxy = new FaultProxy(server.port());
    URI ep = URI.create(proxy.endpoint());
    provider = new ObjectStoreProvider() {
      @Override
      public boolean supports(RemoteLocation.Kind kind) {
        return kind == RemoteLocation.Kind.S3;
      }

      @Override
      public ObjectStore open(RemoteLocation.Root root) {
        return new S3Store(S3Clients.build(root, ep), root);
      }
    };
    RemoteStores.addProvider(provider);
    RemoteStores.reset();
  }

  /** The anonymous HTTP URL of a key of the fixtures bucket, through the proxy. */
  String http(String key) {
    return proxy.endpoint() + "/" + S3Fixtures.BUCKET + "/" + key;
  }

  /** The s3:// location of a key of the fixtures bucket (its client goes through the proxy). */
  String s3(String key) {
    return "s3://" + S3Fixtures.BUCKET + "/" + key;
  }

  @Override
  public void close() throws IOException {
    RemoteStores.removeProvider(provider);
    RemoteStores.reset();
    proxy.close();
  }
}
