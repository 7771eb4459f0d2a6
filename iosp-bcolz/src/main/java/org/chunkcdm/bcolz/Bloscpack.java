package org.chunkcdm.bcolz;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.io.Inflation;
import org.chunkcdm.chunk.BloscChunkData;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.io.FileHandles;

/**
 * One Bloscpack format-3 file (a {@code .blp} file, or a Blaze superchunk {@code __N__.bin}): the 32-byte
 * header, the optional metadata section, the optional offsets table and the chunk frames, each followed by
 * its checksum (layout: testdata/bloscpack/README.md). Parsing validates every size against the
 * file size before anything is allocated; each chunk's checksum is verified whenever the chunk is read.
 */
final class Bloscpack {
  static final int HEADER = 32;
  static final int VERSION = 3;
  private static final int FRAME_HEADER = 16;
  private static final String[] CHECKSUMS = {"None", "adler32", "crc32", "md5", "sha1", "sha224", "sha256", "sha384", "sha512"};
  private static final int[] DIGEST_SIZES = {0, 4, 4, 16, 20, 28, 32, 48, 64};
  private static final String[] JCA = {null, null, null, "MD5", "SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512"};

  private final FileHandles files;
  final Path file;
  final int checksum;
  final int typesize;
  final long chunkSize;
  final long lastChunk;
  final int nchunks;
  final boolean hasOffsets;
  /** Parsed metadata JSON, or null when the file has none. */
  final JsonNode metadata;
  /** Absolute position of each chunk's Blosc frame. */
  private final long[] offsets;

  private Bloscpack(FileHandles files, Path file, int checksum, int typesize, long chunkSize, long lastChunk,
      int nchunks, boolean hasOffsets, JsonNode metadata, long[] offsets) {
    this.files = files;
    this.file = file;
    this.checksum = checksum;
    this.typesize = typesize;
    this.chunkSize = chunkSize;
    this.lastChunk = lastChunk;
    this.nchunks = nchunks;
    this.hasOffsets = hasOffsets;
    this.metadata = metadata;
    this.offsets = offsets;
  }

  /** True when {@code head} (at least 5 bytes) starts a Bloscpack format-3 file. */
  static boolean isBloscpack(byte[] head, int len) {
    return len >= 5 && head[0] == 'b' && head[1] == 'l' && head[2] == 'p' && head[3] == 'k' && head[4] == VERSION;
  }

  static Bloscpack open(FileHandles files, Path p) throws IOException {
    long size = files.size(p);
    if (size < HEADER) {
      throw new FormatException(p + ": " + size + " bytes, shorter than the 32-byte Bloscpack header");
    }
    byte[] h = files.read(p, 0, HEADER);
    if (h[0] != 'b' || h[1] != 'l' || h[2] != 'p' || h[3] != 'k') {
      throw new FormatException(p + ": not a Bloscpack file (no 'blpk' magic)");
    }
    if (h[4] != VERSION) {
      throw new FormatException(p + ": Bloscpack format version " + (h[4] & 0xff) + " is not supported (only 3)");
    }
    int options = h[5] & 0xff;
    if ((options & ~3) != 0) {
      throw new FormatException(p + ": unknown Bloscpack options 0x" + Integer.toHexString(options));
    }
    int checksum = checksumId(h[6] & 0xff, p + ": chunk checksum");
    int typesize = h[7] & 0xff;
    long chunkSize = le32s(h, 8);
    long lastChunk = le32s(h, 12);
    long nchunks = le64(h, 16);
    long maxApp = le64(h, 24);
    boolean hasOffsets = (options & 1) != 0;
    if (nchunks < 0 || chunkSize < 0 || lastChunk < 0) {
      throw new FormatException(p + ": unknown sizes in the header (nchunks " + nchunks + ", chunk_size " + chunkSize
          + ", last_chunk " + lastChunk + ") are not supported");
    }
    if (nchunks > 0 && lastChunk > chunkSize) {
      throw new FormatException(p + ": last_chunk " + lastChunk + " is larger than chunk_size " + chunkSize);
    }
    int digest = DIGEST_SIZES[checksum];
    if (nchunks > (size - HEADER) / (FRAME_HEADER + digest)) {
      throw new FormatException(p + ": header claims " + nchunks + " chunks, more than a file of " + size + " bytes can hold");
    }
    if (maxApp < 0 || maxApp > size / 8) {
      throw new FormatException(p + ": header claims " + maxApp + " reserved offset slots in a file of " + size + " bytes");
    }
    long pos = HEADER;
    JsonNode meta = null;
    if ((options & 2) != 0) {
      long[] end = new long[1];
      meta = readMetadata(files, p, pos, size, end);
      pos = end[0];
    }
    int n = (int) nchunks;
    long[] offsets = new long[n];
    if (hasOffsets) {
      long slots = nchunks + maxApp;
      long first = pos + slots * 8;
      if (first > size) {
        throw new FormatException(p + ": offsets table of " + slots + " entries at " + pos + " runs past the end of the file ("
            + size + " bytes)");
      }
      byte[] t = files.read(p, pos, nchunks * 8);
      for (int i = 0; i < n; i++) {
        long o = le64(t, 8 * i);
        if (o < first || o > size - FRAME_HEADER - digest) {
          throw new FormatException(p + ": offset " + o + " of chunk " + i + " is outside the chunk area [" + first + ", "
              + size + ")");
        }
        offsets[i] = o;
      }
    } else {
      long at = pos;
      for (int i = 0; i < n; i++) {
        if (at > size - FRAME_HEADER - digest) {
          throw new FormatException(p + ": chunk " + i + " would start at " + at + ", past the end of the file (" + size
              + " bytes)");
        }
        offsets[i] = at;
        long ct = le32(files.read(p, at, FRAME_HEADER), 12);
        if (ct < FRAME_HEADER) {
          throw new FormatException(p + ": chunk " + i + " at " + at + " has a Blosc header with ctbytes " + ct);
        }
        at += ct + digest;
      }
    }
    return new Bloscpack(files, p, checksum, typesize, chunkSize, lastChunk, n, hasOffsets, meta, offsets);
  }

  private static JsonNode readMetadata(FileHandles files, Path p, long pos, long size, long[] end) throws IOException {
    if (pos + 32 > size) {
      throw new FormatException(p + ": metadata header at " + pos + " runs past the end of the file");
    }
    byte[] m = files.read(p, pos, 32);
    String magic = new String(m, 0, 8, StandardCharsets.US_ASCII).replace("\0", "");
    if (!magic.equals("JSON")) {
      throw new FormatException(p + ": metadata format '" + magic + "' is not supported (only JSON)");
    }
    int metaChecksum = checksumId(m[9] & 0xff, p + ": metadata checksum");
    int codec = m[10] & 0xff;
    long metaSize = le32(m, 12);
    long maxMeta = le32(m, 16);
    long comp = le32(m, 20);
    if (codec > 1) {
      throw new FormatException(p + ": metadata codec " + codec + " is not supported (0 none, 1 zlib)");
    }
    int digest = DIGEST_SIZES[metaChecksum];
    long dataAt = pos + 32;
    if (comp > maxMeta || maxMeta > size - dataAt - digest || metaSize > Json.MAX_META_FILE) {
      throw new FormatException(p + ": metadata sizes (size " + metaSize + ", stored " + comp + ", reserved " + maxMeta
          + ") do not fit a file of " + size + " bytes");
    }
    byte[] stored = files.read(p, dataAt, comp);
    if (digest > 0) {
      byte[] want = files.read(p, dataAt + maxMeta, digest);
      if (!Arrays.equals(want, digest(metaChecksum, stored, 0, stored.length))) {
        throw new FormatException(p + ": metadata " + CHECKSUMS[metaChecksum] + " checksum mismatch");
      }
    }
    byte[] text;
    if (codec == 1) {
      text = new byte[(int) metaSize];
      Inflater inf = new Inflater();
      try {
        inf.setInput(stored);
        int got = Inflation.inflateInto(inf, text);
        if (got != metaSize || !inf.finished()) {
          throw new FormatException(p + ": zlib metadata does not decompress to its " + metaSize + " bytes");
        }
      } catch (DataFormatException e) {
        throw new IOException(p + ": corrupt zlib metadata: " + e.getMessage(), e);
      } finally {
        inf.end();
      }
    } else {
      if (comp != metaSize) {
        throw new FormatException(p + ": uncompressed metadata stores " + comp + " bytes but its size is " + metaSize);
      }
      text = stored;
    }
    end[0] = dataAt + maxMeta + digest;
    return Json.parse(text, p + " (metadata)");
  }

  private static int checksumId(int id, String what) throws IOException {
    if (id >= CHECKSUMS.length) {
      throw new FormatException(what + " id " + id + " is unknown");
    }
    return id;
  }

  static String checksumName(int id) {
    return CHECKSUMS[id];
  }

  /** The digest bytes Bloscpack stores for {@code b[off..off+len)} (adler32/crc32 as u32 little-endian). */
  static byte[] digest(int id, byte[] b, int off, int len) {
    switch (id) {
      case 0:
        return new byte[0];
      case 1:
      case 2: {
        java.util.zip.Checksum c = id == 1 ? new Adler32() : new CRC32();
        c.update(b, off, len);
        long v = c.getValue();
        return new byte[] {(byte) v, (byte) (v >> 8), (byte) (v >> 16), (byte) (v >> 24)};
      }
      default:
        try {
          MessageDigest md = MessageDigest.getInstance(JCA[id]);
          md.update(b, off, len);
          return md.digest();
        } catch (NoSuchAlgorithmException e) {
          throw new IllegalStateException(JCA[id] + " missing from the JRE", e);
        }
    }
  }

  /** Decoded bytes of all chunks. */
  long totalBytes() {
    return nchunks == 0 ? 0 : chunkSize * (nchunks - 1) + lastChunk;
  }

  long chunkBytes(int k) {
    return k == nchunks - 1 ? lastChunk : chunkSize;
  }

  /** Reads the 16-byte Blosc header of chunk k (for describing the compression). */
  byte[] frameHeader(int k) throws IOException {
    return files.read(file, offsets[k], FRAME_HEADER);
  }

  private volatile long[] ends;

  /**
   * Where chunk k's stored bytes (frame and checksum) end at the latest: the next chunk's offset, or the end of
   * the file. Chunks are written one after the other, so this is usually exactly its end.
   */
  private long storedEnd(int k) throws IOException {
    long[] e = ends;
    if (e == null) {
      long[] sorted = offsets.clone();
      java.util.Arrays.sort(sorted);
      long size = files.size(file);
      e = new long[nchunks];
      for (int i = 0; i < nchunks; i++) {
        int at = java.util.Arrays.binarySearch(sorted, offsets[i]);
        while (at + 1 < sorted.length && sorted[at + 1] == offsets[i]) {
          at++;
        }
        e[i] = at + 1 < sorted.length ? sorted[at + 1] : size;
      }
      ends = e;
    }
    return e[k];
  }

  /** The most a chunk's stored bytes can take: its data, the Blosc header and overhead, the checksum. */
  private long maxStored(int k) {
    return chunkBytes(k) + FRAME_HEADER + 64 + DIGEST_SIZES[checksum];
  }

  /** Remote: the stored range of each chunk, so a read's chunks come with few coalesced requests. */
  org.chunkcdm.io.FileHandles.Prefetch prefetch(long[] chunks) throws IOException {
    if (!files.isRemote()) {
      return org.chunkcdm.io.FileHandles.Prefetch.NONE;
    }
    java.util.List<org.chunkcdm.io.FileHandles.Range> r = new java.util.ArrayList<>();
    for (long c : chunks) {
      int k = (int) c;
      if (k >= 0 && k < nchunks && storedEnd(k) - offsets[k] <= maxStored(k)) {
        r.add(new org.chunkcdm.io.FileHandles.Range(file, offsets[k], storedEnd(k) - offsets[k]));
      }
    }
    return files.prefetch(r);
  }

  /** Chunk k after its checksum was verified: decodes lazily, by block. */
  ChunkData chunk(int k) throws IOException {
    if (k < 0 || k >= nchunks) {
      throw new IOException(file + ": chunk " + k + " does not exist (" + nchunks + " chunks)");
    }
    int digest = DIGEST_SIZES[checksum];
    long at = offsets[k];
    if (files.isRemote() && storedEnd(k) - at <= maxStored(k) && storedEnd(k) - at >= FRAME_HEADER + digest) {
      // one ranged GET of the chunk's stored bytes (up to the next chunk), not a header read and then the frame
      byte[] stored = files.read(file, at, storedEnd(k) - at);
      long ct = le32(stored, 12);
      if (ct < FRAME_HEADER || ct + digest > stored.length) {
        throw new FormatException(file + ": chunk " + k + " at " + at + ": Blosc frame of " + ct + " bytes (+" + digest
            + " checksum bytes) does not fit before the next chunk at " + storedEnd(k));
      }
      return checked(k, stored, ct, digest);
    }
    long size = files.size(file);
    byte[] head = files.read(file, at, FRAME_HEADER);
    long nbytes = le32(head, 4);
    long ct = le32(head, 12);
    long want = chunkBytes(k);
    if (ct < FRAME_HEADER || ct > size - at - digest) {
      throw new FormatException(file + ": chunk " + k + " at " + at + ": Blosc frame of " + ct + " bytes (+" + digest
          + " checksum bytes) does not fit the file of " + size + " bytes");
    }
    if (nbytes != want) {
      throw new FormatException(file + ": chunk " + k + " decodes to " + nbytes + " bytes but the header says " + want);
    }
    byte[] frame = files.read(file, at, ct + digest);
    return checked(k, frame, ct, digest);
  }

  /** Chunk k's frame (ct bytes at 0, its checksum after it) once the checksum and decoded size are verified. */
  private ChunkData checked(int k, byte[] frame, long ct, int digest) throws IOException {
    long nbytes = le32(frame, 4);
    if (nbytes != chunkBytes(k)) {
      throw new FormatException(file + ": chunk " + k + " decodes to " + nbytes + " bytes but the header says " + chunkBytes(k));
    }
    if (digest > 0) {
      byte[] got = digest(checksum, frame, 0, (int) ct);
      if (!Arrays.equals(got, 0, digest, frame, (int) ct, (int) ct + digest)) {
        throw new FormatException(file + ": chunk " + k + " " + CHECKSUMS[checksum] + " checksum mismatch");
      }
    }
    // errors when the chunk is decoded later name the file and chunk too
    return BloscChunkData.of(frame, 0, (int) ct, file + ": chunk " + k);
  }

  /** All chunks as one decoded byte stream; a read decodes only the chunks (and blocks) it covers. */
  ChunkData whole() {
    long total = totalBytes();
    return new ChunkData() {
      @Override
      public long size() {
        return total;
      }

      @Override
      public void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
        if (offset < 0 || len < 0 || offset + len > total) {
          throw new FormatException(file + ": read of " + len + " bytes at " + offset + " outside " + total + " bytes");
        }
        while (len > 0) {
          int k = (int) (offset / chunkSize);
          long in = offset - k * chunkSize;
          int n = (int) Math.min(len, chunkBytes(k) - in);
          chunk(k).read(in, dst, dstOff, n);
          offset += n;
          dstOff += n;
          len -= n;
        }
      }
    };
  }

  static long le32(byte[] b, int o) {
    return (b[o] & 0xffL) | (b[o + 1] & 0xffL) << 8 | (b[o + 2] & 0xffL) << 16 | (b[o + 3] & 0xffL) << 24;
  }

  private static long le32s(byte[] b, int o) {
    return (int) le32(b, o);
  }

  static long le64(byte[] b, int o) {
    return le32(b, o) | le32(b, o + 4) << 32;
  }
}
