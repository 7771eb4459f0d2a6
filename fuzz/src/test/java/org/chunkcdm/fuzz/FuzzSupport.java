package org.chunkcdm.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.Datasets;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What every fuzz target checks: a parser given any bytes returns or throws an IOException; anything else (a
 * RuntimeException, an OutOfMemoryError at -Xmx256m, a StackOverflowError) is a finding.
 */
public final class FuzzSupport {
  /** Decoded sizes above this are not decoded by the targets (the heap bound itself is tested elsewhere). */
  public static final int MAX_DECODE = 4 << 20;

  private static Path dir;

  private FuzzSupport() {}

  public interface IoAction {
    void run() throws IOException;
  }

  /** A read of the dataset or file at a path. */
  public interface PathRead {
    void read(Path p) throws IOException;
  }

  /**
   * Warms a fuzz target class up before its first input ({@link #warmUp}): {@code @ExtendWith(FuzzSupport.WarmUp.class)},
   * so that one-time set-up is not charged to the first input's 1 s limit.
   */
  public static final class WarmUp implements BeforeAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) {
      warmUp(context.getRequiredTestClass());
    }
  }

  /** {@code -Dchunkcdm.fuzz.verbose=true}: print each input's outcome (to check what the seeds reach). */
  private static final boolean VERBOSE = Boolean.getBoolean("chunkcdm.fuzz.verbose");

  /** Runs {@code a}; an IOException is a correct answer to bad bytes and ends the input. */
  public static void expectIoOnly(IoAction a) {
    long t0 = System.nanoTime();
    try {
      a.run();
      if (VERBOSE) {
        System.err.printf("fuzz input: %.1f ms: ok%n", (System.nanoTime() - t0) / 1e6);
      }
    } catch (IOException e) {
      if (VERBOSE) {
        System.err.printf("fuzz input: %.1f ms: %s%n", (System.nanoTime() - t0) / 1e6, e);
      }
      if (e.getMessage() == null || e.getMessage().isEmpty()) {
        throw new AssertionError("IOException without a message", e);
      }
    }
  }

  /** The fuzzer's bytes as file {@code name} in the {@link #scratch} directory, read by {@code read}: an IOException only. */
  public static void asFile(String name, byte[] data, PathRead read) throws IOException {
    Path p = scratch().resolve(name);
    write(p, data);
    expectIoOnly(() -> read.read(p));
  }

  /** A scratch directory of this JVM (one fuzz target runs per JVM when fuzzing). */
  public static synchronized Path scratch() throws IOException {
    if (dir == null) {
      Path d = Files.createTempDirectory("chunkcdm-fuzz");
      // File.deleteOnExit cannot remove a directory that still holds files: every run used to leave one behind
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(d), "chunkcdm-fuzz-cleanup"));
      dir = d;
    }
    return dir;
  }

  /** Deletes {@code root} and everything under it, deepest first; what cannot be deleted stays (best effort). */
  static void deleteTree(Path root) {
    if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (java.util.stream.Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          // best effort at JVM exit
        }
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      // best effort at JVM exit
    }
  }

  /** Writes {@code bytes} to {@code p} (replacing it atomically, so a reader never sees half a file). */
  public static void write(Path p, byte[] bytes) throws IOException {
    Files.createDirectories(p.getParent());
    Path tmp = p.resolveSibling(p.getFileName() + ".tmp");
    Files.write(tmp, bytes);
    Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Replays every committed input of every {@code @FuzzTest} method of {@code target} once, ignoring the outcome
   * (the replay proper reports it). Called before the class's inputs ({@link WarmUp}): one-time class loading and static set-up
   * (netcdf-java's registry, protobuf descriptors, the codecs) are not charged to the first input's 1 s limit.
   */
  public static void warmUp(Class<?> target) {
    try {
      java.lang.reflect.Constructor<?> ctor = target.getDeclaredConstructor();
      ctor.setAccessible(true);
      Object instance = ctor.newInstance();
      for (java.lang.reflect.Method m : target.getDeclaredMethods()) {
        if (!m.isAnnotationPresent(com.code_intelligence.jazzer.junit.FuzzTest.class)) {
          continue;
        }
        m.setAccessible(true);
        java.net.URL u = target.getResource(target.getSimpleName() + "Inputs/" + m.getName());
        if (u == null) {
          continue;
        }
        try (java.util.stream.Stream<Path> s = Files.list(Path.of(u.toURI()))) {
          for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile).sorted()::iterator) {
            try {
              m.invoke(instance, (Object) Files.readAllBytes(p));
            } catch (ReflectiveOperationException | RuntimeException | Error e) {
              // the replay itself reports what this input does
            }
          }
        }
      }
    } catch (ReflectiveOperationException | IOException | java.net.URISyntaxException e) {
      throw new AssertionError("cannot warm up " + target.getName(), e);
    }
  }

  /** Opens the dataset at {@code p} and decodes the first chunks of every variable (bounded). */
  public static void openAndRead(Path p) throws IOException {
    try (ChunkedDataset d = Datasets.open(p)) {
      int vars = 0;
      for (ChunkedVariable v : d.variables()) {
        if (vars++ >= 8 || v.array() == null) {
          continue;
        }
        long n = Math.min(2, v.array().grid().chunkCount());
        for (long k = 0; k < n; k++) {
          ChunkData c = v.array().chunk(k);
          if (c != null && c.size() <= MAX_DECODE) {
            c.readAll();
          }
        }
      }
    }
  }
}
