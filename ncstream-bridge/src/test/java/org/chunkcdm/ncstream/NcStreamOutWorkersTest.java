package org.chunkcdm.ncstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.Array;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * The workers that decode and write the slabs of a chunked variable : any
 * number of them writes the same bytes as one (messages in order, each worker's byte swapping and DEFLATE its
 * own), the values are the source's, and a failure stops them all with nothing written after it.
 */
class NcStreamOutWorkersTest {
  static final long BOUND = 4096;

  /** Fixture datasets with a chunked variable that goes as several messages of {@link #BOUND} bytes. */
  static Stream<Arguments> datasets() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (Path p : FixtureStreams.datasets()) {
      try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
        for (Variable v : NcStreamOut.dataVariables(nc)) {
          if (NcStreamOut.rawSource(v) instanceof ChunkedArray && NcStreamOut.dataBytes(v) > 4 * BOUND) {
            out.add(Arguments.of(FixtureStreams.name(p), p));
            break;
          }
        }
      }
    }
    assertTrue(out.size() >= 10, "fixtures with multi-message chunked variables: " + out.size());
    return out.stream();
  }

  static byte[] write(NetcdfFile nc, NcStreamOut.Options o, int workers) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    withWorkers(workers, () -> new NcStreamOut(b, o).writeAll(nc, null, null));
    return b.toByteArray();
  }

  /** As {@link #write}, through a file's channel. */
  static byte[] writeToChannel(NetcdfFile nc, NcStreamOut.Options o, int workers, Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE)) {
      withWorkers(workers, () -> {
        NcStreamOut out = new NcStreamOut(ch, o);
        out.writeAll(nc, null, null);
        out.flush();
      });
    }
    return Files.readAllBytes(file);
  }

  interface Io {
    void run() throws IOException;
  }

  static void withWorkers(int workers, Io r) throws IOException {
    int old = NcStreamOut.workersForTests;
    NcStreamOut.workersForTests = workers;
    try {
      r.run();
    } finally {
      NcStreamOut.workersForTests = old;
    }
  }

  /**
   * One, two and seven workers: byte-identical streams in the chunks' byte order, big-endian and DEFLATE'd, and
   * the seven-worker stream's variables equal the source's values.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void anyNumberOfWorkersWritesTheSameBytes(String name, Path p) throws Exception {
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      NcStreamOut.Options base = NcStreamOut.Options.defaults().messageBytes(BOUND);
      for (NcStreamOut.Options o : new NcStreamOut.Options[] {base, base.bigEndian(true), base.deflate(1)}) {
        byte[] one = write(nc, o, 1);
        assertArrayEquals(one, write(nc, o, 2), name + ": two workers");
        byte[] seven = write(nc, o, 7);
        assertArrayEquals(one, seven, name + ": seven workers");
        NcsWalker w = new NcsWalker(seven, nc);
        assertTrue(w.ended, name + ": no MAGIC_END");
        for (Variable v : NcStreamOut.dataVariables(nc)) {
          if (v.getSize() > 0) {
            NetcdfChecks.assertSameArray(v.read(), w.assemble(v), name + ":" + v.getFullName());
          }
        }
      }
    }
  }

  /**
   * A channel gets the bytes a stream gets, with one, two and seven workers, in the chunks' byte order (payloads
   * read straight into the workers' direct buffers), big-endian and DEFLATE'd.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void aChannelGetsTheBytesAStreamGets(String name, Path p, @TempDir Path tmp) throws Exception {
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      NcStreamOut.Options base = NcStreamOut.Options.defaults().messageBytes(BOUND);
      for (NcStreamOut.Options o : new NcStreamOut.Options[] {base, base.bigEndian(true), base.deflate(1)}) {
        byte[] stream = write(nc, o, 1);
        for (int workers : new int[] {1, 2, 7}) {
          assertArrayEquals(stream, writeToChannel(nc, o, workers, tmp.resolve("c.ncs")),
              name + ": a channel, " + workers + " workers");
        }
      }
    }
  }

  /**
   * A chunk in the middle that cannot be read, five workers (more than the slabs before it): the stream holds
   * every message before it, complete and in order, then the error message; nothing is written after writeAll
   * has thrown.
   */
  @Test
  void readErrorWithManyWorkers(@TempDir Path tmp) throws Exception {
    Path src = Fixtures.family("bcolz").resolve("carray/clevel_float64_lz4_c1_byteshuf");
    Path copy = TestFiles.copy(src, tmp.resolve("broken.bcolz"));
    TestFiles.truncate(copy.resolve("data/__1.blp"), 20);
    try (NetcdfFile nc = NetcdfFiles.open(copy.toString()); NetcdfFile good = NetcdfFiles.open(src.toString())) {
      CountingStream b = new CountingStream(Long.MAX_VALUE);
      IOException e = assertThrows(IOException.class, () -> withWorkers(5,
          () -> new NcStreamOut(b, NcStreamOut.Options.defaults().messageBytes(BOUND)).writeAll(nc, null, null)));
      NetcdfChecks.assertMentions(e, "__1.blp");
      long size = b.size();
      Thread.sleep(200);
      assertEquals(size, b.size(), "bytes written after writeAll threw");
      NcsWalker walk = new NcsWalker(b.toByteArray(), nc);
      assertFalse(walk.ended, "no MAGIC_END after a failure");
      assertNotNull(walk.error, "an error message ends the stream");
      assertTrue(walk.error.contains("__1.blp"), walk.error);
      int row = 0;
      Variable v = good.getVariables().get(0);
      for (NcsWalker.Msg m : walk.messages) {
        assertEquals(row, m.section.getRange(0).first(), "messages in order, none missing");
        NetcdfChecks.assertSameArray(v.read(m.section), m.data, "before the failure " + m.section);
        row = m.section.getRange(0).last() + 1;
      }
      assertEquals(1024, row, "every message of chunk 0 (rows 0..1023) and nothing of chunk 1 was sent");
    }
  }

  /** A stream that fails after some bytes: the writer throws its error and every worker stops writing. */
  @Test
  void failingStreamStopsEveryWorker() throws Exception {
    Path src = Fixtures.family("bcolz").resolve("carray/clevel_float64_lz4_c1_byteshuf");
    try (NetcdfFile nc = NetcdfFiles.open(src.toString())) {
      Variable v = nc.getVariables().get(0);
      assertTrue(NcStreamOut.dataBytes(v) > 16 * 1024, "fixture too small: " + NcStreamOut.dataBytes(v));
      CountingStream b = new CountingStream(6 * 1024);
      IOException e = assertThrows(IOException.class, () -> withWorkers(4, () -> {
        NcStreamOut w = new NcStreamOut(b, NcStreamOut.Options.defaults().messageBytes(1024));
        w.writeStart();
        w.writeData(v, null);
      }));
      assertTrue(e.getMessage().contains("disk full"), e.toString());
      long calls = b.calls.get();
      Thread.sleep(200);
      assertEquals(calls, b.calls.get(), "writes after writeData threw");
      assertEquals(1, b.failures.get(), "one write failed, no worker wrote after it");
    }
  }

  /** Partial and strided sections go through the workers too: every message holds the source values. */
  @Test
  void sectionsWithWorkers() throws Exception {
    Path src = Fixtures.family("bcolz").resolve("carray/clevel_float64_lz4_c1_byteshuf");
    try (NetcdfFile nc = NetcdfFiles.open(src.toString())) {
      Variable v = nc.getVariables().get(0);
      int n = v.getShape(0);
      for (Section s : new Section[] {new Section(new int[] {7}, new int[] {n - 20}), new Section("1:" + (n - 3) + ":3")}) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        withWorkers(3, () -> {
          NcStreamOut w = new NcStreamOut(b, NcStreamOut.Options.defaults().messageBytes(BOUND));
          w.writeStart();
          w.writeHeader(nc, null, null);
          w.writeData(v, s);
          w.writeEnd();
        });
        NcsWalker walk = new NcsWalker(b.toByteArray(), nc);
        assertTrue(walk.messages.size() > 1, s + ": several messages");
        for (NcsWalker.Msg m : walk.messages) {
          Array want = v.read(m.section);
          NetcdfChecks.assertSameArray(want, m.data, s + " message " + m.section);
        }
      }
    }
  }

  /** Collects bytes, counts write calls; fails every write once {@code limit} bytes are reached. */
  static final class CountingStream extends OutputStream {
    final ByteArrayOutputStream b = new ByteArrayOutputStream();
    final long limit;
    final AtomicLong calls = new AtomicLong();
    final AtomicLong failures = new AtomicLong();

    CountingStream(long limit) {
      this.limit = limit;
    }

    @Override
    public synchronized void write(int x) throws IOException {
      write(new byte[] {(byte) x}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] x, int off, int len) throws IOException {
      calls.incrementAndGet();
      if (b.size() + (long) len > limit) {
        failures.incrementAndGet();
        throw new IOException("disk full");
      }
      b.write(x, off, len);
    }

    synchronized long size() {
      return b.size();
    }

    synchronized byte[] toByteArray() {
      return b.toByteArray();
    }
  }
}
