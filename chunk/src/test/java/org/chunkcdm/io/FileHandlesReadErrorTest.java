package org.chunkcdm.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read error from the disk (simulated: a channel whose positional reads fail as EIO would) surfaces as an
 * IOException naming the file and the range, not as a bare "Input/output error"; it is not taken for a format error.
 */
class FileHandlesReadErrorTest {
  @TempDir
  Path tmp;

  @Test
  void anIoErrorNamesTheFileAndRange() throws Exception {
    Path f = tmp.resolve("chunk.bin");
    byte[] content = new byte[4096];
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) (i * 7);
    }
    Files.write(f, content);
    try (FileChannel real = FileChannel.open(f, StandardOpenOption.READ)) {
      Failing ch = new Failing(real);
      FileHandles h = new FileHandles(f, ch, ch);
      // before the failure: the bytes of the file
      assertArrayEquals(java.util.Arrays.copyOfRange(content, 100, 300), h.read(f, 100, 200));
      ch.fail = true;
      IOException e = assertThrows(IOException.class, () -> h.read(f, 1000, 512));
      assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("512 bytes at offset 1000")
          && e.getMessage().contains("Input/output error"), e.getMessage());
      assertFalse(FormatException.isFormatError(e), "an I/O failure is not a format error: " + e);
      // the file is fine again: the same handles read it
      ch.fail = false;
      assertArrayEquals(java.util.Arrays.copyOfRange(content, 1000, 1512), h.read(f, 1000, 512));
    }
  }

  /** A file channel that delegates to a real one, with positional reads failing on demand. */
  static final class Failing extends FileChannel {
    final FileChannel d;
    volatile boolean fail;

    Failing(FileChannel d) {
      this.d = d;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      if (fail) {
        throw new IOException("Input/output error");
      }
      return d.read(dst, position);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return d.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return d.read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      return d.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      return d.write(srcs, offset, length);
    }

    @Override
    public long position() throws IOException {
      return d.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      d.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return d.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      d.truncate(size);
      return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      d.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
      return d.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
      return d.transferFrom(src, position, count);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      return d.write(src, position);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      return d.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return d.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return d.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      // the real channel is closed by the test
    }
  }
}
