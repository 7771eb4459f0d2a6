package org.chunkcdm.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.Fixtures;
import ucar.ma2.DataType;

/** The zarr fixture family (testdata/zarr) as expectations, built from MANIFEST.json independently of the reader. */
final class ZarrFixtures {
  private ZarrFixtures() {}

  static Fixtures.Manifest manifest() {
    return Fixtures.manifest("zarr");
  }

  static List<Fixtures.Dataset> datasets() {
    return manifest().datasets();
  }

  static Fixtures.Dataset dataset(String path) {
    return manifest().dataset(path);
  }

  /** The CDM full name netcdf-java finds a variable by: groups by '/', a '.' in a name escaped. */
  static String cdmName(String path) {
    String[] parts = path.split("/");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        sb.append('/');
      }
      sb.append(parts[i].replace(".", "\\."));
    }
    return sb.toString();
  }

  /** The chunk shape sections should cross: the (inner) chunks of the array's metadata. */
  static long[] chunks(Fixtures.Variable fv) {
    JsonNode a = fv.dataset().json().path("cparams").path("arrays").path(fv.name());
    JsonNode c = a.path("chunks");
    if (!c.isArray() || c.size() != fv.shape().length) {
      return null;
    }
    long[] out = new long[c.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = c.get(i).asLong();
    }
    return out;
  }

  /** What a manifest variable must read as through netcdf-java. */
  static Expected expected(Fixtures.Variable fv) {
    String dt = fv.dtype();
    String t = dt.substring(1);
    String name = cdmName(fv.name());
    long[] shape = fv.shape();
    byte[] raw = fv.expected();
    Expected e;
    if (t.startsWith("S")) {
      int n = Integer.parseInt(t.substring(1));
      e = Expected.values(fv.toString(), name, DataType.CHAR, shape, n, raw).extraDim(n);
    } else if (t.startsWith("U")) {
      int n = Integer.parseInt(t.substring(1));
      String[] s = new String[raw.length / (4 * n)];
      for (int i = 0; i < s.length; i++) {
        s[i] = Expected.ucs4(raw, 4 * n * i, n);
      }
      e = Expected.strings(fv.toString(), name, shape, s);
    } else if (t.equals("f2")) {
      ByteBuffer in = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
      ByteBuffer out = ByteBuffer.allocate(raw.length * 2).order(ByteOrder.LITTLE_ENDIAN);
      while (in.hasRemaining()) {
        out.putFloat(org.chunkcdm.chunk.DType.halfToFloat(in.getShort()));
      }
      e = Expected.values(fv.toString(), name, DataType.FLOAT, shape, 4, out.array());
    } else {
      e = Expected.numeric(fv, name);
    }
    if (fv.json().hasNonNull("mask")) {
      byte[] mask = bytes(fv.dataset().file().getParent().resolve(fv.json().get("mask").asText()));
      int item = e.itemSize();
      byte[] defined = new byte[mask.length * item];
      for (int i = 0; i < mask.length; i++) {
        for (int k = 0; k < item; k++) {
          defined[i * item + k] = (byte) (mask[i] == 0 ? 1 : 0);
        }
      }
      e = e.defined(defined);
    }
    long[] c = chunks(fv);
    return c == null ? e : e.chunks(c, null);
  }

  static List<Expected> expected(Fixtures.Dataset d) {
    List<Expected> out = new ArrayList<>();
    for (Fixtures.Variable fv : d.variables()) {
      out.add(expected(fv));
    }
    return out;
  }

  static byte[] bytes(java.nio.file.Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
