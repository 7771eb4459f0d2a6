package org.chunkcdm.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.DatasetUrl;
import ucar.nc2.dataset.NetcdfDatasets;
import ucar.nc2.dataset.VariableDS;
import ucar.nc2.iosp.IOServiceProvider;

/**
 * The one contract every chunkcdm IOSP meets, run against the fixtures a format supplies (as N5's
 * AbstractN5Test serves n5 and n5-zarr): a format's test class extends this and says which datasets it reads,
 * how they may be opened and what their variables hold ({@link Expected}, built from MANIFEST.json).
 *
 * <ul>
 *   <li>{@link #readsWholeVariablesAndSections}: every fixture through every open path: type, shape, every value,
 *       and strided sections across chunk/block boundaries, the last chunk and single points;
 *   <li>{@link #registeredLikeThreddsConfig}: registered as threddsConfig.xml does, the IOSP claims its files (and
 *       not {@link #foreignFiles()}) and reads them right;
 *   <li>{@link #fileCacheReleaseReacquireModify}: THREDDS' file cache: close() parks the dataset (file handles
 *       released), acquire gives the same object back and it reads right again, a changed last-modified time
 *       gives a reopened dataset that reads right;
 *   <li>{@link #sixteenThreadsReadLikeOne}: 16 threads reading random sections of one open dataset get exactly
 *       the single-thread results, themselves checked against the expected values.
 * </ul>
 * Format-specific checks go in the hooks {@link #checkDataset} / {@link #checkVariable} or in the subclass's own tests.
 *
 * <p><b>Remote runs.</b> Where a {@link RemoteFixtures} is registered (the chunkcdm-remote tests: an S3 server on
 * 127.0.0.1 holding copies of the fixtures), the same contract runs against the remote copies: each fixture
 * opens through {@code NetcdfFiles.open} and {@code NetcdfDatasets.openFile} of its {@code s3://},
 * {@code cdms3://} and {@code http://} locations (one form each, in turn), the cache cases are uploaded and their
 * modification uploaded again (a changed object must change the last-modified time and reopen the dataset), and
 * the threaded check makes fewer reads.
 */
public abstract class IospContract {
  /** One dataset a format reads: a name for reports, its location, what each of its variables holds. */
  public record Fixture(String name, Path location, List<Expected> variables) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** One way of opening a location (NetcdfFiles, NetcdfDatasets, a file: URL, an entry file inside ...). */
  public interface Opener {
    NetcdfFile open(Path location) throws IOException;
  }

  /** A named {@link Opener}. */
  public record Open(String name, Opener opener) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** What a cache case's modification does; returns the last-modified time the reopened dataset must report. */
  public interface Modification {
    long apply(long lastModified) throws IOException;
  }

  /** A private copy of a fixture for the file-cache cycle, the URL THREDDS would use, and how to modify it. */
  public record CacheCase(String name, String url, List<Expected> variables, Modification modification) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Fresh per test method (the cache cases copy fixtures here). */
  @TempDir
  protected Path tmp;

  private final Class<? extends IOServiceProvider> iosp;
  private final String typeId;
  /** The manifest entry of each fixture made by {@link #fixture(Fixtures.Dataset, List)}, by fixture name. */
  private final java.util.Map<String, Fixtures.Dataset> manifestEntries = new java.util.concurrent.ConcurrentHashMap<>();

  /** A contract whose subclass names its IOSP and file type by overriding {@link #iospClass()} and {@link #fileTypeId()}. */
  protected IospContract() {
    this(null, null);
  }

  /** The contract of IOSP {@code iosp}, whose datasets report {@code getFileTypeId()} {@code fileTypeId}. */
  protected IospContract(Class<? extends IOServiceProvider> iosp, String fileTypeId) {
    this.iosp = iosp;
    this.typeId = fileTypeId;
  }

  // ------------------------------------------------------------------ helpers for the formats

  /**
   * The fixture of manifest dataset {@code d} whose variables hold {@code variables}; {@link #dataset(Fixture)} gives
   * {@code d} back.
   */
  protected Fixture fixture(Fixtures.Dataset d, List<Expected> variables) {
    Fixture f = new Fixture(d.path(), d.file(), variables);
    manifestEntries.put(f.name(), d);
    return f;
  }

  /** The fixtures of datasets {@code ds} (see {@link #fixture(Fixtures.Dataset, List)}), {@code expected} saying what each holds. */
  protected List<Fixture> fixtures(List<Fixtures.Dataset> ds,
      java.util.function.Function<Fixtures.Dataset, List<Expected>> expected) {
    List<Fixture> out = new ArrayList<>();
    for (Fixtures.Dataset d : ds) {
      out.add(fixture(d, expected.apply(d)));
    }
    return out;
  }

  /** What the variables of manifest dataset {@code d} hold, each by {@code each}. */
  protected static List<Expected> expected(Fixtures.Dataset d, java.util.function.Function<Fixtures.Variable, Expected> each) {
    List<Expected> out = new ArrayList<>();
    for (Fixtures.Variable v : d.variables()) {
      out.add(each.apply(v));
    }
    return out;
  }

  /** The manifest dataset {@code f} was made of by {@link #fixture(Fixtures.Dataset, List)}. */
  protected Fixtures.Dataset dataset(Fixture f) {
    Fixtures.Dataset d = manifestEntries.get(f.name());
    if (d == null) {
      throw new AssertionError(f + ": not a fixture of a manifest dataset");
    }
    return d;
  }

  /** {@code NetcdfFiles.open} of the location ({@code rel} null) or of the file {@code rel} inside it. */
  protected static Open netcdfFiles(String name, String rel) {
    return new Open(name, p -> NetcdfFiles.open(rel == null ? p.toAbsolutePath().toString() : p.resolve(rel).toString()));
  }

  /** {@code NetcdfDatasets.openDataset} of the location ({@code rel} null) or of the file {@code rel} inside it. */
  protected static Open netcdfDatasets(String name, String rel) {
    return new Open(name,
        p -> NetcdfDatasets.openDataset(rel == null ? p.toAbsolutePath().toString() : p.resolve(rel).toString()));
  }

  /** {@code NetcdfDatasets.openDataset} of the location's {@code file:} URL. */
  protected static final Open DATASETS_FILE_URL = new Open("NetcdfDatasets file: URL",
      p -> NetcdfDatasets.openDataset("file:" + p.toAbsolutePath()));

  // ------------------------------------------------------------------ what a format supplies

  /** The datasets whole and section reads are checked on. */
  protected abstract List<Fixture> fixtures();

  /** The IOSP class under test (the constructor's, unless overridden). */
  protected Class<? extends IOServiceProvider> iospClass() {
    if (iosp == null) {
      throw new IllegalStateException(getClass().getSimpleName() + " names no IOSP class");
    }
    return iosp;
  }

  /** What {@code NetcdfFile.getFileTypeId()} is for this format (the constructor's, unless overridden). */
  protected String fileTypeId() {
    if (typeId == null) {
      throw new IllegalStateException(getClass().getSimpleName() + " names no file type id");
    }
    return typeId;
  }

  /** {@code getFileTypeId()} of one fixture (default {@link #fileTypeId()}). */
  protected String fileTypeId(Fixture f) {
    return fileTypeId();
  }

  /**
   * Whether NetcdfDataset's default enhancement leaves this variable's values as the IOSP returns them (then
   * the enhanced read is compared with the raw one). Default: unless the variable is packed ({@code scale_factor},
   * {@code add_offset}); a format whose missing values the enhancement turns into NaN says so here.
   */
  protected boolean enhancementKeepsValues(Variable v) {
    return v.findAttribute("scale_factor") == null && v.findAttribute("add_offset") == null;
  }

  /** Copies of fixtures in {@code dir} for the file-cache cycle (names distinct within dir). */
  protected abstract List<CacheCase> cacheCases(Path dir) throws IOException;

  /** The datasets read by 16 threads at once. */
  protected abstract List<Fixture> threadedFixtures();

  /** The ways a fixture may be opened; default: {@code NetcdfFiles.open} and {@code NetcdfDatasets.openDataset("file:...")}. */
  protected List<Open> opens(Fixture f) {
    return List.of(netcdfFiles("NetcdfFiles.open", null), DATASETS_FILE_URL);
  }

  /** Locations opened after registering like threddsConfig.xml; default: every fixture. */
  protected List<Fixture> registrationCases() {
    return fixtures();
  }

  /** Files of other formats the registered IOSP must not claim. */
  protected List<Path> foreignFiles() {
    return List.of();
  }

  /** Open file handles of the IOSP of {@code nc}, or -1 when the format cannot tell (handle checks skipped). */
  protected int openHandles(NetcdfFile nc) {
    return -1;
  }

  /**
   * Whether the reads after reacquire() must open files again (false when a chunk cache may serve them all:
   * then the handle count after those reads proves nothing).
   */
  protected boolean readsAfterReacquireOpenFiles() {
    return false;
  }

  /** Whether the fixture lists every variable the dataset has (the variable count is then checked). */
  protected boolean listsEveryVariable(Fixture f) {
    return true;
  }

  /** Format extras on an open dataset (before its variables are read). */
  protected void checkDataset(Fixture f, Open how, NetcdfFile nc) throws IOException {}

  /** Format extras on one variable: {@code v} as opened, {@code raw} the IOSP's own (under any enhancement). */
  protected void checkVariable(Fixture f, Open how, Expected e, Variable v, Variable raw) throws IOException {}

  /** Format extras on the dataset reopened after the cache case's modification. */
  protected void checkModified(CacheCase c, NetcdfFile fresh) throws IOException {}

  /** Random reads prepared for the threaded check, and reads per thread. */
  protected int threadedReads() {
    return 300;
  }

  protected int readsPerThread() {
    return 150;
  }

  /** The longest range (before striding) of one dimension in a random threaded read. */
  protected int maxRandomSpan() {
    return Integer.MAX_VALUE;
  }

  // ------------------------------------------------------------------ the contract

  @TestFactory
  Stream<DynamicTest> readsWholeVariablesAndSections() throws IOException {
    List<DynamicTest> out = new ArrayList<>();
    List<Fixture> all = fixtures();
    assertFalse(all.isEmpty(), getClass().getSimpleName() + " supplies no fixtures");
    RemoteFixtures remote = RemoteFixtures.active();
    int k = 0;
    for (Fixture f : all) {
      if (remote != null) {
        for (Open o : remoteOpens(remote, k++)) {
          Fixture rf = remoteFixture(remote, f, formOf(o));
          if (!remote.canList(formOf(o)) && needsListing(f)) {
            out.add(dynamicTest(f + " via " + o + " (needs listing)", () -> failsForWantOfListing(rf, o)));
          } else {
            out.add(dynamicTest(f + " via " + o, () -> readAll(rf, o)));
          }
        }
        continue;
      }
      for (Open o : opens(f)) {
        out.add(dynamicTest(f + " via " + o, () -> readAll(f, o)));
      }
    }
    return out.stream();
  }

  /** A remote open: its form rides in the name ("NetcdfFiles s3", ...). */
  private static int formOf(Open o) {
    return Integer.parseInt(o.name().substring(o.name().lastIndexOf('#') + 1));
  }

  /** Two opens of the k-th fixture: NetcdfFiles in form k, NetcdfDatasets in the next form it can open. */
  private static List<Open> remoteOpens(RemoteFixtures r, int k) {
    int n = r.forms();
    int a = k % n;
    int b = (k + 1) % n;
    for (int i = 0; i < n && !r.datasetsOpen(b); i++) {
      b = (b + 1) % n;
    }
    return List.of(new Open("NetcdfFiles " + r.formName(a) + " #" + a, p -> NetcdfFiles.open(p.toString())),
        new Open("NetcdfDatasets.openFile " + r.formName(b) + " #" + b,
            p -> NetcdfDatasets.openFile(DatasetUrl.findDatasetUrl(p.toString()), -1, null, null)));
  }

  private static Fixture remoteFixture(RemoteFixtures r, Fixture f, int form) throws IOException {
    return new Fixture(f.name(), r.remote(f.location(), form), f.variables());
  }

  /**
   * Whether a fixture can only be opened where its directory can be listed (e.g. a store whose metadata does not
   * name all its parts): over plain HTTP it must fail with one message naming its location and the listing.
   */
  protected boolean needsListing(Fixture f) throws IOException {
    return false;
  }

  private static void failsForWantOfListing(Fixture f, Open o) {
    IOException e = assertThrows(IOException.class, () -> o.opener().open(f.location()).close(), f + " via " + o);
    String m = e.getMessage();
    assertTrue(m != null && m.contains(f.location().toString()) && m.contains("listing"),
        f + " via " + o + ": the message names the location and says that listing is needed: " + m);
  }

  private void readAll(Fixture f, Open o) throws IOException {
    try (NetcdfFile nc = o.opener().open(f.location())) {
      assertTrue(iospClass().isInstance(raw(nc).getIosp()), f + " via " + o + " opened by " + raw(nc).getIosp());
      assertEquals(fileTypeId(f), nc.getFileTypeId(), f + " via " + o + " file type");
      if (listsEveryVariable(f)) {
        assertEquals(f.variables().size(), nc.getVariables().size(), "variables of " + f + ": " + nc.getVariables());
      }
      checkDataset(f, o, nc);
      for (Expected e : f.variables()) {
        Variable v = find(nc, e);
        Variable raw = unwrap(v);
        assertWhole(e, raw);
        assertSections(e, raw);
        if (raw != v && enhancementKeepsValues(v)) {
          assertSameValues(e + " via " + o, raw.read(), v.read());
        }
        checkVariable(f, o, e, v, raw);
      }
    }
  }

  @Test
  void registeredLikeThreddsConfig() throws IOException {
    Class<? extends IOServiceProvider> c = iospClass();
    boolean before = NetcdfFile.iospRegistered(c);
    String errlog = NetcdfChecks.registerLikeThreddsConfig(c);
    assertTrue(NetcdfFile.iospRegistered(c), "registered: " + errlog);
    try {
      List<Fixture> cases = registrationCases();
      assertFalse(cases.isEmpty(), "no registration cases");
      RemoteFixtures remote = RemoteFixtures.active();
      for (Fixture local : cases) {
        Fixture f = remote == null ? local : remoteFixture(remote, local, 0);
        try (NetcdfFile nc = NetcdfFiles.open(f.location().toString())) {
          assertTrue(c.isInstance(nc.getIosp()), f + " opened by " + nc.getIosp());
          assertEquals(fileTypeId(f), nc.getFileTypeId(), f.toString());
          for (Expected e : f.variables()) {
            assertWhole(e, find(nc, e));
          }
        }
      }
      for (Path local : foreignFiles()) {
        Path p = remote == null ? local : remote.remote(local, 0);
        try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
          assertFalse(c.isInstance(nc.getIosp()), p + " is not this format's, yet claimed");
        }
      }
    } finally {
      if (!before) {
        NetcdfFile.iospDeRegister(c);
      }
    }
  }

  @TestFactory
  Stream<DynamicTest> fileCacheReleaseReacquireModify() throws IOException {
    List<CacheCase> cases = cacheCases(tmp);
    assertFalse(cases.isEmpty(), "no file-cache cases");
    return cases.stream().map(c -> dynamicTest(c.name(), () -> cacheCycle(c)));
  }

  private void cacheCycle(CacheCase local) throws Exception {
    RemoteFixtures remote = RemoteFixtures.active();
    CacheCase c = local;
    if (remote != null) { // the case's copy in the store; its modification is uploaded again
      Path copy = Path.of(local.url().startsWith("file:") ? local.url().substring(5) : local.url()).toAbsolutePath();
      Path top = copy;
      while (top.getParent() != null && !top.getParent().equals(tmp.toAbsolutePath())) {
        top = top.getParent();
      }
      Path base = remote.upload(top);
      Path topDir = top;
      String url = (copy.equals(top) ? base : base.resolve(top.relativize(copy).toString())).toString();
      c = new CacheCase(local.name(), url, local.variables(), before -> {
        local.modification().apply(newestLocalTime(topDir)); // the case's own checks see its local copy
        // a store's Last-Modified has whole seconds: the upload again (maybe of the same bytes) lands in a later one
        try {
          Thread.sleep(1010 - System.currentTimeMillis() % 1000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        remote.upload(topDir);
        return Long.MIN_VALUE; // remote: any other last-modified time than before
      });
    }
    NetcdfDatasets.initNetcdfFileCache(1, 10, 0);
    try {
      DatasetUrl url = DatasetUrl.findDatasetUrl(c.url());
      NetcdfFile first = NetcdfDatasets.acquireFile(url, null);
      assertTrue(iospClass().isInstance(first.getIosp()), c + " opened by " + first.getIosp());
      for (Expected e : c.variables()) {
        Variable v = find(first, e);
        v.setCaching(false);
        assertWhole(e, v);
      }
      int open = openHandles(first);
      if (open >= 0) {
        assertTrue(open > 0, c + ": reads hold file handles");
      }
      first.close(); // back into the cache: release()
      if (open >= 0) {
        assertEquals(0, openHandles(first), c + ": release() closes every file handle");
      }
      NetcdfFile again = NetcdfDatasets.acquireFile(url, null);
      assertSame(first, again, c + ": an unchanged dataset comes from the cache");
      for (Expected e : c.variables()) {
        Variable v = find(again, e);
        v.setCaching(false);
        v.invalidateCache();
        assertWhole(e, v); // reads after reacquire()
        assertSections(e, v);
      }
      if (open >= 0 && readsAfterReacquireOpenFiles()) {
        assertTrue(openHandles(again) > 0, c + ": the reads after reacquire() reopened the files");
      }
      again.close();

      long before = first.getLastModified();
      long want = c.modification().apply(before);
      assertTrue(want != before, c + ": the modification must change the last-modified time");
      NetcdfFile fresh = NetcdfDatasets.acquireFile(url, null);
      try {
        assertNotSame(first, fresh, c + ": a modified dataset is reopened");
        if (want == Long.MIN_VALUE) {
          assertTrue(fresh.getLastModified() > 0 && fresh.getLastModified() != before, c + ": the new objects' version "
              + fresh.getLastModified() + " differs from " + before);
        } else {
          assertEquals(want, fresh.getLastModified(), c + ": last modified of the reopened dataset");
        }
        for (Expected e : c.variables()) {
          assertWhole(e, find(fresh, e));
        }
        checkModified(c, fresh);
      } finally {
        fresh.close();
      }
    } finally {
      NetcdfDatasets.shutdown();
    }
  }

  /** The newest modification time of a local file or of any file under a directory. */
  private static long newestLocalTime(Path p) throws IOException {
    try (Stream<Path> s = Files.walk(p)) {
      long newest = 0;
      for (Path f : (Iterable<Path>) s::iterator) {
        newest = Math.max(newest, Files.getLastModifiedTime(f).toMillis());
      }
      return newest;
    }
  }

  /** Sets the last-modified time of {@code file} 10 s after {@code lastModified}; returns that time. */
  public static long touch(Path file, long lastModified) throws IOException {
    Files.setLastModifiedTime(file, FileTime.fromMillis(lastModified + 10_000));
    return lastModified + 10_000;
  }

  @TestFactory
  Stream<DynamicTest> sixteenThreadsReadLikeOne() {
    List<Fixture> all = threadedFixtures();
    assertFalse(all.isEmpty(), "no threaded fixtures");
    return all.stream().map(f -> dynamicTest(f.name(), () -> threaded(f)));
  }

  private void threaded(Fixture local) throws Exception {
    RemoteFixtures remote = RemoteFixtures.active();
    Fixture f = remote == null ? local : remoteFixture(remote, local, 0);
    Opener opener = remote == null ? opens(f).get(0).opener() : p -> NetcdfFiles.open(p.toString());
    int reads = remote == null ? threadedReads() : Math.min(threadedReads(), 64);
    int perThread = remote == null ? readsPerThread() : Math.min(readsPerThread(), 24);
    try (NetcdfFile nc = opener.open(f.location())) {
      List<Expected> exps = new ArrayList<>();
      List<Variable> vars = new ArrayList<>();
      for (Expected e : f.variables()) {
        if (e.size() > 0) {
          Variable v = unwrap(find(nc, e));
          v.setCaching(false);
          exps.add(e);
          vars.add(v);
        }
      }
      assertFalse(vars.isEmpty(), f + ": no variable with elements");
      Random rnd = new Random(42);
      List<NetcdfChecks.Read> jobs = new ArrayList<>();
      for (int i = 0; i < reads; i++) {
        int k = rnd.nextInt(vars.size());
        Expected e = exps.get(k);
        Variable v = vars.get(k);
        long[][] box = randomBox(rnd, e.shape(), maxRandomSpan());
        Section s = section(e, box[0], box[1], box[2]);
        Array single = v.read(s);
        compare(e, box[0], box[1], box[2], single); // the single-thread result is itself right
        jobs.add(new NetcdfChecks.Read(v, s, single));
      }
      NetcdfChecks.assertConcurrentReads(jobs, 16, perThread);
    }
  }

  /**
   * {first, count, stride} of a random box over {@code shape}: in each dimension from a random start, spanning up
   * to {@code maxSpan} elements, stride 1 to 3.
   */
  private static long[][] randomBox(Random rnd, long[] shape, int maxSpan) {
    long[][] k = new long[3][shape.length];
    for (int d = 0; d < shape.length; d++) {
      int dim = (int) shape[d];
      int a = rnd.nextInt(dim);
      int b = a + rnd.nextInt(Math.min(dim - a, maxSpan));
      int s = 1 + rnd.nextInt(3);
      k[0][d] = a;
      k[2][d] = s;
      k[1][d] = (b - a) / s + 1;
    }
    return k;
  }

  // ------------------------------------------------------------------ the checks, for any test to use

  /** The variable of {@code nc} an expectation names (a root-group short name, else a full name). */
  public static Variable find(NetcdfFile nc, Expected e) {
    Variable v = nc.getRootGroup().findVariableLocal(e.cdmName());
    if (v == null) {
      v = nc.findVariable(e.cdmName());
    }
    assertNotNull(v, e + " not found as " + e.cdmName() + " in " + nc.getVariables());
    return v;
  }

  /** The IOSP's own variable under a NetcdfDataset's enhancement (or {@code v} itself). */
  public static Variable unwrap(Variable v) {
    if (v instanceof VariableDS && ((VariableDS) v).getOriginalVariable() != null) {
      return ((VariableDS) v).getOriginalVariable();
    }
    return v;
  }

  private static NetcdfFile raw(NetcdfFile nc) {
    if (nc instanceof ucar.nc2.dataset.NetcdfDataset && ((ucar.nc2.dataset.NetcdfDataset) nc).getReferencedFile() != null) {
      return ((ucar.nc2.dataset.NetcdfDataset) nc).getReferencedFile();
    }
    return nc;
  }

  /** Type, shape and every value of the variable. */
  public static void assertWhole(Expected e, Variable v) throws IOException {
    assertEquals(e.type(), v.getDataType(), e + " type");
    assertArrayEquals(e.cdmShape(), v.getShape(), e + " shape");
    long[] shape = e.shape();
    long[] first = new long[shape.length];
    long[] stride = new long[shape.length];
    Arrays.fill(stride, 1);
    compare(e, first, shape, stride, v.read());
  }

  /** Reads and checks a strided section of the logical dimensions (the trailing type dimension whole). */
  public static void assertSection(Expected e, Variable v, long[] first, long[] count, long[] stride)
      throws IOException {
    try {
      compare(e, first, count, stride, v.read(section(e, first, count, stride)));
    } catch (InvalidRangeException x) {
      throw new AssertionError(e + ": " + x.getMessage(), x);
    }
  }

  /** Every section of {@link #sections}, with netcdf-java's whole-variable cache off so each goes to the IOSP. */
  public static void assertSections(Expected e, Variable v) throws IOException {
    v.setCaching(false);
    v.invalidateCache();
    for (long[][] k : sections(e, v)) {
      assertSection(e, v, k[0], k[1], k[2]);
    }
  }

  /** The CDM section of {first, count, stride} over the logical dimensions, plus the whole type dimension. */
  public static Section section(Expected e, long[] first, long[] count, long[] stride) {
    List<Range> ranges = new ArrayList<>();
    try {
      for (int d = 0; d < first.length; d++) {
        ranges.add(new Range((int) first[d], (int) (first[d] + (count[d] - 1) * stride[d]), (int) stride[d]));
      }
      if (e.extraDim() > 0) {
        ranges.add(new Range(0, e.extraDim() - 1));
      }
    } catch (InvalidRangeException x) {
      throw new AssertionError(e + ": " + x.getMessage(), x);
    }
    return new Section(ranges);
  }

  /**
   * The sections every format is checked on, each {first, count, stride} over the logical dimensions: rows
   * around the first chunk boundary; strided over all chunks (inner dimensions strided by 2); stride 1 across
   * the last chunk boundary to the end; around the first block boundary past the first chunk boundary in every
   * dimension; stride 3 everywhere; from before the last chunk start to the end in every dimension; stride
   * block+1 from inside the first block; strides 1, 2, 3 from index 1; the second half; one element in the
   * middle. Chunk shape: the expectation's, else {@code _ChunkSizes}, else a third of each dimension; block
   * shape: the expectation's, else the chunk's. Duplicates are dropped.
   */
  public static List<long[][]> sections(Expected e, Variable v) {
    return ContractSections.of(e, v);
  }

  /** {@code actual} (the read of {first, count, stride}) against the expected values sliced here. */
  public static void compare(Expected e, long[] first, long[] count, long[] stride, Array actual) {
    String what = e + " section " + Arrays.toString(first) + "/" + Arrays.toString(count) + "/"
        + Arrays.toString(stride);
    assertEquals(e.type(), actual.getDataType(), what + " array type");
    if (e.strings() != null) {
      int[] sel = ContractValues.select(e.shape(), first, count, stride);
      assertEquals(sel.length, actual.getSize(), what + " size");
      IndexIterator it = actual.getIndexIterator();
      for (int i = 0; i < sel.length; i++) {
        assertEquals(e.strings()[sel[i]], it.getObjectNext(), what + " element " + sel[i]);
      }
      return;
    }
    byte[] exp = CdmArrays.gather(e.raw(), e.shape(), e.itemSize(), first, count, stride);
    byte[] got = ContractValues.bytes(actual, what);
    assertEquals(exp.length, got.length, what + " size in bytes");
    byte[] mask = e.definedMask();
    if (mask != null) {
      byte[] m = CdmArrays.gather(mask, e.shape(), e.itemSize(), first, count, stride);
      for (int i = 0; i < m.length; i++) {
        if (m[i] == 0) {
          exp[i] = 0;
          got[i] = 0;
        }
      }
    }
    assertArrayEquals(exp, got, what);
  }

  /** The enhanced values (netcdf-java may widen unsigned types) equal the raw ones numerically. */
  public static void assertSameValues(String what, Array raw, Array enhanced) {
    assertEquals(raw.getSize(), enhanced.getSize(), what);
    DataType t = raw.getDataType();
    IndexIterator a = raw.getIndexIterator();
    IndexIterator b = enhanced.getIndexIterator();
    for (long i = 0; a.hasNext(); i++) {
      if (t == DataType.FLOAT || t == DataType.DOUBLE) {
        double x = a.getDoubleNext();
        double y = b.getDoubleNext();
        assertEquals(Double.doubleToLongBits(x), Double.doubleToLongBits(y), what + " enhanced element " + i);
      } else if (t.isIntegral()) {
        long x = a.getLongNext();
        if (t.isUnsigned() && t.getSize() < 8) {
          x &= (1L << (8 * t.getSize())) - 1;
        }
        if (t == DataType.ULONG && enhanced.getDataType().isFloatingPoint()) {
          // netcdf-java enhances ULONG to DOUBLE: compare the unsigned value rounded to double
          double ux = new BigInteger(Long.toUnsignedString(x)).doubleValue();
          assertEquals(ux, b.getDoubleNext(), what + " enhanced element " + i);
          continue;
        }
        assertEquals(x, b.getLongNext(), what + " enhanced element " + i);
      } else {
        assertEquals(a.getObjectNext(), b.getObjectNext(), what + " enhanced element " + i);
      }
    }
  }
}
