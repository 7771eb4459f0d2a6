package org.chunkcdm.blosc.zstd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.chunkcdm.blosc.zstd.ZstdTestData.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Frames made by the reference zstd (zstd-jni) decode, with our decoder, to their input. */
class ZstdRoundTripTest {
  private static List<Sample> corpus;

  /** The whole corpus, made once: every kind of data at several sizes and levels, with and without dictionaries. */
  static synchronized List<Sample> corpus() {
    if (corpus != null) {
      return corpus;
    }
    List<Sample> cases = new ArrayList<>();
    int[] sizes = {0, 1, 5, 31, 200, 1000, 4000, 20000, 100_000, 300_000};
    int[] levels = {1, 3, 9, 19, 22};
    long seed = 1;
    for (String kind : ZstdTestData.KINDS) {
      for (int size : sizes) {
        for (int level : levels) {
          if (level >= 19 && size > 100_000 && !kind.endsWith("planes") && !kind.equals("short-copies")) {
            continue; // the slowest levels only on the data the codec is for
          }
          byte[] in = ZstdTestData.make(kind, size, seed++);
          boolean checksum = (seed & 1) == 0;
          boolean contentSize = (seed % 3) != 0;
          cases.add(new Sample(kind + " " + size + " level " + level + (checksum ? " checksum" : "")
              + (contentSize ? "" : " no-size"), in, ZstdTestData.compress(in, level, checksum, contentSize, null), null));
        }
      }
    }
    // large inputs: several blocks, long windows
    for (String kind : new String[] {"int32-planes", "float64-planes", "text", "runs", "random"}) {
      byte[] in = ZstdTestData.make(kind, 4 << 20, seed++);
      cases.add(new Sample(kind + " 4MiB level 3", in, ZstdTestData.compress(in, 3, true, true, null), null));
    }
    byte[] big = ZstdTestData.make("int32-planes", 4 << 20, seed++);
    cases.add(new Sample("int32-planes 4MiB level 19 window 2^27", big, ZstdTestData.compress(big, 19, false, true, null, 27),
        null));
    byte[] bigText = ZstdTestData.make("text", 1 << 20, seed++);
    cases.add(new Sample("text 1MiB level 22", bigText, ZstdTestData.compress(bigText, 22, true, false, null), null));
    // dictionaries: trained (formatted) with 4-, 2- and 1-byte IDs, and raw content
    byte[] trained = ZstdTestData.trainedDictionary();
    byte[][] dicts = {trained, ZstdTestData.withId(trained, 40_000), ZstdTestData.withId(trained, 200),
        ZstdTestData.rawDictionary()};
    String[] dictNames = {"trained", "trained id 40000", "trained id 200", "raw-content"};
    for (int d = 0; d < dicts.length; d++) {
      for (String kind : new String[] {"text", "int32-planes", "runs", "few-symbols"}) {
        for (int size : new int[] {0, 10, 300, 2000, 5000, 30_000, 200_000}) {
          for (int level : new int[] {1, 3, 9, 19}) {
            if (d > 0 && d < 3 && level != 3) {
              continue;
            }
            byte[] in = ZstdTestData.make(kind, size, seed++);
            boolean checksum = (seed & 1) == 0;
            cases.add(new Sample(kind + " " + size + " level " + level + " dictionary " + dictNames[d], in,
                ZstdTestData.compress(in, level, checksum, (seed % 3) != 0, dicts[d]), dicts[d]));
          }
        }
      }
    }
    // several frames (each needs the dictionary again) and skippable frames between them
    byte[] a = ZstdTestData.make("text", 3000, seed++);
    byte[] b = ZstdTestData.make("runs", 70_000, seed++);
    byte[] c = ZstdTestData.make("int32-planes", 10_000, seed++);
    cases.add(new Sample("3 frames and 2 skippable frames", ZstdTestData.concat(a, b, c), ZstdTestData.concat(
        ZstdTestData.compress(a, 3, true, true, null), ZstdTestData.skippable(0, 17),
        ZstdTestData.compress(b, 1, false, false, null), ZstdTestData.skippable(15, 0),
        ZstdTestData.compress(c, 9, true, true, null)), null));
    cases.add(new Sample("3 frames with a dictionary", ZstdTestData.concat(a, c, a), ZstdTestData.concat(
        ZstdTestData.compress(a, 3, true, true, trained), ZstdTestData.compress(c, 9, false, true, trained),
        ZstdTestData.skippable(3, 5), ZstdTestData.compress(a, 19, true, false, trained)), trained));
    corpus = cases;
    return cases;
  }

  static Stream<Sample> cases() {
    return corpus().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decodesToTheInput(Sample c) throws IOException {
    ZstdDictionary dict = c.dict() == null ? null : new ZstdDictionary(c.dict());
    // into the middle of a larger array: nothing outside [op, op + n) may change
    byte[] out = new byte[c.data().length + 100];
    Arrays.fill(out, (byte) 0x5A);
    int n = new ZstdDecoder().decompress(c.frame(), 0, c.frame().length, out, 37, c.data().length, dict);
    assertEquals(c.data().length, n);
    assertArrayEquals(c.data(), Arrays.copyOfRange(out, 37, 37 + n), c.name());
    for (int i = 0; i < out.length; i++) {
      if (i < 37 || i >= 37 + n) {
        assertEquals((byte) 0x5A, out[i], "byte " + i + " outside the output was written");
      }
    }
    // the same frame at an offset inside a larger input array
    byte[] shifted = new byte[c.frame().length + 11];
    System.arraycopy(c.frame(), 0, shifted, 5, c.frame().length);
    byte[] out2 = new byte[c.data().length];
    new ZstdDecoder().decompress(shifted, 5, c.frame().length, out2, 0, out2.length, dict);
    assertArrayEquals(c.data(), out2, c.name() + " at input offset 5");
  }

  /** Every format feature the reference encoder can produce shows up in the corpus (so the round trips test it). */
  @Test
  void theCorpusUsesEveryFeature() {
    Set<String> seen = new TreeSet<>();
    for (Sample c : corpus()) {
      seen.addAll(ZstdTestData.features(c.frame()));
    }
    List<String> expected = List.of("frame:skippable", "frame:single-segment", "frame:window-descriptor",
        "frame:dictionary-id-bytes-0", "frame:dictionary-id-bytes-1", "frame:dictionary-id-bytes-2",
        "frame:dictionary-id-bytes-4", "frame:content-size-bytes-0", "frame:content-size-bytes-1",
        "frame:content-size-bytes-2", "frame:content-size-bytes-4", "frame:checksum", "frame:several-blocks",
        "block:raw", "block:rle", "block:compressed", "literals:raw", "literals:rle", "literals:huffman-1-stream",
        "literals:huffman-4-streams", "literals:treeless-4-streams", "literals:treeless-from-dictionary",
        "huffman-weights:fse", "huffman-weights:direct", "sequences:none", "sequences:count-1-byte",
        "sequences:count-2-bytes", "sequences:count-3-bytes",
        "sequences:LL-predefined", "sequences:LL-rle", "sequences:LL-fse", "sequences:LL-repeat",
        "sequences:OF-predefined", "sequences:OF-rle", "sequences:OF-fse", "sequences:OF-repeat",
        "sequences:ML-predefined", "sequences:ML-rle", "sequences:ML-fse", "sequences:ML-repeat",
        "sequences:LL-repeat-from-dictionary", "sequences:OF-repeat-from-dictionary",
        "sequences:ML-repeat-from-dictionary");
    List<String> missing = new ArrayList<>();
    for (String f : expected) {
      if (!seen.contains(f)) {
        missing.add(f);
      }
    }
    assertTrue(missing.isEmpty(), "features no test frame uses: " + missing + "; seen: " + seen);
  }

  /** One dictionary object, decoders on several threads at once. */
  @Test
  void aDictionaryIsSharedByThreads() throws Exception {
    List<Sample> withDict = new ArrayList<>();
    for (Sample c : corpus()) {
      if (c.dict() != null && c.name().contains("dictionary trained") && !c.name().contains(" id ")) {
        withDict.add(c);
      }
    }
    assertTrue(withDict.size() > 20);
    ZstdDictionary dict = new ZstdDictionary(withDict.get(0).dict());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        final int shift = t;
        fs.add(pool.submit(() -> {
          ZstdDecoder d = new ZstdDecoder();
          for (int round = 0; round < 5; round++) {
            for (int i = 0; i < withDict.size(); i++) {
              Sample c = withDict.get((i + shift * 7) % withDict.size());
              byte[] out = new byte[c.data().length];
              d.decompress(c.frame(), 0, c.frame().length, out, 0, out.length, dict);
              assertArrayEquals(c.data(), out, c.name());
            }
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Matches that reach into the dictionary content: with it the frames are much smaller, and decode right. */
  @Test
  void matchesReachIntoTheDictionaryContent() throws IOException {
    byte[] raw = ZstdTestData.make("random", 6000, 78);
    // the input is made of pieces of the (incompressible) dictionary content, so the matches start inside it
    byte[] in = new byte[20_000];
    java.util.Random r = new java.util.Random(5);
    for (int i = 0; i < in.length; ) {
      int from = r.nextInt(raw.length - 100);
      int n = Math.min(20 + r.nextInt(80), in.length - i);
      System.arraycopy(raw, from, in, i, n);
      i += n;
    }
    byte[] with = ZstdTestData.compress(in, 19, true, true, raw);
    byte[] without = ZstdTestData.compress(in, 19, true, true, null);
    assertTrue(with.length * 5 < without.length, with.length + " vs " + without.length);
    byte[] out = new byte[in.length];
    new ZstdDecoder().decompress(with, 0, with.length, out, 0, out.length, new ZstdDictionary(raw));
    assertArrayEquals(in, out);
    // a match that starts in the dictionary and runs on into the frame's own output
    byte[] tail = Arrays.copyOfRange(raw, raw.length - 50, raw.length);
    byte[] in2 = ZstdTestData.concat(tail, tail, tail);
    byte[] f2 = ZstdTestData.compress(in2, 19, false, true, raw);
    byte[] out2 = new byte[in2.length];
    new ZstdDecoder().decompress(f2, 0, f2.length, out2, 0, out2.length, new ZstdDictionary(raw));
    assertArrayEquals(in2, out2);
  }

  /** Long offsets: a match 65 MiB back (offset code 26, more bits than fit with both lengths after a refill). */
  @Test
  void offsetsAboveTwoToThe26() throws IOException {
    int n = 65 << 20;
    byte[] in = new byte[n + (1 << 20)];
    new java.util.Random(9).nextBytes(in);
    System.arraycopy(in, 0, in, n, 1 << 20); // the last MiB repeats the first
    byte[] f = ZstdTestData.compress(in, 1, false, true, null, 27);
    assertTrue(f.length < n + (1 << 19), "the repeat is encoded as matches: " + f.length);
    byte[] out = new byte[in.length];
    new ZstdDecoder().decompress(f, 0, f.length, out, 0, out.length);
    assertArrayEquals(in, out);
  }
}
