package org.chunkcdm.open;

import java.util.List;
import java.util.Map;
import org.chunkcdm.chunk.ChunkedArray;

/** One named variable of a {@link ChunkedDataset}. */
public interface ChunkedVariable {
  /** The name as the CDM shows it (docs/cdm-contract.md). */
  String name();

  /** One dimension name per logical dimension of {@link #array()} (the CDM's shared dimension names). */
  List<String> dimensions();

  /**
   * The stored array: element type, chunk grid, chunks; read it with {@code SectionReader} (typed read:
   * {@code SectionReader.readInto}/{@code read(..., short[] dst, int off)}; raw bytes: {@code readBytes}). It
   * reads with the {@link OpenOptions} the dataset was opened with ({@code ChunkedArray.settings()}). Null for a
   * variable that is not a fixed-size chunked array (a {@code .ds} string variable, a bcolz column of pickled
   * Python objects); such variables are reachable only through the CDM adapter.
   */
  ChunkedArray array();

  /**
   * Attributes in file order. Values are {@code String}, a boxed number ({@code Byte, Short, Integer, Long,
   * Float, Double}), or an array of one of those ({@code String[]}, {@code byte[]}, {@code short[]},
   * {@code int[]}, {@code long[]}, {@code float[]}, {@code double[]}); {@link #unsigned()} lists the names whose
   * integer values are unsigned. Besides the format's own attributes they hold what the CDM view shows
   * ({@code _ChunkSizes}, bool {@code flag_values}/{@code flag_meanings}, ...), in the CDM view's order.
   */
  Map<String, Object> attributes();

  /** Names of {@link #attributes()} whose integer values are unsigned (e.g. a uint8 {@code _FillValue}). */
  default java.util.Set<String> unsigned() {
    return java.util.Set.of();
  }
}
