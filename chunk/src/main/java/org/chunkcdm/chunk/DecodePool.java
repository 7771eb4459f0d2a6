package org.chunkcdm.chunk;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.chunkcdm.blosc.BlockExecutor;
import org.chunkcdm.blosc.internal.Settings;

/**
 * The decode threads shared by section assembly (several chunks at once) and the codec (several blocks of
 * one large chunk at once): {@code -Dchunkcdm.decode.threads} daemon threads (default: available
 * processors). Nested use from inside a task is fine (work stealing).
 */
public final class DecodePool {
  private static final int THREADS =
      (int) Settings.DECODE_THREADS.number(Runtime.getRuntime().availableProcessors());
  private static volatile ForkJoinPool pool;

  private DecodePool() {}

  public static int threads() {
    return THREADS;
  }

  /** Per-thread cap on the threads one read may use (0 = none), set by {@link #withLimit}. */
  private static final ThreadLocal<int[]> LIMIT = ThreadLocal.withInitial(() -> new int[1]);

  /** Jobs run by a thread other than the one that called {@link #runAll} (for tests of decode settings). */
  static final java.util.concurrent.atomic.LongAdder HELPED_JOBS = new java.util.concurrent.atomic.LongAdder();

  /**
   * The threads work started on this thread may use, the caller included: the pool size, or less inside
   * {@link #withLimit} (a read's {@link ReadSettings#decodeThreads()}).
   */
  public static int threadsForCaller() {
    int l = LIMIT.get()[0];
    return l == 0 ? THREADS : Math.min(l, THREADS);
  }

  /** Runs {@code job} with at most {@code maxThreads} threads for the decode work it starts (0 = no cap). */
  public static void withLimit(int maxThreads, Job job) throws IOException {
    int[] l = LIMIT.get();
    int old = l[0];
    l[0] = maxThreads;
    try {
      job.run();
    } finally {
      l[0] = old;
    }
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

  /**
   * The decode threads as an {@link java.util.concurrent.Executor}, for work that spreads itself over them and
   * reads with one thread per task (as the ncstream writer's slab workers do): at most {@link #threads()} tasks
   * run at once, the others wait for a free thread.
   */
  public static java.util.concurrent.Executor executor() {
    return pool();
  }

  /** A piece of work that may fail with an IOException. */
  public interface Job extends BlockExecutor.Task {}

  /**
   * The codec's view of these threads: the blocks of one large Blosc chunk decode on them, within the thread budget of
   * the read that asked ({@link #threadsForCaller()}).
   */
  public static final BlockExecutor BLOCKS = new BlockExecutor() {
    @Override
    public int threads() {
      return threadsForCaller();
    }

    @Override
    public void runAll(List<? extends Task> tasks) throws IOException {
      DecodePool.runAll(tasks);
    }
  };

  /**
   * Runs the jobs on the decode threads and waits for all; the first failure is rethrown. A calling thread
   * from outside the pool works on the jobs too (it never just waits while the pool is busy with other
   * callers' work) and gets help only from decode threads that are idle: when every core is already busy
   * with callers, it runs its jobs itself. A call from a decode thread forks and helps.
   */
  public static void runAll(List<? extends BlockExecutor.Task> jobs) throws IOException {
    int n = jobs.size();
    int limit = LIMIT.get()[0];
    int allowed = threadsForCaller();
    if (n == 1 || allowed < 2) {
      for (BlockExecutor.Task j : jobs) {
        j.run();
      }
      return;
    }
    ForkJoinPool p = pool();
    if (ForkJoinTask.getPool() == p) {
      if (limit != 0 && limit < THREADS) { // a capped read already spreads its chunks over its threads
        for (BlockExecutor.Task j : jobs) {
          j.run();
        }
        return;
      }
      Thread caller = Thread.currentThread();
      List<ForkJoinTask<Void>> tasks = new ArrayList<>(n);
      for (BlockExecutor.Task j : jobs) {
        tasks.add(ForkJoinTask.adapt(() -> {
          if (Thread.currentThread() != caller) {
            HELPED_JOBS.increment();
          }
          j.run();
          return null;
        }));
      }
      ForkJoinTask.invokeAll(tasks);
      IOException failure = null;
      for (ForkJoinTask<Void> t : tasks) {
        try {
          t.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("decode interrupted");
        } catch (ExecutionException e) {
          failure = failure != null ? failure : asIOException(e.getCause());
        }
      }
      if (failure != null) {
        throw failure;
      }
      return;
    }
    // callers from outside the pool work on their jobs themselves; ask only for the decode threads that no
    // other caller or job is using, so that busy cores are not shared by more threads than they can run
    int callers = CALLERS.incrementAndGet();
    try {
      int helpers = Math.min(Math.min(n - 1, allowed - 1), THREADS - callers - p.getActiveThreadCount());
      if (helpers <= 0) {
        for (BlockExecutor.Task j : jobs) {
          j.run();
        }
        return;
      }
      runWithHelpers(p, jobs, helpers, limit);
    } finally {
      CALLERS.decrementAndGet();
    }
  }

  /** Threads from outside the pool currently inside {@link #runAll}. */
  private static final AtomicInteger CALLERS = new AtomicInteger();

  private static void runWithHelpers(ForkJoinPool p, List<? extends BlockExecutor.Task> jobs, int helpers, int limit)
      throws IOException {
    int n = jobs.size();
    Thread caller = Thread.currentThread();
    AtomicInteger next = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(n);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Runnable worker = () -> {
      boolean helper = Thread.currentThread() != caller;
      int[] l = LIMIT.get();
      int old = l[0];
      l[0] = limit; // nested decode work of a capped read stays capped
      try {
        for (int i; (i = next.getAndIncrement()) < n; ) {
          try {
            if (failure.get() == null) {
              if (helper) {
                HELPED_JOBS.increment();
              }
              jobs.get(i).run();
            }
          } catch (Throwable t) {
            failure.compareAndSet(null, t);
          } finally {
            done.countDown();
          }
        }
      } finally {
        l[0] = old;
      }
    };
    for (int h = 0; h < helpers; h++) {
      p.execute(worker);
    }
    worker.run(); // the caller works too; helpers that start late find nothing left
    try {
      done.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("decode interrupted");
    }
    if (failure.get() != null) {
      throw asIOException(failure.get());
    }
  }

  private static IOException asIOException(Throwable c) {
    if (c instanceof IOException) {
      return (IOException) c;
    }
    if (c instanceof Error) {
      throw (Error) c;
    }
    return new IOException(String.valueOf(c.getMessage()), c);
  }
}
