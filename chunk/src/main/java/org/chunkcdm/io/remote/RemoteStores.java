package org.chunkcdm.io.remote;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The clients of the object stores in use, one per store, made by the {@link ObjectStoreProvider}s found by
 * {@link ServiceLoader} (this class's loader and the context class loader) or {@link #addProvider added}.
 */
public final class RemoteStores {
  private static final ConcurrentHashMap<String, ObjectStore> STORES = new ConcurrentHashMap<>();
  private static final List<ObjectStoreProvider> ADDED = new CopyOnWriteArrayList<>();

  private RemoteStores() {}

  /** Puts {@code p} before every provider found on the class path (tests, hosts with their own client). */
  public static void addProvider(ObjectStoreProvider p) {
    ADDED.add(0, p);
    STORES.clear();
  }

  /** Removes a provider added with {@link #addProvider} and forgets the clients made so far. */
  public static void removeProvider(ObjectStoreProvider p) {
    ADDED.remove(p);
    STORES.clear();
  }

  /** Forgets the clients made so far and every cached object (the next use makes new clients). */
  public static void reset() {
    STORES.clear();
    RemoteFileSystemProvider.forgetAll();
  }

  /** Every provider: added ones first, then those on the class path. */
  static List<ObjectStoreProvider> providers() {
    List<ObjectStoreProvider> out = new ArrayList<>(ADDED);
    out.addAll(org.chunkcdm.io.Services.load(ObjectStoreProvider.class, RemoteStores.class));
    return out;
  }

  /** True when some provider makes clients for this kind of location. */
  public static boolean available(RemoteLocation.Kind kind) {
    for (ObjectStoreProvider p : providers()) {
      if (p.supports(kind)) {
        return true;
      }
    }
    return false;
  }

  /** The client of {@code root}'s store, made on first use. */
  static ObjectStore store(RemoteLocation.Root root) throws IOException {
    ObjectStore s = STORES.get(root.storeId());
    if (s != null) {
      return s;
    }
    synchronized (STORES) {
      s = STORES.get(root.storeId());
      if (s != null) {
        return s;
      }
      for (ObjectStoreProvider p : providers()) {
        if (p.supports(root.kind())) {
          s = p.open(root);
          STORES.put(root.storeId(), s);
          return s;
        }
      }
    }
    throw new IOException(root + ": no client for " + (root.kind() == RemoteLocation.Kind.S3 ? "S3" : "HTTP")
        + " locations on the class path (chunkcdm-remote is missing)");
  }
}
