package org.chunkcdm.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the test data ({@code testdata/<family>} in the repository) relative to the reactor root (not the module
 * directory) and reads the families' {@code MANIFEST.json} files. The reactor root comes from the system property
 * {@code chunkcdm.test.root} (set by surefire) or, failing that, from walking up from the working directory to
 * the directory whose {@code pom.xml} is the reactor's.
 */
public final class Fixtures {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, Manifest> MANIFESTS = new ConcurrentHashMap<>();

  private Fixtures() {}

  /** The reactor root directory. */
  public static Path root() {
    String prop = System.getProperty("chunkcdm.test.root");
    if (prop != null && !prop.isEmpty() && Files.isDirectory(Paths.get(prop, "testdata"))) {
      return Paths.get(prop).toAbsolutePath().normalize();
    }
    Path dir = Paths.get("").toAbsolutePath();
    for (Path d = dir; d != null; d = d.getParent()) {
      if (Files.isDirectory(d.resolve("netcdf-bootstrap")) && Files.isRegularFile(d.resolve("pom.xml"))) {
        return d;
      }
    }
    throw new IllegalStateException("cannot find the chunkcdm reactor root above " + dir);
  }

  /** {@code <root>/testdata}: one directory per fixture family. */
  public static Path testdata() {
    Path p = root().resolve("testdata");
    if (!Files.isDirectory(p)) {
      throw new IllegalStateException("test data not found: " + p);
    }
    return p;
  }

  /** {@code testdata/<family>}, e.g. family "bcolz", "bloscpack", "blosc2", "ds", "hdf5-blosc". */
  public static Path family(String family) {
    return testdata().resolve(family);
  }

  /** The manifest of one fixture family (cached). */
  public static Manifest manifest(String family) {
    return MANIFESTS.computeIfAbsent(family, f -> {
      Path dir = family(f);
      try {
        return new Manifest(dir, JSON.readTree(dir.resolve("MANIFEST.json").toFile()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** One fixture family's MANIFEST.json ({@code json}), read from directory {@code dir}. */
  public record Manifest(Path dir, JsonNode json) {
    /** All dataset entries. */
    public List<Dataset> datasets() {
      List<Dataset> out = new ArrayList<>();
      json.path("datasets").forEach(d -> out.add(new Dataset(this, d)));
      return out;
    }

    /** Dataset entries whose {@code kind} is one of the given kinds. */
    public List<Dataset> datasets(String... kinds) {
      List<Dataset> out = new ArrayList<>();
      for (Dataset d : datasets()) {
        for (String k : kinds) {
          if (k.equals(d.kind())) {
            out.add(d);
          }
        }
      }
      return out;
    }

    public Dataset dataset(String path) {
      return find(datasets(), Dataset::path, path, "dataset", dir);
    }

    @Override
    public String toString() {
      return dir.toString();
    }
  }

  /** The entry of {@code all} whose {@code key} is {@code want}. */
  private static <T> T find(List<T> all, java.util.function.Function<T, String> key, String want, String what,
      Object where) {
    for (T t : all) {
      if (key.apply(t).equals(want)) {
        return t;
      }
    }
    throw new IllegalArgumentException("no " + what + " " + want + " in " + where);
  }

  /** One dataset entry ({@code json}) of a manifest. */
  public record Dataset(Manifest manifest, JsonNode json) {
    public String path() {
      return json.path("path").asText();
    }

    public String kind() {
      return json.path("kind").asText();
    }

    /** Absolute path of the dataset file or directory. */
    public Path file() {
      return manifest.dir().resolve(path());
    }

    public List<Variable> variables() {
      List<Variable> out = new ArrayList<>();
      json.path("variables").forEach(v -> out.add(new Variable(this, v)));
      return out;
    }

    public Variable variable(String name) {
      return find(variables(), Variable::name, name, "variable", path());
    }

    @Override
    public String toString() {
      return path();
    }
  }

  /** One variable entry ({@code json}) of a dataset. */
  public record Variable(Dataset dataset, JsonNode json) {
    public String name() {
      return json.path("name").asText();
    }

    public String dtype() {
      return json.path("dtype").asText();
    }

    public long[] shape() {
      JsonNode s = json.path("shape");
      long[] out = new long[s.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = s.get(i).asLong();
      }
      return out;
    }

    /** True when the manifest gives an expected raw file. */
    public boolean hasExpected() {
      return json.hasNonNull("expected");
    }

    /** The expected raw bytes (C order, little-endian), read from the manifest's {@code expected} path. */
    public byte[] expected() {
      return bytes(dataset.manifest().dir().resolve(json.path("expected").asText()));
    }

    @Override
    public String toString() {
      return dataset.path() + ":" + name();
    }
  }

  /**
   * The integer at byte {@code p} of expected values {@code le} (little-endian) of numpy kind and size {@code code}
   * ({@code i1} to {@code u8}) in decimal, as a dump prints it; null for another code.
   */
  public static String integerText(java.nio.ByteBuffer le, int p, String code) {
    switch (code) {
      case "i1":
        return String.valueOf(le.get(p));
      case "i2":
        return String.valueOf(le.getShort(p));
      case "i4":
        return String.valueOf(le.getInt(p));
      case "i8":
        return String.valueOf(le.getLong(p));
      case "u1":
        return String.valueOf(le.get(p) & 0xff);
      case "u2":
        return String.valueOf(le.getShort(p) & 0xffff);
      case "u4":
        return String.valueOf(le.getInt(p) & 0xffffffffL);
      case "u8":
        return Long.toUnsignedString(le.getLong(p));
      default:
        return null;
    }
  }

  /** Reads a whole file. */
  public static byte[] bytes(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
