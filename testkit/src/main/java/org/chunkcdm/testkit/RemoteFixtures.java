package org.chunkcdm.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ServiceLoader;

/**
 * Copies of the fixtures in a remote store, so that {@link IospContract} runs every format's contract against
 * them: the chunkcdm-remote tests register one (an S3 server on 127.0.0.1) in
 * {@code META-INF/services/org.chunkcdm.testkit.RemoteFixtures}; elsewhere there is none and the contract reads
 * the local files.
 */
public interface RemoteFixtures {
  /** How many location forms {@link #remote} offers (e.g. {@code s3://}, {@code cdms3://}, {@code http://}). */
  int forms();

  /** A short name of location form {@code form}, for test names. */
  String formName(int form);

  /** Whether NetcdfDatasets can open locations of this form without asking the server what it is. */
  boolean datasetsOpen(int form);

  /**
   * Whether locations of this form can list a directory's children (S3 can, plain HTTP cannot): a fixture that
   * {@link IospContract#needsListing needs listing} must then fail to open with a message saying so.
   */
  default boolean canList(int form) {
    return true;
  }

  /** The remote copy of a local fixture file or directory (uploaded on first use) in location form {@code form}. */
  Path remote(Path local, int form) throws IOException;

  /** Uploads (again) a private local file or tree and returns its remote copy in form 0; a second call replaces it. */
  Path upload(Path local) throws IOException;

  /** The registered implementation, or null for local runs. */
  static RemoteFixtures active() {
    return Holder.ACTIVE;
  }

  /** Looked up once. */
  final class Holder {
    static final RemoteFixtures ACTIVE = ServiceLoader.load(RemoteFixtures.class).findFirst().orElse(null);

    private Holder() {}
  }
}
