package org.chunkcdm.sframe;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.chunkcdm.blosc.BloscFrame;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.open.Attributes;
import org.chunkcdm.open.DatasetVariable;

/**
 * A Blosc2 contiguous frame that is not a file of its own, read by the same parser as frame files ({@code Frame}:
 * header, metalayers, offsets index, trailer, every size checked against the frame's length) and, when it carries
 * a {@code b2nd} metalayer, the same b2nd layout code ({@code B2nd}: block padding dropped, a byte range decodes
 * only the blocks it needs). The frame can be held in a byte array ({@link #parse}: formats that store whole frames
 * as their chunks, such as the HDF5 Blosc2 filter, 32026), lie at an offset of a file ({@link #open(FileHandles,
 * Path, long, long, String)}: a stored zip member) or inside any other byte source ({@link #open(BloscFrame.Source, String)}:
 * a value inside another frame's decompressed byte stream). Opening reads the header, the offsets index and the
 * trailer only. Thread-safe once parsed; a byte array is not copied and must not change while the frame is used.
 */
public final class ContiguousFrame {
  private final Frame f;
  private final B2nd nd;

  private ContiguousFrame(Frame f, B2nd nd) {
    this.f = f;
    this.nd = nd;
  }

  /**
   * The metalayers python-blosc2 marks its containers' key-map frame with ({@code embed.b2e} of a DictStore or
   * TreeStore, an EmbedStore file): such a frame is a container, not an array, and chunkcdm-iosp-blosc2-stores
   * reads it.
   */
  public static final java.util.Set<String> STORE_MARKERS = java.util.Set.of("b2embed", "b2dict", "b2tree");

  /** Bytes at the start of a frame enough for {@link #metalayerNames} on a python-blosc2 container frame. */
  public static final int PROBE_BYTES = 512;

  /**
   * The names of the fixed metalayers of the frame whose first bytes are {@code start} (its header, or a prefix
   * of it: names past the end are missing); empty when {@code start} does not begin a Blosc2 frame.
   */
  public static java.util.Set<String> metalayerNames(byte[] start) {
    return FrameHeader.metalayerNames(start);
  }

  /** True when the frame beginning with {@code start} carries one of the {@link #STORE_MARKERS}. */
  public static boolean isStoreFrame(byte[] start) {
    for (String n : FrameHeader.metalayerNames(start)) {
      if (STORE_MARKERS.contains(n)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Parses the frame in {@code frame}; {@code name} starts every error message (say which file, variable and
   * chunk held the frame). A sparse frame, a lying header or index, or a bad b2nd metalayer is an IOException.
   */
  public static ContiguousFrame parse(byte[] frame, String name) throws IOException {
    return of(Frame.of(frame, name));
  }

  /**
   * The contiguous frame of {@code length} bytes at {@code offset} of {@code file} ({@code length} -1: up to the end
   * of the file), read through {@code files}, whose dataset root must contain the file; {@code name} starts every
   * error message.
   */
  public static ContiguousFrame open(FileHandles files, Path file, long offset, long length, String name)
      throws IOException {
    return of(Frame.open(files, file, offset, length, name));
  }

  /**
   * The contiguous frame whose bytes {@code bytes} gives (thread-safe reads; a range outside is an IOException);
   * {@code name} starts every error message.
   */
  public static ContiguousFrame open(BloscFrame.Source bytes, String name) throws IOException {
    return of(Frame.open(bytes, name));
  }

  private static ContiguousFrame of(Frame f) throws IOException {
    if (f.sparse) {
      throw f.error("a sparse frame (frame type 1) keeps its chunks in files beside it; a contiguous frame is needed");
    }
    byte[] meta = f.metalayers.get("b2nd");
    B2nd nd = null;
    if (meta != null) {
      try {
        nd = B2nd.parse(meta, f.typesize);
      } catch (IOException e) {
        throw f.error(e.getMessage());
      }
    }
    return new ContiguousFrame(f, nd);
  }

  /** The fixed metalayers (name → value bytes as stored), in frame order. */
  public Map<String, byte[]> metalayers() {
    return f.metalayers;
  }

  /** The variable-length metalayers (name → decompressed value bytes), in frame order. */
  public Map<String, byte[]> vlmetalayers() {
    return f.vlmetalayers;
  }

  /**
   * The vlmetalayer {@code name} decoded from msgpack as python-blosc2 writes it (a tuple's {@code "__tuple__"}
   * marker dropped, binary values as hex text), or null when it is absent or not exactly one msgpack value.
   */
  public JsonNode vlmetaJson(String name) {
    byte[] b = f.vlmetalayers.get(name);
    return b == null ? null : MetaAttributes.msgpack(b);
  }

  /** The vlmetalayers as attributes ({@link MetaAttributes}: msgpack values, maps flattened to dotted names). */
  public Attributes vlmetaAttributes() {
    return Blosc2Frames.layerAttributes(f.vlmetalayers, new Attributes());
  }

  /** The header's chunksize (bytes per chunk; 0 when chunk sizes vary). */
  public int chunksize() {
    return f.chunksize;
  }

  /** The frame's length in bytes. */
  public long frameLength() {
    return f.frameLen;
  }

  /**
   * The frame as a dataset variable, exactly as {@link Blosc2Opener} shows a frame file: a b2nd N-d array of its
   * dtype or a plain frame of its typesize, with the attributes {@code compression}, {@code _ChunkSizes},
   * {@code numpy_dtype} / {@code blosc2_typesize} and the metalayers and vlmetalayers. {@code dims}: one
   * dimension name per dimension, null for {@code <name>_dim0, ...}.
   */
  public DatasetVariable variable(String name, List<String> dims) throws IOException {
    return Blosc2Frames.variable(f, name, dims);
  }

  /** Number of chunks in the offsets index. */
  public int chunks() {
    return f.nchunks();
  }

  /** Uncompressed bytes of the whole frame (the header's nbytes). */
  public long nbytes() {
    return f.nbytes;
  }

  /** The item size the frame was compressed with. */
  public int typesize() {
    return f.typesize;
  }

  /** True when the frame holds a b2nd N-d array. */
  public boolean isB2nd() {
    return nd != null;
  }

  /** The b2nd array shape, or null when {@link #isB2nd()} is false. */
  public long[] shape() {
    return nd == null ? null : nd.shape.clone();
  }

  /** The b2nd chunk shape, or null. */
  public int[] chunkShape() {
    return nd == null ? null : nd.chunkshape.clone();
  }

  /** The b2nd block shape, or null. */
  public int[] blockShape() {
    return nd == null ? null : nd.blockshape.clone();
  }

  /** e.g. "blosc2 zstd clevel 5; filters: shuffle; typesize 8; blocksize 8192". */
  public String compression() {
    return f.compression();
  }

  /**
   * The decoded content of chunk {@code k}: for a b2nd frame in C order over the b2nd chunk shape with items of
   * the frame's typesize (block padding dropped; {@link ChunkData#blockSize()} is the Blosc block size only where
   * the layout already is C order), otherwise the chunk's bytes. A zeros or uninitialized index entry reads as
   * zeros. Decoding happens on reads, block by block for small ones; errors name the frame and chunk.
   */
  public ChunkData chunk(int k) throws IOException {
    if (k < 0 || k >= f.nchunks()) {
      throw new FormatException(f.name + ": no chunk " + k + " (the frame has " + f.nchunks() + ")");
    }
    long stored = f.chunkBytes()[k];
    if (nd != null) {
      long ext = Math.multiplyExact(nd.extItems(), (long) f.typesize);
      if (stored != ext) {
        throw f.chunkError(k, "holds " + stored + " bytes, but a b2nd chunk of extchunkshape "
            + java.util.Arrays.toString(nd.extchunkshape) + " and typesize " + f.typesize + " needs " + ext);
      }
    }
    ChunkData c = f.chunk(k);
    if (c == null) {
      c = PatternChunk.zeros(stored);
    }
    return nd == null ? c : nd.view(c, f.typesize);
  }
}
