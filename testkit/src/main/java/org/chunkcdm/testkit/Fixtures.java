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

  /** One fixture family's MANIFEST.json. */
  public static final class Manifest {
    private final Path dir;
    private final JsonNode root;

    Manifest(Path dir, JsonNode root) {
      this.dir = dir;
      this.root = root;
    }

    public Path dir() {
      return dir;
    }

    public JsonNode json() {
      return root;
    }

    /** All dataset entries. */
    public List<Dataset> datasets() {
      List<Dataset> out = new ArrayList<>();
      for (JsonNode d : root.path("datasets")) {
        out.add(new Dataset(this, d));
      }
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
      for (Dataset d : datasets()) {
        if (d.path().equals(path)) {
          return d;
        }
      }
      throw new IllegalArgumentException("no dataset " + path + " in " + dir);
    }
  }

  /** One dataset entry of a manifest. */
  public static final class Dataset {
    private final Manifest manifest;
    private final JsonNode node;

    Dataset(Manifest manifest, JsonNode node) {
      this.manifest = manifest;
      this.node = node;
    }

    public JsonNode json() {
      return node;
    }

    public String path() {
      return node.path("path").asText();
    }

    public String kind() {
      return node.path("kind").asText();
    }

    /** Absolute path of the dataset file or directory. */
    public Path file() {
      return manifest.dir().resolve(path());
    }

    public List<Variable> variables() {
      List<Variable> out = new ArrayList<>();
      for (JsonNode v : node.path("variables")) {
        out.add(new Variable(this, v));
      }
      return out;
    }

    public Variable variable(String name) {
      for (Variable v : variables()) {
        if (v.name().equals(name)) {
          return v;
        }
      }
      throw new IllegalArgumentException("no variable " + name + " in " + path());
    }

    @Override
    public String toString() {
      return path();
    }
  }

  /** One variable entry of a dataset. */
  public static final class Variable {
    private final Dataset dataset;
    private final JsonNode node;

    Variable(Dataset dataset, JsonNode node) {
      this.dataset = dataset;
      this.node = node;
    }

    public JsonNode json() {
      return node;
    }

    public Dataset dataset() {
      return dataset;
    }

    public String name() {
      return node.path("name").asText();
    }

    public String dtype() {
      return node.path("dtype").asText();
    }

    public long[] shape() {
      JsonNode s = node.path("shape");
      long[] out = new long[s.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = s.get(i).asLong();
      }
      return out;
    }

    /** True when the manifest gives an expected raw file. */
    public boolean hasExpected() {
      return node.hasNonNull("expected");
    }

    /** The expected raw bytes (C order, little-endian), read from the manifest's {@code expected} path. */
    public byte[] expected() {
      try {
        return Files.readAllBytes(dataset.manifest.dir().resolve(node.path("expected").asText()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public String toString() {
      return dataset.path() + ":" + name();
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
