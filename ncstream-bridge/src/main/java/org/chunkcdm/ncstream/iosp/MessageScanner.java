package org.chunkcdm.ncstream.iosp;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;
import org.chunkcdm.io.FileHandles;

/**
 * Sequential reads of an ncstream file's message framing through positional reads (no shared file pointer).
 * The buffer starts small after every jump and doubles while reads stay sequential, so indexing a file of
 * large data messages reads little more than the message headers; {@link #skip(long)} moves past data bytes
 * without reading them.
 */
final class MessageScanner {
  private static final int MIN_FILL = 256;
  private static final int MAX_FILL = 1 << 16;

  private final FileHandles files;
  private final Path path;
  final long size;
  private final byte[] buf = new byte[MAX_FILL];
  private long bufStart;
  private int bufLen;
  private int nextFill = MIN_FILL;
  private long pos;
  /** Bytes read from the file so far. */
  long bytesRead;

  MessageScanner(FileHandles files, Path path) throws IOException {
    this.files = files;
    this.path = path;
    this.size = files.size(path);
  }

  long position() {
    return pos;
  }

  void seek(long p) {
    pos = p;
  }

  boolean atEnd() {
    return pos >= size;
  }

  private void fill() throws IOException {
    if (pos >= size) {
      throw new EOFException(path + ": file ends at byte " + size + " inside a message (truncated?)");
    }
    boolean sequential = pos == bufStart + bufLen;
    nextFill = sequential ? Math.min(MAX_FILL, nextFill * 2) : MIN_FILL;
    int n = (int) Math.min(nextFill, size - pos);
    files.readFully(path, pos, buf, 0, n);
    bytesRead += n;
    bufStart = pos;
    bufLen = n;
  }

  int readByte() throws IOException {
    if (pos < bufStart || pos >= bufStart + bufLen) {
      fill();
    }
    return buf[(int) (pos++ - bufStart)] & 0xff;
  }

  void readFully(byte[] dst) throws IOException {
    int off = 0;
    while (off < dst.length) {
      if (pos < bufStart || pos >= bufStart + bufLen) {
        if (dst.length - off > MAX_FILL) { // a large piece: read it directly
          if (size - pos < dst.length - off) {
            throw new EOFException(path + ": file ends at byte " + size + " but " + (dst.length - off) + " bytes at "
                + pos + " are needed (truncated?)");
          }
          files.readFully(path, pos, dst, off, dst.length - off);
          bytesRead += dst.length - off;
          pos += dst.length - off;
          return;
        }
        fill();
      }
      int n = (int) Math.min(dst.length - off, bufStart + bufLen - pos);
      System.arraycopy(buf, (int) (pos - bufStart), dst, off, n);
      off += n;
      pos += n;
    }
  }

  byte[] read(long n, String what) throws IOException {
    if (n < 0 || n > size - pos) {
      throw new EOFException(path + ": " + what + " of " + n + " bytes at byte " + pos + " lies past the end of the file ("
          + size + " bytes; truncated?)");
    }
    if (n > 256L << 20) {
      throw new IOException(path + ": " + what + " of " + n + " bytes at byte " + pos + " is implausibly large");
    }
    byte[] b = new byte[(int) n];
    readFully(b);
    return b;
  }

  /** An unsigned protobuf-style varint (7 bits a byte, low first). */
  long readVarint(String what) throws IOException {
    long start = pos;
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = readByte();
      v |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        if (v < 0) {
          break;
        }
        return v;
      }
    }
    throw new IOException(path + ": malformed length (" + what + ") at byte " + start);
  }

  /** Moves past {@code n} bytes without reading them; past the end of the file is an IOException. */
  void skip(long n, String what) throws IOException {
    if (n < 0 || n > size - pos) {
      throw new EOFException(path + ": " + what + " of " + n + " bytes at byte " + pos + " lies past the end of the file ("
          + size + " bytes; truncated?)");
    }
    pos += n;
  }
}
