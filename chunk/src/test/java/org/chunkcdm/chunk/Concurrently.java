package org.chunkcdm.chunk;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/** Runs the same work on several threads at once, for tests of shared readers, caches and files. */
public final class Concurrently {
  private Concurrently() {}

  /** One thread's work; {@code r} is {@code new Random(thread)}. */
  public interface Body {
    void run(int thread, Random r) throws Exception;
  }

  /** Work beside the bodies, to be repeated until {@code done} says they have all finished. */
  public interface Beside {
    void run(BooleanSupplier done) throws Exception;
  }

  /** Runs {@code body} on {@code threads} threads at once and waits for them all; the first failure is thrown. */
  public static void run(int threads, Body body) throws Exception {
    run(threads, body, null);
  }

  /**
   * As {@link #run(int, Body)}, with {@code beside} (when not null) on one more thread until the bodies are done; each
   * thread must finish within 120 seconds.
   */
  public static void run(int threads, Body body, Beside beside) throws Exception {
    ExecutorService ex = Executors.newFixedThreadPool(threads + (beside != null ? 1 : 0));
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        fs.add(ex.submit(() -> {
          body.run(thread, new Random(thread));
          return null;
        }));
      }
      AtomicBoolean stop = new AtomicBoolean();
      Future<?> other = beside == null ? null : ex.submit(() -> {
        beside.run(stop::get);
        return null;
      });
      for (Future<?> f : fs) {
        f.get(120, TimeUnit.SECONDS);
      }
      stop.set(true);
      if (other != null) {
        other.get(120, TimeUnit.SECONDS);
      }
    } finally {
      ex.shutdownNow();
    }
  }
}
