package org.chunkcdm.blosc;

import java.io.IOException;

/**
 * TEMPORARY STUB on branch bcolz until branch codec is merged (take codec's version on conflict).
 * Only what the bcolz module and NativeBlosc need to compile.
 */
public final class BloscHeader {
  private final int flags;
  private final int typesize;
  private final long nbytes;
  private final long cbytes;

  private BloscHeader(int flags, int typesize, long nbytes, long cbytes) {
    this.flags = flags;
    this.typesize = typesize;
    this.nbytes = nbytes;
    this.cbytes = cbytes;
  }

  public static BloscHeader parse(byte[] b, int off, int len) throws IOException {
    if (len < 16) {
      throw new IOException("Blosc chunk of " + len + " bytes is shorter than its 16-byte header");
    }
    return new BloscHeader(b[off + 2] & 0xff, b[off + 3] & 0xff, le32(b, off + 4), le32(b, off + 12));
  }

  private static long le32(byte[] b, int o) {
    return (b[o] & 0xffL) | (b[o + 1] & 0xffL) << 8 | (b[o + 2] & 0xffL) << 16 | (b[o + 3] & 0xffL) << 24;
  }

  public int flags() {
    return flags;
  }

  public int typesize() {
    return typesize;
  }

  public long nbytes() {
    return nbytes;
  }

  public long cbytes() {
    return cbytes;
  }
}
