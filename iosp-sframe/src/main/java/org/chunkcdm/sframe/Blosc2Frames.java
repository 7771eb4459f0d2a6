package org.chunkcdm.sframe;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.BasicChunkedArray;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.open.Attributes;
import org.chunkcdm.open.BasicDataset;
import org.chunkcdm.open.DatasetVariable;
import org.chunkcdm.open.Names;

/**
 * A Blosc2 frame as a dataset, without netcdf-java: sparse frames (a {@code name.b2frame/} directory whose
 * {@code chunks.b2frame} holds header, offsets index and trailer, plus one {@code XXXXXXXX.chunk} file per
 * stored chunk), contiguous frames ({@code .b2frame}, {@code .b2f}) and b2nd N-d arrays stored in either
 * (a {@code b2nd} metalayer). One variable, named after the directory or file. {@link Blosc2FrameIosp} is its
 * CDM view, {@link Blosc2Opener} its opener.
 *
 * <p>A plain frame is a 1-D array of its typesize (docs/cdm-contract.md: 1/2/4/8 bytes → unsigned integers,
 * other typesizes → UBYTE records with an extra dimension) cut into the frame's chunks in index order. A b2nd
 * array is an N-d variable of its numpy dtype on a regular grid of chunkshape; block padding is dropped and a
 * small section decodes only the blocks it intersects ({@link B2nd}). Metalayers and vlmetalayers become
 * attributes of the variable ({@link MetaAttributes}).
 *
 * <p>Opening reads the frame header, the offsets index and the trailer only (frames with variable chunk sizes
 * learn their chunk boundaries from the chunks' 16-byte headers on the first read that needs them).
 */
final class Blosc2Frames {
  static final String FORMAT = "blosc2";
  static final String INDEX_FILE = "chunks.b2frame";

  private Blosc2Frames() {}

  /** True when the frame file at {@code p} is a sparse frame's index file (frame_type byte 1). */
  static boolean isSparse(Path p) throws IOException {
    try (SeekableByteChannel ch = Files.newByteChannel(p)) {
      ByteBuffer b = ByteBuffer.allocate(27);
      while (b.hasRemaining() && ch.read(b) > 0) {
        // fill
      }
      if (b.hasRemaining()) {
        throw new IOException(p + ": too short for a Blosc2 frame header");
      }
      return b.get(26) == 1;
    }
  }

  /** The dataset root of an entry (frame) file: the directory of a sparse frame, else the file. */
  static Path datasetRoot(Path entry) throws IOException {
    return isSparse(entry) ? entry.getParent() : entry;
  }

  /** Reads the frame at {@code entry} through {@code files} (rooted at {@link #datasetRoot}). */
  static BasicDataset read(FileHandles files, Path entry) throws IOException {
    Frame f = Frame.open(files, entry);
    Path named = f.sparse ? entry.getParent() : entry;
    String name = Names.fromFileName(named.getFileName().toString());
    List<DatasetVariable> vars = new ArrayList<>();
    vars.add(variable(f, name, null));
    Attributes global = new Attributes().put("blosc2_frame", f.sparse ? "sparse frame" : "contiguous frame");
    return new BasicDataset(FORMAT, files.root(), vars, global, files);
  }

  /** The frame's one variable: its array and attributes ({@code dims} null: {@code <name>_dim0, ...}). */
  static DatasetVariable variable(Frame f, String name, List<String> dims) throws IOException {
    byte[] b2ndMeta = f.metalayers.get("b2nd");
    ChunkedArray array;
    Attributes ours = new Attributes();
    try {
      array = b2ndMeta != null ? b2nd(f, b2ndMeta, ours) : plain(f, ours);
    } catch (ArithmeticException e) {
      throw f.error("array sizes overflow: " + e.getMessage());
    }
    Attributes attrs = DatasetVariable.standardAttributes(array, true);
    attrs.putAll(ours);
    attrs.put("compression", f.compression());
    layerAttributes(f.metalayers, attrs);
    layerAttributes(f.vlmetalayers, attrs);
    return new DatasetVariable(name, dims, array, attrs, null);
  }

  /** Adds the attributes of each (vl)metalayer to {@code attrs}; a name already there keeps its value. */
  static Attributes layerAttributes(Map<String, byte[]> layers, Attributes attrs) {
    for (Attributes layer : MetaAttributes.of(layers)) {
      attrs.putAbsent(layer.map(), layer.unsigned()); // the first of a name wins
    }
    return attrs;
  }

  private static ChunkedArray plain(Frame f, Attributes attrs) throws IOException {
    DType dt = DType.forTypesize(f.typesize);
    int ts = f.typesize;
    if (f.nbytes % ts != 0) {
      throw f.error("nbytes " + f.nbytes + " is not a multiple of typesize " + ts);
    }
    long[] shape = {f.nbytes / ts};
    ChunkGrid grid;
    if (f.chunksize > 0) {
      if (f.chunksize % ts != 0) {
        throw f.error("chunksize " + f.chunksize + " is not a multiple of typesize " + ts);
      }
      grid = ChunkGrid.flat(shape, f.chunksize / ts, false);
    } else {
      // variable chunk sizes live in the chunk headers: learn them on the first read, not at open
      grid = ChunkGrid.flat(shape, f.nchunks(), () -> {
        long[] bytes = f.chunkBytes();
        long[] starts = new long[bytes.length + 1];
        for (int k = 0; k < bytes.length; k++) {
          if (bytes[k] % ts != 0) {
            throw f.chunkError(k, "holds " + bytes[k] + " bytes, not a multiple of typesize " + ts);
          }
          starts[k + 1] = starts[k] + bytes[k] / ts;
        }
        return starts;
      });
    }
    attrs.put("blosc2_typesize", ts);
    if (f.chunksize == 0) {
      attrs.put("blosc2_chunk_sizes", "variable (read from the chunk headers when first needed)");
    }
    return new FrameArray(f, dt, grid, null);
  }

  private static ChunkedArray b2nd(Frame f, byte[] meta, Attributes attrs) throws IOException {
    B2nd nd;
    try {
      nd = B2nd.parse(meta, f.typesize);
    } catch (IOException e) {
      throw f.error(e.getMessage());
    }
    int item = nd.dtype.itemSize();
    if (item != f.typesize) {
      throw f.error("b2nd dtype " + nd.dtypeString + " has " + item + "-byte items but the frame typesize is " + f.typesize);
    }
    ChunkGrid.Regular grid;
    try {
      grid = ChunkGrid.regular(nd.shape, nd.gridChunkshape());
    } catch (IllegalArgumentException e) {
      throw f.error("b2nd: " + e.getMessage());
    }
    long extBytes = Math.multiplyExact(nd.extItems(), (long) item);
    if (grid.chunkCount() != f.nchunks()) {
      throw f.error("b2nd shape " + Arrays.toString(nd.shape) + " with chunkshape " + Arrays.toString(nd.chunkshape)
          + " needs " + grid.chunkCount() + " chunks but the offsets index has " + f.nchunks());
    }
    for (int k = 0; k < f.nchunks(); k++) {
      if (f.chunkBytes()[k] != extBytes) {
        throw f.chunkError(k, "holds " + f.chunkBytes()[k] + " bytes, but a b2nd chunk of extchunkshape "
            + Arrays.toString(nd.extchunkshape) + " needs " + extBytes);
      }
    }
    attrs.put("blosc2_blockshape", nd.blockshape.clone());
    attrs.put("numpy_dtype", nd.dtypeString);
    return new FrameArray(f, nd.dtype, grid, nd);
  }

  /** The frame's chunks in index order, plain or as b2nd chunks. */
  static final class FrameArray extends BasicChunkedArray {
    final Frame f;
    final B2nd nd;

    FrameArray(Frame f, DType dt, ChunkGrid grid, B2nd nd) {
      super(dt, grid, null, new Object());
      this.f = f;
      this.nd = nd;
    }

    @Override
    public ChunkData chunk(long index) throws IOException {
      ChunkData c = f.chunk(index);
      return c == null || nd == null ? c : nd.view(c);
    }

    @Override
    public org.chunkcdm.io.FileHandles.Prefetch prefetch(long[] chunks) throws IOException {
      return f.prefetch(chunks);
    }
  }
}
