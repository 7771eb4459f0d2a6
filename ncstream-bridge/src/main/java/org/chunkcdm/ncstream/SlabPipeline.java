package org.chunkcdm.ncstream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.zip.Deflater;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DecodePool;
import org.chunkcdm.chunk.ReadSettings;
import org.chunkcdm.chunk.Slabs;
import org.chunkcdm.io.Bounds;
import ucar.ma2.Section;
import ucar.nc2.Variable;

/**
 * Writes the slabs of a chunked variable (fixed-size whole items) as data messages with several workers: the
 * calling thread and tasks on an {@link Executor} (the chunk layer's decode threads, {@link DecodePool}). Each
 * worker takes a free set of buffers and the next slab, decodes its chunks itself (no other decode thread helps:
 * {@code ReadSettings} of one thread) straight into the buffer, byte-swaps or deflates it and hands the message
 * over in its place in the stream. Whoever hands over a message while no one is writing writes it, and then every
 * message already handed over after it, in order; the others go on decoding. The output thus never waits for a
 * worker that is still writing its own slab. Memory is at most two sets of buffers per worker, each of one message
 * (plus the compressed copy with DEFLATE), reused for every slab. A failure (a read, a write) stops the workers at
 * the failing slab: every earlier slab is still written, none from it on; an interrupt stops them all. The
 * failure of the lowest slab is rethrown once all workers have stopped.
 */
final class SlabPipeline {
  private final NcStreamOut.Options opt;
  private final Wire wire;
  private final DataMessages messages;
  private final Executor executor;

  SlabPipeline(NcStreamOut.Options opt, Wire wire, DataMessages messages, Executor executor) {
    this.opt = opt;
    this.wire = wire;
    this.messages = messages;
    this.executor = executor;
  }

  /**
   * Workers for one chunked variable, the calling thread included: as many as the chunk layer's decode threads
   * ({@code -Dchunkcdm.decode.threads}, default the available processors); fewer when their slab buffers (two
   * messages each) would take more than a quarter of the heap.
   */
  static int workers(long slabBytes) {
    int tests = NcStreamOut.workersForTests;
    int want = Math.max(1, Math.min(64, tests > 0 ? tests : DecodePool.threads()));
    long quarter = Runtime.getRuntime().maxMemory() / 4;
    while (want > 1 && 2 * want * slabBytes > quarter) {
      want--;
    }
    return want;
  }

  /** Writes the slabs of {@code s} of {@code v} (whole items of {@code raw}); returns the stream bytes written. */
  long write(Variable v, Section s, Slabs slabs, ChunkedArray raw) throws IOException {
    long most = Math.min(opt.messageBytes, s.computeSize() * Payloads.elementBytes(v));
    if (most > Integer.MAX_VALUE - 64) {
      throw new IOException(v.getFullName() + ": a slab of " + most + " bytes is too large for one message");
    }
    Bounds.checkAllocation(most, v.getFullName() + ": a slab buffer");
    int nw = workers(most);
    ChunkedArray one = raw.withSettings(ReadSettings.of(raw.settings().cache(), 1));
    Turns t = new Turns(v, s, slabs, 2 * nw, (int) most);
    List<FutureTask<Void>> background = new ArrayList<>(nw - 1);
    try {
      for (int i = 1; i < nw; i++) {
        FutureTask<Void> f = new FutureTask<>(() -> work(t, one));
        background.add(f);
        executor.execute(f);
      }
      work(t, one);
    } finally {
      awaitAll(background, t);
      t.endBuffers();
    }
    t.rethrow();
    return t.bytes;
  }

  /** Every worker has stopped before the caller goes on (or closes the file); an interrupt stops them all. */
  private static void awaitAll(List<FutureTask<Void>> background, Turns t) {
    boolean interrupted = false;
    for (FutureTask<Void> f : background) {
      while (true) {
        try {
          f.get();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
          t.fail(-1, new InterruptedIOException("interrupted while writing " + t.v.getFullName()));
        } catch (ExecutionException | CancellationException e) {
          t.fail(-1, e.getCause() != null ? e.getCause() : e);
          break;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** A slab to prepare: its number in the stream, its section, the buffers it is prepared in. */
  private static final class Job {
    final long seq;
    final Section piece;
    final Buffers buffers;

    Job(long seq, Section piece, Buffers buffers) {
      this.seq = seq;
      this.piece = piece;
      this.buffers = buffers;
    }
  }

  /**
   * A prepared data message: its head, then {@code out}'s remaining bytes (a direct buffer for a channel) or else
   * {@code payload[0..plen)}; {@code dataBytes} uncompressed payload bytes; the buffers it lies in.
   */
  private static final class Message {
    final byte[] head;
    final ByteBuffer out;
    final byte[] payload;
    final int plen;
    final long dataBytes;
    final Buffers buffers;

    Message(byte[] head, ByteBuffer out, byte[] payload, int plen, long dataBytes, Buffers buffers) {
      this.head = head;
      this.out = out;
      this.payload = payload;
      this.plen = plen;
      this.dataBytes = dataBytes;
      this.buffers = buffers;
    }
  }

  /**
   * Shared state of the workers of one variable: the slab iterator, the free buffers, the messages handed over
   * and not yet written, and who writes.
   */
  private final class Turns {
    final Variable v;
    final Section s;
    final Slabs slabs;
    private final int maxBuffers;
    private final int most;
    private final ArrayDeque<Buffers> free = new ArrayDeque<>();
    private final List<Buffers> made = new ArrayList<>();
    private final Map<Long, Message> ready = new HashMap<>(); // handed over, not yet written
    private boolean writing; // a worker is writing the ready messages
    long taken; // slabs handed out
    long done; // slabs written: the slab numbered {@code done} is written next
    long bytes; // stream bytes written
    long stopAt = Long.MAX_VALUE; // slabs from this number on are not written (a failure)
    Throwable failure; // the failure of the lowest slab number

    Turns(Variable v, Section s, Slabs slabs, int maxBuffers, int most) {
      this.v = v;
      this.s = s;
      this.slabs = slabs;
      this.maxBuffers = maxBuffers;
      this.most = most;
    }

    /**
     * A free set of buffers (waiting while all are in use) and the next slab, or null when none is left or a
     * failure stopped the workers. The buffers come first: a worker that waits for them holds no slab, so the
     * lowest slab not yet written always has buffers to be prepared in.
     */
    synchronized Job next() throws IOException, InterruptedException {
      while (free.isEmpty() && made.size() >= maxBuffers && stopAt == Long.MAX_VALUE) {
        wait();
      }
      if (stopAt != Long.MAX_VALUE) {
        return null;
      }
      int[][] slab = slabs.next();
      if (slab == null) {
        return null;
      }
      Buffers b = free.poll();
      if (b == null) {
        b = new Buffers(most);
        made.add(b);
      }
      return new Job(taken++, NcStreamOut.slabSection(s, slab), b);
    }

    /** Buffers of a slab that was written or dropped are free again. */
    synchronized void give(Buffers b) {
      free.push(b);
      notifyAll();
    }

    /**
     * Hands over the message of slab {@code seq}. When no other worker is writing, this one writes it (if it is
     * the next in the stream) and every message handed over after it, in order, until the next is not ready.
     */
    void handOver(long seq, Message m) throws IOException {
      Message next;
      synchronized (this) {
        if (seq >= stopAt) {
          give(m.buffers);
          return;
        }
        ready.put(seq, m);
        if (writing) {
          return;
        }
        writing = true;
        next = nextReady();
      }
      while (next != null) { // only this worker moves done while it writes
        long n;
        try {
          n = next.out != null ? wire.put(next.head, next.out) : wire.put(next.head, next.payload, next.plen);
          messages.report(next.dataBytes);
        } catch (IOException | RuntimeException | Error e) {
          synchronized (this) {
            writing = false;
            give(next.buffers);
            fail(done, e);
          }
          throw e;
        }
        synchronized (this) {
          done++;
          bytes += n;
          give(next.buffers);
          next = nextReady();
        }
      }
    }

    /** The message of slab {@code done} when it is handed over and to be written, else null: no one writes now. */
    private Message nextReady() {
      Message m = done < stopAt ? ready.remove(done) : null;
      if (m == null) {
        writing = false;
      }
      return m;
    }

    /**
     * Slab {@code seq} failed: it and every later slab are dropped, the earlier ones are still written (so the
     * stream holds every message before the failing one); -1 stops everything (an interrupt).
     */
    synchronized void fail(long seq, Throwable e) {
      if (seq < stopAt) {
        stopAt = seq;
        failure = e;
        ready.entrySet().removeIf(en -> {
          if (en.getKey() >= stopAt) {
            free.push(en.getValue().buffers);
            return true;
          }
          return false;
        });
      }
      notifyAll();
    }

    /** Ends the deflaters of every set of buffers (all workers have stopped). */
    synchronized void endBuffers() {
      for (Buffers b : made) {
        b.end();
      }
    }

    void rethrow() throws IOException {
      Throwable e;
      synchronized (this) {
        e = failure;
      }
      if (e == null) {
        return;
      }
      if (e instanceof UncheckedIOException) {
        e = e.getCause();
      }
      if (e instanceof IOException) {
        throw (IOException) e;
      }
      if (e instanceof RuntimeException) {
        throw (RuntimeException) e;
      }
      if (e instanceof Error) {
        throw (Error) e;
      }
      throw new IOException(v.getFullName() + ": " + e, e);
    }
  }

  /** One set of reused buffers: the slab, the direct buffer a channel writes and, with DEFLATE, the compressor. */
  private static final class Buffers {
    final int most;
    byte[] buf;
    ByteBuffer direct; // the payload handed to a channel
    Deflater z;
    ByteArrayOutputStream zout;

    Buffers(int most) {
      this.most = most;
    }

    /** The direct buffer handed to a channel, cleared, with room for {@code n} bytes. */
    ByteBuffer direct(int n) {
      if (direct == null || direct.capacity() < n) {
        direct = ByteBuffer.allocateDirect(Math.max(n, most));
      }
      return direct.clear();
    }

    void end() {
      if (z != null) {
        z.end();
      }
    }
  }

  /** One worker: prepares slabs and hands their messages over until none is left or one failed. */
  private Void work(Turns t, ChunkedArray raw) {
    long seq = -1;
    try {
      Job job;
      while ((job = t.next()) != null) {
        seq = job.seq;
        Message m;
        try {
          m = prepare(t.v, job.piece, raw, job.buffers);
        } catch (IOException | RuntimeException | Error e) {
          t.give(job.buffers);
          throw e;
        }
        t.handOver(seq, m);
      }
    } catch (InterruptedException e) {
      t.fail(-1, new InterruptedIOException("interrupted while writing " + t.v.getFullName()));
      Thread.currentThread().interrupt();
    } catch (Throwable e) {
      t.fail(seq, e);
    }
    return null;
  }

  /** Reads and prepares the message of one slab in {@code b}. */
  private Message prepare(Variable v, Section piece, ChunkedArray raw, Buffers b) throws IOException {
    if (wire.takesBuffers() && !opt.deflates() && Payloads.storedAsIs(raw.dtype(), opt.bigEndian)) {
      // the stored bytes straight into the buffer the channel writes (natively decoded chunks with no copy at all)
      int plen = (int) Payloads.rawBytes(piece, raw);
      ByteBuffer out = b.direct(plen);
      Payloads.readRaw(piece, raw, out);
      out.limit(plen);
      byte[] head = messages.dataHead(v, piece, Payloads.storedBigEndian(raw.dtype()), false, 0, plen);
      return new Message(head, out, null, plen, plen, b);
    }
    if (b.buf == null) {
      b.buf = new byte[b.most];
    }
    Payloads.Payload p = Payloads.readRaw(piece, raw, opt.bigEndian, b.buf);
    b.buf = p.bytes; // grown when a slab was larger than expected
    byte[] payload = p.bytes;
    int plen = p.length;
    byte[] head;
    if (opt.deflates()) {
      if (b.z == null) {
        b.z = new Deflater(opt.deflateLevel);
        b.zout = new ByteArrayOutputStream(Math.max(64, b.most / 2));
      }
      b.zout.reset();
      Payloads.deflateInto(b.z, p.bytes, p.length, b.zout);
      payload = b.zout.toByteArray();
      plen = payload.length;
      head = messages.dataHead(v, piece, p.bigEndian, true, p.length, plen);
    } else {
      head = messages.dataHead(v, piece, p.bigEndian, false, 0, plen);
    }
    ByteBuffer out = null;
    if (wire.takesBuffers()) { // copied while another worker writes: the channel then writes it as it is
      out = b.direct(plen);
      out.put(payload, 0, plen).flip();
    }
    return new Message(head, out, payload, plen, p.length, b);
  }
}
