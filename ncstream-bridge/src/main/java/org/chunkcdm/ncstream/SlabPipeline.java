package org.chunkcdm.ncstream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
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
 * worker takes the next slab, decodes its chunks itself (no other decode thread helps: {@code ReadSettings} of
 * one thread) straight into its own reused buffer, byte-swaps or deflates it, waits until every earlier slab is
 * written and then writes the message itself, while the other workers decode the next slabs. The payload thus
 * leaves from the core (and its cache) that decoded it, no slab is handed between threads, and the cores decode
 * in parallel with the one write in progress. Messages stay in order; memory is one buffer of at most one message
 * per worker, reused for every slab (plus the compressed copy with DEFLATE). A failure (a read, a write) stops
 * the workers at the failing slab: every earlier slab is still written, none from it on; an interrupt stops them
 * all. The failure of the lowest slab is rethrown once all workers have stopped.
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
   * ({@code -Dchunkcdm.decode.threads}, default the available processors); fewer when their slab buffers (one
   * message each) would take more than a quarter of the heap.
   */
  static int workers(long slabBytes) {
    int tests = NcStreamOut.workersForTests;
    int want = Math.max(1, Math.min(64, tests > 0 ? tests : DecodePool.threads()));
    long quarter = Runtime.getRuntime().maxMemory() / 4;
    while (want > 1 && want * slabBytes > quarter) {
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
    Turns t = new Turns(v, s, slabs);
    List<FutureTask<Void>> background = new ArrayList<>(nw - 1);
    try {
      for (int i = 1; i < nw; i++) {
        FutureTask<Void> f = new FutureTask<>(() -> work(t, one, (int) most));
        background.add(f);
        executor.execute(f);
      }
      work(t, one, (int) most);
    } finally {
      awaitAll(background, t);
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

  /** Shared state of the workers of one variable: the slab iterator and whose turn it is to write. */
  private static final class Turns {
    final Variable v;
    final Section s;
    final Slabs slabs;
    long taken; // slabs handed out
    long done; // slabs written: the slab numbered {@code done} may write now
    long bytes; // stream bytes written
    long stopAt = Long.MAX_VALUE; // slabs from this number on are not written (a failure)
    Throwable failure; // the failure of the lowest slab number

    Turns(Variable v, Section s, Slabs slabs) {
      this.v = v;
      this.s = s;
      this.slabs = slabs;
    }

    /** The next slab in the variable's index space as slab number {@link #taken}, or null when none is left. */
    synchronized Section take(long seq) throws IOException {
      if (seq >= stopAt) {
        return null;
      }
      int[][] slab = slabs.next();
      if (slab == null) {
        return null;
      }
      taken++;
      return NcStreamOut.slabSection(s, slab);
    }

    /** Waits for slab {@code seq}'s turn; false when it is not to be written (a failure before it). */
    synchronized boolean awaitTurn(long seq) throws InterruptedException {
      while (done != seq && seq < stopAt) {
        wait();
      }
      return seq < stopAt;
    }

    /** Slab {@code seq}'s message of {@code n} stream bytes is written: the next slab's turn. */
    synchronized void written(long n) {
      done++;
      bytes += n;
      notifyAll();
    }

    /**
     * Slab {@code seq} failed: it and every later slab are dropped, the earlier ones are still written (so the
     * stream holds every message before the failing one); -1 stops everything (an interrupt).
     */
    synchronized void fail(long seq, Throwable e) {
      if (seq < stopAt) {
        stopAt = seq;
        failure = e;
      }
      notifyAll();
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

  /** One worker's reused buffers: the slab and, with DEFLATE, the compressor and its output. */
  private final class Buffers {
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

  /** One worker: takes, reads, prepares and writes slabs until none is left or one failed. */
  private Void work(Turns t, ChunkedArray raw, int most) {
    Buffers b = new Buffers(most);
    long seq = -1;
    try {
      while (true) {
        Section piece;
        synchronized (t) {
          seq = t.taken;
          piece = t.take(seq);
        }
        if (piece == null || !writeSlab(t, seq, piece, raw, b)) {
          return null;
        }
      }
    } catch (InterruptedException e) {
      t.fail(-1, new InterruptedIOException("interrupted while writing " + t.v.getFullName()));
      Thread.currentThread().interrupt();
    } catch (Throwable e) {
      t.fail(seq, e);
    } finally {
      b.end();
    }
    return null;
  }

  /** Reads and prepares slab {@code seq}, then writes it in its turn; false when it was not to be written. */
  private boolean writeSlab(Turns t, long seq, Section piece, ChunkedArray raw, Buffers b)
      throws IOException, InterruptedException {
    if (wire.takesBuffers() && !opt.deflates() && Payloads.storedAsIs(raw.dtype(), opt.bigEndian)) {
      // the stored bytes straight into the buffer the channel writes (natively decoded chunks with no copy at all)
      int plen = (int) Payloads.rawBytes(piece, raw);
      ByteBuffer out = b.direct(plen);
      Payloads.readRaw(piece, raw, out);
      out.limit(plen);
      byte[] head = messages.dataHead(t.v, piece, Payloads.storedBigEndian(raw.dtype()), false, 0, plen);
      return writeInTurn(t, seq, head, out, null, plen, plen);
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
      head = messages.dataHead(t.v, piece, p.bigEndian, true, p.length, plen);
    } else {
      head = messages.dataHead(t.v, piece, p.bigEndian, false, 0, plen);
    }
    ByteBuffer out = null;
    if (wire.takesBuffers()) { // copied while the other workers write: the channel then writes it as it is
      out = b.direct(plen);
      out.put(payload, 0, plen).flip();
    }
    return writeInTurn(t, seq, head, out, payload, plen, p.length);
  }

  /**
   * Waits for slab {@code seq}'s turn, then writes {@code head} and the payload: {@code out}'s remaining bytes when
   * not null, else {@code payload}'s first {@code plen}. {@code dataBytes}: the uncompressed payload size. False when
   * the slab was not to be written.
   */
  private boolean writeInTurn(Turns t, long seq, byte[] head, ByteBuffer out, byte[] payload, int plen, long dataBytes)
      throws IOException, InterruptedException {
    if (!t.awaitTurn(seq)) {
      return false;
    }
    // this slab's turn: no other worker writes until done moves on
    long n = out != null ? wire.put(head, out) : wire.put(head, payload, plen);
    messages.report(dataBytes);
    t.written(n);
    return true;
  }
}
