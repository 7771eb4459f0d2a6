package org.chunkcdm.chunk;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.Future;

/**
 * The decode threads shared by section assembly (several chunks at once) and the codec (several blocks of
 * one large chunk at once): {@code -Dchunkcdm.decode.threads} daemon threads (default: available
 * processors). Nested use from inside a task is fine (work stealing).
 */
public final class DecodePool {
  private static final int THREADS =
      Math.max(1, Integer.getInteger("chunkcdm.decode.threads", Runtime.getRuntime().availableProcessors()));
  private static volatile ForkJoinPool pool;

  private DecodePool() {}

  public static int threads() {
    return THREADS;
  }

  static ForkJoinPool pool() {
    ForkJoinPool p = pool;
    if (p == null) {
      synchronized (DecodePool.class) {
        if (pool == null) {
          pool = new ForkJoinPool(THREADS, fj -> {
            var t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(fj);
            t.setDaemon(true);
            t.setName("chunkcdm-decode-" + t.getPoolIndex());
            return t;
          }, null, false);
        }
        p = pool;
      }
    }
    return p;
  }

  /** A piece of work that may fail with an IOException. */
  public interface Job {
    void run() throws IOException;
  }

  /** Runs the jobs on the decode threads and waits for all; the first failure is rethrown. */
  public static void runAll(List<? extends Job> jobs) throws IOException {
    if (jobs.size() == 1 || THREADS < 2) {
      for (Job j : jobs) {
        j.run();
      }
      return;
    }
    ForkJoinPool p = pool();
    List<Callable<Void>> calls = new ArrayList<>(jobs.size());
    for (Job j : jobs) {
      calls.add(() -> {
        j.run();
        return null;
      });
    }
    List<? extends Future<Void>> futures;
    if (ForkJoinTask.getPool() == p) {
      // already on a decode thread: fork and help instead of blocking a worker
      List<ForkJoinTask<Void>> tasks = new ArrayList<>();
      for (Callable<Void> c : calls) {
        tasks.add(ForkJoinTask.adapt(c));
      }
      ForkJoinTask.invokeAll(tasks);
      futures = tasks;
    } else {
      futures = p.invokeAll(calls);
    }
    IOException failure = null;
    for (Future<Void> f : futures) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("decode interrupted");
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (failure == null) {
          failure = c instanceof IOException ? (IOException) c : new IOException(String.valueOf(c.getMessage()), c);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
