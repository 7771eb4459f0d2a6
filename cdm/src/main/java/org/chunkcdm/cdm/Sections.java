package org.chunkcdm.cdm;

import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.chunk.Slabs;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;

/**
 * CDM {@link Section}s in the chunk layer's terms: the bounds check of a filled section, its box (first, count,
 * stride per dimension) for {@link org.chunkcdm.chunk.SectionReader}, and its C-order slabs ({@link Slabs}) as
 * sections of the variable.
 */
public final class Sections {
  private Sections() {}

  /** A section as the chunk layer reads it: per dimension the first index, the count and the stride. */
  public static final class Box {
    public final long[] first;
    public final long[] count;
    public final long[] stride;

    private Box(int rank) {
      first = new long[rank];
      count = new long[rank];
      stride = new long[rank];
    }

    /** Elements in the box. */
    public long size() {
      long n = 1;
      for (long c : count) {
        n *= c;
      }
      return n;
    }
  }

  /** The box of the first {@code rank} dimensions of {@code s}. */
  public static Box box(Section s, int rank) {
    Box b = new Box(rank);
    for (int d = 0; d < rank; d++) {
      Range r = s.getRange(d);
      b.first[d] = r.first();
      b.count[d] = r.length();
      b.stride[d] = r.stride();
    }
    return b;
  }

  /**
   * Checks that a filled section has the rank of {@code shape} and that every non-empty range lies inside its
   * dimension; returns it.
   */
  public static Section checkBounds(Section s, int[] shape) throws InvalidRangeException {
    if (s.getRank() != shape.length) {
      throw new InvalidRangeException("section rank " + s.getRank() + " != variable rank " + shape.length);
    }
    for (int d = 0; d < shape.length; d++) {
      Range r = s.getRange(d);
      if (r.length() > 0 && (r.first() < 0 || r.last() >= shape[d])) {
        throw new InvalidRangeException("range " + r + " outside dimension " + d + " of length " + shape[d]);
      }
    }
    return s;
  }

  /** A slab of {@link Slabs} ({@code origin}, {@code count} in the index space of selection {@code s}) in the variable's. */
  public static Section toVariable(Section s, int[] origin, int[] count) throws InvalidRangeException {
    List<Range> rs = new ArrayList<>(origin.length);
    for (int d = 0; d < origin.length; d++) {
      Range r = s.getRange(d);
      rs.add(new Range(r.element(origin[d]), r.element(origin[d] + count[d] - 1), r.stride()));
    }
    return new Section(rs);
  }

  /**
   * Cuts a (filled) section into C-order pieces of at most {@code maxBytes} (at least one element each), the
   * plain {@link Slabs} of the selection as sections of the variable; a section within the bound (or empty, or of
   * rank 0) is its one piece. Concatenated, the pieces' elements are the section's in C order.
   */
  public static List<Section> pieces(Section s, long elemBytes, long maxBytes) throws InvalidRangeException {
    List<Section> out = new ArrayList<>();
    if (s.getRank() == 0 || s.computeSize() * elemBytes <= maxBytes) {
      out.add(s);
      return out;
    }
    Slabs slabs = new Slabs(s.getShape(), elemBytes, maxBytes);
    for (int[][] slab = slabs.next(); slab != null; slab = slabs.next()) {
      out.add(toVariable(s, slab[0], slab[1]));
    }
    return out;
  }
}
