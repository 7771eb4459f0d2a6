package org.chunkcdm.io.remote;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An object store in memory for tests: S3-like (lists) or HTTP-like (cannot), every request logged ("GET key
 * pos+len", "HEAD key", "LIST prefix"), so a test counts exactly what a read cost. {@link #install} makes it the
 * client of every remote location of its kind until {@link #uninstall}.
 */
public final class MemoryStore implements ObjectStore {
  private final String name;
  private final boolean lists;
  private final TreeMap<String, Obj> objects = new TreeMap<>();
  private final AtomicInteger version = new AtomicInteger();
  /** Every request, in order. */
  public final List<String> log = new CopyOnWriteArrayList<>();
  private ObjectStoreProvider provider;

  private record Obj(byte[] bytes, String etag, long lastModified) {}

  public MemoryStore(String name, boolean lists) {
    this.name = name;
    this.lists = lists;
  }

  /** Makes this store the client of every location of {@code kind} (S3 or HTTP). */
  public MemoryStore install(RemoteLocation.Kind kind) {
    provider = new ObjectStoreProvider() {
      @Override
      public boolean supports(RemoteLocation.Kind k) {
        return k == kind;
      }

      @Override
      public ObjectStore open(RemoteLocation.Root root) {
        return MemoryStore.this;
      }
    };
    RemoteStores.addProvider(provider);
    RemoteStores.reset();
    return this;
  }

  public void uninstall() {
    RemoteStores.removeProvider(provider);
    RemoteStores.reset();
  }

  /** Stores an object (a new version: new ETag, last-modified one second later). */
  public synchronized void put(String key, byte[] bytes) {
    int v = version.incrementAndGet();
    objects.put(key, new Obj(bytes.clone(), "\"v" + v + "\"", 1_700_000_000_000L + v * 1000L));
  }

  public synchronized void delete(String key) {
    objects.remove(key);
  }

  public synchronized byte[] get(String key) {
    Obj o = objects.get(key);
    return o == null ? null : o.bytes.clone();
  }

  /** Requests logged so far; {@link #log} cleared. */
  public int take() {
    int n = log.size();
    log.clear();
    return n;
  }

  private ObjectInfo info(Obj o) {
    return new ObjectInfo(o.bytes.length, o.etag, o.lastModified);
  }

  private synchronized Obj obj(String key, String ifMatch) throws IOException {
    Obj o = objects.get(strip(key));
    if (o == null) {
      throw new NoSuchFileException(describe(key));
    }
    if (ifMatch != null && !ifMatch.equals(o.etag)) {
      throw new ObjectChangedException(describe(key) + ": precondition failed (ETag " + o.etag + ", wanted " + ifMatch + ")");
    }
    return o;
  }

  private static String strip(String key) {
    int q = key.indexOf('?');
    return q < 0 ? key : key.substring(0, q);
  }

  @Override
  public String describe(String key) {
    return name + "/" + strip(key);
  }

  @Override
  public Read read(String key, long pos, byte[] dst, int off, int len, String ifMatch) throws IOException {
    log.add("GET " + key + " " + pos + "+" + len);
    Obj o = obj(key, ifMatch);
    int n = (int) Math.max(0, Math.min(len, o.bytes.length - pos));
    if (n > 0) {
      System.arraycopy(o.bytes, (int) pos, dst, off, n);
    }
    return new Read(info(o), n);
  }

  @Override
  public Whole readStart(String key, long maxBytes, String ifMatch) throws IOException {
    log.add("GET " + key + " 0+" + maxBytes);
    Obj o = obj(key, ifMatch);
    int n = (int) Math.min(maxBytes, o.bytes.length);
    return new Whole(info(o), java.util.Arrays.copyOf(o.bytes, n));
  }

  @Override
  public ObjectInfo head(String key) {
    log.add("HEAD " + key);
    synchronized (this) {
      Obj o = objects.get(strip(key));
      return o == null ? null : info(o);
    }
  }

  @Override
  public synchronized Listing list(String prefix, String next, int maxKeys) {
    if (!lists) {
      return null;
    }
    log.add("LIST " + prefix + (next == null ? "" : " after " + next));
    List<Child> objs = new ArrayList<>();
    TreeSet<String> prefixes = new TreeSet<>();
    String last = null;
    int n = 0;
    for (Map.Entry<String, Obj> e : objects.tailMap(next == null ? prefix : next, false).entrySet()) {
      String k = e.getKey();
      if (!k.startsWith(prefix)) {
        if (k.compareTo(prefix) > 0) {
          break;
        }
        continue;
      }
      String rest = k.substring(prefix.length());
      int slash = rest.indexOf('/');
      if (slash >= 0) {
        if (prefixes.add(rest.substring(0, slash))) {
          n++;
        }
      } else {
        objs.add(new Child(rest, info(e.getValue())));
        n++;
      }
      last = k;
      if (n >= maxKeys) {
        String after = objects.higherKey(k);
        return new Listing(objs, new ArrayList<>(prefixes), after != null && after.startsWith(prefix) ? last : null);
      }
    }
    return new Listing(objs, new ArrayList<>(prefixes), null);
  }
}
