package org.chunkcdm.sframe;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.chunkcdm.cdm.CdmNames;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.cdm.ChunkedVariables;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.io.FileHandles;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.Group;
import ucar.nc2.Variable;
import ucar.unidata.io.RandomAccessFile;

/**
 * netcdf-java IOSP for Blosc2 frames: sparse frames (a {@code name.b2frame/} directory whose
 * {@code chunks.b2frame} holds header, offsets index and trailer, plus one {@code XXXXXXXX.chunk} file per
 * stored chunk), contiguous frames ({@code .b2frame}, {@code .b2f}) and b2nd N-d arrays stored in either
 * (a {@code b2nd} metalayer). One variable, named after the directory or file.
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
public class Blosc2FrameIosp extends ChunkedIosp {
  static final String INDEX_FILE = "chunks.b2frame";

  @Override
  public boolean isValidFile(RandomAccessFile raf) throws IOException {
    if (raf.length() < Frame.FIXED_HEADER) {
      return false;
    }
    byte[] head = new byte[Frame.MAGIC.length];
    raf.seek(0);
    raf.readFully(head);
    return Arrays.equals(head, Frame.MAGIC);
  }

  @Override
  public String getFileTypeId() {
    return "blosc2";
  }

  @Override
  public String getFileTypeDescription() {
    return "Blosc2 sparse or contiguous frame, b2nd array (chunkcdm)";
  }

  /** File handles of the open dataset (tests check which files were touched). */
  FileHandles handles() {
    return files();
  }

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

  @Override
  protected Path datasetRoot(Path entry) throws IOException {
    return isSparse(entry) ? entry.getParent() : entry;
  }

  @Override
  protected void build(Path entry, Group.Builder root) throws IOException {
    Frame f = Frame.open(files(), entry);
    Path named = f.sparse ? entry.getParent() : entry;
    String name = CdmNames.fromFileName(named.getFileName().toString());
    byte[] b2ndMeta = f.metalayers.get("b2nd");
    Variable.Builder<?> v;
    try {
      v = b2ndMeta != null ? addB2nd(root, name, f, b2ndMeta) : addPlain(root, name, f);
    } catch (ArithmeticException e) {
      throw f.error("array sizes overflow: " + e.getMessage());
    }
    v.addAttribute(new Attribute("compression", f.compression()));
    Set<String> taken = new HashSet<>();
    v.getAttributeContainer().forEach(a -> taken.add(a.getShortName()));
    for (List<Attribute> list : List.of(MetaAttributes.of(f.metalayers), MetaAttributes.of(f.vlmetalayers))) {
      for (Attribute a : list) {
        if (taken.add(a.getShortName())) {
          v.addAttribute(a);
        }
      }
    }
    root.addAttribute(new Attribute("blosc2_frame", f.sparse ? "sparse frame" : "contiguous frame"));
  }

  private Variable.Builder<?> addPlain(Group.Builder root, String name, Frame f) throws IOException {
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
    Variable.Builder<?> v = ChunkedVariables.add(root, name, new FrameArray(f, dt, grid, null), null);
    v.addAttribute(new Attribute("blosc2_typesize", ts));
    if (f.chunksize == 0) {
      v.addAttribute(new Attribute("blosc2_chunk_sizes", "variable (read from the chunk headers when first needed)"));
    }
    return v;
  }

  private Variable.Builder<?> addB2nd(Group.Builder root, String name, Frame f, byte[] meta) throws IOException {
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
    Variable.Builder<?> v = ChunkedVariables.add(root, name, new FrameArray(f, nd.dtype, grid, nd), null);
    v.addAttribute(Attribute.builder("blosc2_blockshape")
        .setValues(Array.factory(DataType.INT, new int[] {nd.blockshape.length}, nd.blockshape)).build());
    v.addAttribute(new Attribute("numpy_dtype", nd.dtypeString));
    return v;
  }

  /** The frame's chunks in index order, plain or as b2nd chunks. */
  private static final class FrameArray implements ChunkedArray {
    final Frame f;
    final DType dt;
    final ChunkGrid grid;
    final B2nd nd;
    final Object key = new Object();

    FrameArray(Frame f, DType dt, ChunkGrid grid, B2nd nd) {
      this.f = f;
      this.dt = dt;
      this.grid = grid;
      this.nd = nd;
    }

    @Override
    public DType dtype() {
      return dt;
    }

    @Override
    public ChunkGrid grid() {
      return grid;
    }

    @Override
    public ChunkData chunk(long index) throws IOException {
      ChunkData c = f.chunk(index);
      return c == null || nd == null ? c : nd.view(c);
    }

    @Override
    public Object cacheKey() {
      return key;
    }
  }
}
