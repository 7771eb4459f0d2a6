package org.chunkcdm.blosc;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;

/**
 * Where the decoder runs the independent blocks of one large chunk at once: the thread budget of a decode. The
 * decoder splits a chunk of at least 256 KiB into at most {@code 4 * threads()} tasks and hands them to
 * {@link #runAll}; with {@link #SERIAL} (or {@code threads() < 2}) it decodes every block in the calling thread.
 */
public interface BlockExecutor {
  /** A piece of decode work. */
  interface Task {
    void run() throws IOException;
  }

  /** Threads a decode may use, the calling thread included. */
  int threads();

  /** Runs every task, returns when all have finished, and rethrows the first failure. */
  void runAll(List<? extends Task> tasks) throws IOException;

  /** Everything in the calling thread. */
  BlockExecutor SERIAL = new BlockExecutor() {
    @Override
    public int threads() {
      return 1;
    }

    @Override
    public void runAll(List<? extends Task> tasks) throws IOException {
      for (Task t : tasks) {
        t.run();
      }
    }
  };

  /**
   * Up to {@code threads} threads of {@code executor} (e.g. a fixed pool or a {@code ForkJoinPool}); the calling
   * thread runs the last task itself and then waits for the others. With {@code threads < 2}, {@link #SERIAL}.
   */
  static BlockExecutor of(Executor executor, int threads) {
    if (threads < 2) {
      return SERIAL;
    }
    return new BlockExecutor() {
      @Override
      public int threads() {
        return threads;
      }

      @Override
      public void runAll(List<? extends Task> tasks) throws IOException {
        List<FutureTask<Void>> started = new ArrayList<>(tasks.size());
        for (int i = 0; i < tasks.size() - 1; i++) {
          Task t = tasks.get(i);
          FutureTask<Void> f = new FutureTask<>(() -> {
            t.run();
            return null;
          });
          executor.execute(f);
          started.add(f);
        }
        IOException failure = null;
        if (!tasks.isEmpty()) {
          try {
            tasks.get(tasks.size() - 1).run();
          } catch (IOException e) {
            failure = e;
          }
        }
        for (FutureTask<Void> f : started) {
          try {
            f.get();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("decode interrupted");
          } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof Error) {
              throw (Error) c;
            }
            if (failure == null) {
              failure = c instanceof IOException ? (IOException) c : new IOException(String.valueOf(c.getMessage()), c);
            }
          }
        }
        if (failure != null) {
          throw failure;
        }
      }
    };
  }
}
