package org.chunkcdm.testkit;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import ucar.ma2.Array;
import ucar.ma2.Section;
import ucar.nc2.Variable;
import ucar.nc2.util.xml.RuntimeConfigParser;

/** Checks every reader's tests share: registration as THREDDS does it, many reader threads, error messages. */
public final class NetcdfChecks {
  private NetcdfChecks() {}

  /** Registers an IOSP the way threddsConfig.xml does; returns RuntimeConfigParser's error log. */
  public static String registerLikeThreddsConfig(Class<?> iosp) throws java.io.IOException {
    String xml = "<nj22Config><ioServiceProvider class=\"" + iosp.getName() + "\"/></nj22Config>";
    StringBuilder errlog = new StringBuilder();
    RuntimeConfigParser.read(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), errlog);
    return errlog.toString();
  }

  /** One read and its single-thread result. */
  public record Read(Variable variable, Section section, Array expected) {}

  /**
   * {@code threads} threads each repeat {@code readsPerThread} reads picked at random from {@code reads} on
   * the same open dataset; every result must equal the single-thread one.
   */
  public static void assertConcurrentReads(List<Read> reads, int threads, int readsPerThread) throws Exception {
    inParallel(threads, t -> () -> {
      Random r = new Random(t);
      for (int k = 0; k < readsPerThread; k++) {
        Read j = reads.get(r.nextInt(reads.size()));
        assertSameArray(j.expected(), j.variable().read(j.section()), j.variable().getFullName() + " " + j.section());
      }
      return null;
    });
  }

  /**
   * Runs {@code task.apply(t)} for each {@code t} in {@code [0, threads)}, each on a thread of its own, and returns
   * their results in that order; the first failure (in that order) is thrown, after every task ended.
   */
  public static <T> List<T> inParallel(int threads, IntFunction<Callable<T>> task) throws Exception {
    List<Callable<T>> tasks = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      tasks.add(task.apply(t));
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<T> out = new ArrayList<>();
      for (Future<T> f : pool.invokeAll(tasks)) {
        out.add(f.get());
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Same shape, type and values (numbers compared bit for bit, strings and chars by value). */
  public static void assertSameArray(Array want, Array got, String what) {
    if (!Arrays.equals(want.getShape(), got.getShape()) || want.getDataType() != got.getDataType()) {
      throw new AssertionError(what + ": shape/type " + Arrays.toString(got.getShape()) + " " + got.getDataType()
          + ", expected " + Arrays.toString(want.getShape()) + " " + want.getDataType());
    }
    if (want.getDataType().isString() || want.getDataType() == ucar.ma2.DataType.CHAR) {
      for (int i = 0; i < want.getSize(); i++) {
        if (!want.getObject(i).equals(got.getObject(i))) {
          throw new AssertionError(what + ": element " + i + " is " + got.getObject(i) + ", expected " + want.getObject(i));
        }
      }
      return;
    }
    if (!Arrays.equals(CdmArrays.littleEndian(want), CdmArrays.littleEndian(got))) {
      throw new AssertionError(what + ": values differ from the single-thread read");
    }
  }

  /** The message of {@code e} or one of its causes mentions every part. */
  public static void assertMentions(Throwable e, String... parts) {
    StringBuilder m = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
      m.append(" | ").append(c.getMessage());
    }
    for (String p : parts) {
      if (!m.toString().contains(p)) {
        throw new AssertionError("message should mention '" + p + "': " + m);
      }
    }
  }
}
