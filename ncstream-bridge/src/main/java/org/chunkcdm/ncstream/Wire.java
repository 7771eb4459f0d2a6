package org.chunkcdm.ncstream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The ncstream output: bytes, protobuf varints and length-prefixed messages written to an {@link OutputStream},
 * counting the bytes written. Not thread-safe: writers take turns on it.
 */
final class Wire {
  private final OutputStream out;
  private long written;

  Wire(OutputStream out) {
    this.out = out;
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
