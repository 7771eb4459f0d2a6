package org.chunkcdm.remote;

import org.chunkcdm.io.remote.ObjectStore;
import org.chunkcdm.io.remote.ObjectStoreProvider;
import org.chunkcdm.io.remote.RemoteLocation;

/**
 * chunkcdm's clients for remote datasets: S3 (and S3-compatible stores) through the AWS SDK for Java v2, plain
 * HTTP(S) through the JDK. Found by {@link java.util.ServiceLoader} from
 * {@code META-INF/services/org.chunkcdm.io.remote.ObjectStoreProvider}.
 */
public final class RemoteProvider implements ObjectStoreProvider {
  @Override
  public boolean supports(RemoteLocation.Kind kind) {
    return true;
  }

  @Override
  public ObjectStore open(RemoteLocation.Root root) {
    if (root.kind() == RemoteLocation.Kind.HTTP) {
      return new HttpStore(root);
    }
    return new S3Store(S3Clients.build(root), root);
  }

  /** chunkcdm's version (from the jar's manifest), for the User-Agent header. */
  static String version() {
    String v = RemoteProvider.class.getPackage() == null ? null : RemoteProvider.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }
}
