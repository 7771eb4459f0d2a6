package org.chunkcdm.io.remote;

import java.io.IOException;

/**
 * Makes {@link ObjectStore} clients (the {@code chunkcdm-remote} module provides S3 and HTTP); registered in
 * {@code META-INF/services/org.chunkcdm.io.remote.ObjectStoreProvider}.
 */
public interface ObjectStoreProvider {
  /** True when this provider makes clients for roots of this kind. */
  boolean supports(RemoteLocation.Kind kind);

  /** A client for the store of {@code root}; called once per store and kept for the life of the process. */
  ObjectStore open(RemoteLocation.Root root) throws IOException;
}
