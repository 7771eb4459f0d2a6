package org.chunkcdm.blosc.zstd;

import org.chunkcdm.blosc.CodecException;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * A zstd dictionary prepared for decoding (RFC 8878, 5): either a formatted dictionary (magic 0xEC30A437,
 * dictionary ID, entropy tables, 3 repeat offsets, content) or raw content (any bytes not starting with that
 * magic; ID 0, default tables and repeat offsets). Parsed once, immutable, shared by any number of threads.
 */
public final class ZstdDictionary {
  /** Magic number of a formatted dictionary (little-endian in the bytes). */
  public static final int MAGIC = 0xEC30A437;

  private final long id;
  private final boolean formatted;
  final byte[] content;
  final int[] huffTable; // null for raw content
  final int huffBits;
  final long[] llTable;
  final long[] mlTable;
  final long[] ofTable;
  final int llLog;
  final int mlLog;
  final int ofLog;
  final int rep1;
  final int rep2;
  final int rep3;

  /** Parses {@code b[off..off+len)} (copied; the array may change afterwards). */
  public ZstdDictionary(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len >= 8 && (int) ZstdDecoder.INT.get(b, off) == MAGIC) {
      formatted = true;
      id = (int) ZstdDecoder.INT.get(b, off + 4) & 0xFFFFFFFFL;
      final int end = off + len;
      int p = off + 8;
      Fse fse = new Fse();
      Huffman huf = new Huffman(fse);
      try {
        huffTable = new int[Huffman.TABLE_SIZE];
        p += huf.readTable(b, p, end, huffTable, "Huffman table");
        huffBits = huf.maxBits;
        p += fse.readDescription(b, p, end, Fse.OF_MAX_SYMBOL, Fse.OF_MAX_LOG, "offsets table");
        ofLog = fse.log;
        ofTable = new long[1 << ofLog];
        fse.buildSequenceTable(ofTable, Fse.OF_SYM, "offsets table");
        p += fse.readDescription(b, p, end, Fse.ML_MAX_SYMBOL, Fse.ML_MAX_LOG, "match lengths table");
        mlLog = fse.log;
        mlTable = new long[1 << mlLog];
        fse.buildSequenceTable(mlTable, Fse.ML_SYM, "match lengths table");
        p += fse.readDescription(b, p, end, Fse.LL_MAX_SYMBOL, Fse.LL_MAX_LOG, "literals lengths table");
        llLog = fse.log;
        llTable = new long[1 << llLog];
        fse.buildSequenceTable(llTable, Fse.LL_SYM, "literals lengths table");
      } catch (IOException e) {
        throw new CodecException("zstd dictionary " + id + ": " + e.getMessage(), e);
      }
      if (end - p < 12) {
        throw new CodecException("zstd dictionary " + id + ": repeat offsets truncated");
      }
      int contentLen = end - p - 12;
      int[] reps = new int[3];
      for (int i = 0; i < 3; i++) {
        reps[i] = (int) ZstdDecoder.INT.get(b, p + 4 * i);
        if (reps[i] == 0 || (reps[i] & 0xFFFFFFFFL) > contentLen) {
          throw new CodecException("zstd dictionary " + id + ": repeat offset " + (i + 1) + " is "
              + (reps[i] & 0xFFFFFFFFL) + ", outside 1.." + contentLen + " (the content size)");
        }
      }
      rep1 = reps[0];
      rep2 = reps[1];
      rep3 = reps[2];
      content = Arrays.copyOfRange(b, p + 12, end);
    } else {
      formatted = false;
      id = 0;
      content = Arrays.copyOfRange(b, off, off + len);
      huffTable = null;
      huffBits = 0;
      llTable = null;
      mlTable = null;
      ofTable = null;
      llLog = 0;
      mlLog = 0;
      ofLog = 0;
      rep1 = 1;
      rep2 = 4;
      rep3 = 8;
    }
  }

  /** Parses the whole array (copied). */
  public ZstdDictionary(byte[] b) throws IOException {
    this(b, 0, b.length);
  }

  /** The dictionary ID (unsigned 32-bit); 0 for raw content. */
  public long id() {
    return id;
  }

  /** True for a formatted dictionary (with magic and entropy tables), false for raw content. */
  public boolean isFormatted() {
    return formatted;
  }

  /** Size of the content that matches may refer to. */
  public int contentSize() {
    return content.length;
  }

  @Override
  public String toString() {
    return formatted ? "zstd dictionary " + id + " (" + content.length + " bytes of content)"
        : "raw-content zstd dictionary (" + content.length + " bytes)";
  }
}
