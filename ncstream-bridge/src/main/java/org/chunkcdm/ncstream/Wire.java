package org.chunkcdm.ncstream;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.GatheringByteChannel;

/**
 * The ncstream output: bytes, protobuf varints and length-prefixed messages written to an {@link OutputStream}
 * or a channel, counting the bytes written. Not thread-safe: one writer at a time.
 */
final class Wire {
  private final OutputStream out;
  /** The channel under {@link #out} (which then buffers the small writes), or null. */
  private final GatheringByteChannel channel;
  private long written;

  Wire(OutputStream out) {
    this.out = out;
    this.channel = null;
  }

  Wire(GatheringByteChannel channel) {
    this.out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
    this.channel = channel;
  }

  /** Whether {@link #put(byte[], ByteBuffer)} writes a direct buffer without copying it. */
  boolean takesBuffers() {
    return channel != null;
  }

  /** Bytes written so far. */
  long written() {
    return written;
  }

  long put(byte[] b) throws IOException {
    out.write(b);
    written += b.length;
    return b.length;
  }

  long put(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    written += len;
    return len;
  }

  /** The bytes of {@code b}. */
  long put(ByteArrayOutputStream b) throws IOException {
    b.writeTo(out);
    written += b.size();
    return b.size();
  }

  /** {@code head} then the first {@code len} bytes of {@code payload}, counted once both are written. */
  long put(byte[] head, byte[] payload, int len) throws IOException {
    out.write(head);
    out.write(payload, 0, len);
    written += head.length + (long) len;
    return head.length + (long) len;
  }

  /**
   * {@code head} then the remaining bytes of {@code payload} (a direct buffer: the channel writes it as it is,
   * in one system call with the head), counted once both are written. Only when {@link #takesBuffers()}.
   */
  long put(byte[] head, ByteBuffer payload) throws IOException {
    out.flush();
    long len = head.length + (long) payload.remaining();
    ByteBuffer[] both = {ByteBuffer.wrap(head), payload};
    for (long left = len; left > 0; ) {
      left -= channel.write(both);
    }
    written += len;
    return len;
  }

  long putVInt(int value) throws IOException {
    byte[] b = new byte[5];
    int n = 0;
    int v = value;
    while ((v & ~0x7F) != 0) {
      b[n++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    b[n++] = (byte) v;
    return put(b, 0, n);
  }

  /** A message: its magic, its length as a varint, its bytes. */
  long message(byte[] magic, byte[] body) throws IOException {
    return put(magic) + putVInt(body.length) + put(body);
  }

  void flush() throws IOException {
    out.flush();
  }

  /** {@code value} as a protobuf varint (unsigned). */
  static void writeVInt(ByteArrayOutputStream o, int value) {
    int v = value;
    while ((v & ~0x7F) != 0) {
      o.write((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    o.write(v);
  }
}
