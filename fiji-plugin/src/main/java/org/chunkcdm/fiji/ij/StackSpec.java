package org.chunkcdm.fiji.ij;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.fiji.ImageVariable;

/**
 * Which CDM dimension plays which ImageJ role (X, Y, Z, C, T) and which part of it is shown
 * (first/count/stride per CDM dimension). Defaults: X = last dimension, Y = the one before, then rank 3 → Z,
 * rank 4 → T,Z, rank 5 → T,C,Z (dimensions 0,1,2); any further leading dimension is fixed at its first index. An
 * OME-Zarr level takes its roles from its OME axes instead ({@link org.chunkcdm.fiji.OmeZarr#roles}).
 */
public final class StackSpec {
  public static final String NONE = "-";
  /** Roles in dialog order. */
  static final String[] ROLES = {"X", "Y", "Z", "C", "T"};

  final ImageVariable v;
  final long[] shape;
  /** dimension index of each role X,Y,Z,C,T (-1 = none). */
  final int[] dimOf = new int[5];
  final long[] first;
  final long[] count;
  final long[] stride;

  private StackSpec(ImageVariable v, int[] dimOf, long[] first, long[] count, long[] stride) {
    this.v = v;
    this.shape = v.shape();
    System.arraycopy(dimOf, 0, this.dimOf, 0, 5);
    this.first = first;
    this.count = count;
    this.stride = stride;
  }

  /** Default role per dimension. */
  static int[] defaultRoles(int rank) {
    int[] r = {-1, -1, -1, -1, -1};
    r[0] = rank - 1;
    if (rank >= 2) {
      r[1] = rank - 2;
    }
    if (rank == 3) {
      r[2] = 0;
    } else if (rank == 4) {
      r[4] = 0;
      r[2] = 1;
    } else if (rank >= 5) {
      r[4] = rank - 5;
      r[3] = rank - 4;
      r[2] = rank - 3;
    }
    return r;
  }

  /** The defaults with the whole variable. */
  public static StackSpec defaults(ImageVariable v) throws IOException {
    return of(v, null, null);
  }

  /**
   * @param roles dimension name per role X,Y,Z,C,T ({@link #NONE} or null = none); null = defaults
   * @param subset per CDM dimension {@code first:last[:stride]} (inclusive) or {@code i} or {@code :}, comma
   *     separated; null/empty = everything (dimensions without a role: their first index)
   */
  public static StackSpec of(ImageVariable v, String[] roles, String subset) throws IOException {
    String why = v.whyNotAnImage();
    if (why != null) {
      throw new IOException(why);
    }
    int rank = v.rank();
    if (rank < 1) {
      throw new IOException("variable '" + v.name() + "' is a scalar, not an image");
    }
    List<String> dims = v.dimensions();
    int[] ome = roles == null ? org.chunkcdm.fiji.OmeZarr.roles(v) : null; // an OME-Zarr level: roles by its axes
    int[] dimOf = ome != null ? ome : defaultRoles(rank);
    if (roles != null) {
      Arrays.fill(dimOf, -1);
      for (int r = 0; r < 5 && r < roles.length; r++) {
        if (roles[r] == null || roles[r].isEmpty() || roles[r].equals(NONE)) {
          continue;
        }
        int d = dims.indexOf(roles[r]);
        if (d < 0) {
          throw new IOException("variable '" + v.name() + "' has no dimension '" + roles[r] + "' for " + ROLES[r]
              + " (dimensions: " + String.join(", ", dims) + ")");
        }
        for (int q = 0; q < r; q++) {
          if (dimOf[q] == d) {
            throw new IOException("dimension '" + roles[r] + "' is both " + ROLES[q] + " and " + ROLES[r]);
          }
        }
        dimOf[r] = d;
      }
      if (dimOf[0] < 0) {
        throw new IOException("choose a dimension for X");
      }
    }
    long[] shape = v.shape();
    long[] first = new long[rank];
    long[] count = new long[rank];
    long[] stride = new long[rank];
    String[] parts = subset == null || subset.trim().isEmpty() ? new String[0] : subset.split(",", -1);
    if (parts.length != 0 && parts.length != rank) {
      throw new IOException("subset '" + subset + "' has " + parts.length + " entries, variable '" + v.name() + "' has "
          + rank + " dimensions (" + String.join(", ", dims) + ")");
    }
    for (int d = 0; d < rank; d++) {
      boolean hasRole = false;
      for (int r : dimOf) {
        hasRole |= r == d;
      }
      String p = parts.length == 0 ? "" : parts[d].trim();
      long f = 0;
      long l = hasRole ? shape[d] - 1 : 0;
      long s = 1;
      if (!p.isEmpty() && !p.equals(":")) {
        try {
          String[] q = p.split(":", -1);
          f = q[0].isEmpty() ? 0 : Long.parseLong(q[0].trim());
          l = q.length == 1 ? f : q[1].isEmpty() ? shape[d] - 1 : Long.parseLong(q[1].trim());
          s = q.length >= 3 && !q[2].isEmpty() ? Long.parseLong(q[2].trim()) : 1;
        } catch (NumberFormatException e) {
          throw new IOException("subset entry '" + p + "' for dimension " + dims.get(d) + ": use first:last[:stride]");
        }
      }
      if (f < 0 || l >= shape[d] || l < f || s < 1) {
        throw new IOException("subset entry '" + p + "' outside dimension " + dims.get(d) + " of length " + shape[d]);
      }
      first[d] = f;
      stride[d] = s;
      count[d] = (l - f) / s + 1;
      if (!hasRole && count[d] != 1) {
        throw new IOException("dimension " + dims.get(d) + " has no role (X, Y, Z, C, T): its subset must be one index");
      }
    }
    return new StackSpec(v, dimOf, first, count, stride);
  }

  int x() {
    return dimOf[0];
  }

  int y() {
    return dimOf[1];
  }

  long len(int role) {
    return dimOf[role] < 0 ? 1 : count[dimOf[role]];
  }

  public long width() {
    return len(0);
  }

  public long height() {
    return len(1);
  }

  public int slices() {
    return (int) len(2);
  }

  public int channels() {
    return (int) len(3);
  }

  long getPlanes() {
    return (long) slices() * channels() * frames();
  }

  public int frames() {
    return (int) len(4);
  }

  /** Bytes of one displayed plane at the given bit depth. */
  long planeBytes(int bitDepth) {
    return width() * height() * (bitDepth / 8);
  }

  /** Role names for the dialog's defaults (dimension name or {@link #NONE}). */
  String roleName(int role) {
    return dimOf[role] < 0 ? NONE : v.dimensions().get(dimOf[role]);
  }
}
