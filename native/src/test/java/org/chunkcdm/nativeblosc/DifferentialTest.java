package org.chunkcdm.nativeblosc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Memory;
import com.sun.jna.NativeLong;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.blosc.BloscCompressor;
import org.chunkcdm.blosc.BloscHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Differential test: mutated Blosc1 chunks (the fixtures' and chunks made by c-blosc with every codec and shuffle)
 * decoded by pure Java and by c-blosc 1.x. Whenever both succeed they give the same bytes; whenever c-blosc
 * refuses a chunk, Java refuses it too, except in the cases {@link #documentedCBloscStricter} lists (c-blosc is
 * stricter there than the format; docs/RELIABILITY.md). c-blosc sees every mutation whose header is consistent
 * with the buffer (cbytes within it, nbytes bounded), whatever Java thinks of it.
 */
class DifferentialTest {
  static final int MAX_NBYTES = 8 << 20;

  /** The chunks to mutate: fixture chunks (format version 1 and 2) and c-blosc output of every codec. */
  static List<byte[]> seeds(JnaBlosc nat) throws Exception {
    List<byte[]> out = new ArrayList<>();
    int seen = 0;
    for (Arguments a : (Iterable<Arguments>) NativeBloscTest.blosc1Chunks()::iterator) {
      Object[] g = a.get();
      byte[] buf = (byte[]) g[1];
      int off = (Integer) g[2];
      int len = (Integer) g[3];
      byte[] c = Arrays.copyOfRange(buf, off, off + len);
      if (BloscHeader.parse(c, 0, c.length).version() <= 2 && seen++ % 3 == 0) { // every third: keeps it fast
        out.add(c);
      }
    }
    Random rnd = new Random(15);
    for (BloscCompressor c : nat.codecs()) {
      for (String codec : c == BloscCompressor.LZ4 ? new String[] {"lz4", "lz4hc"} : new String[] {c.cname()}) {
        for (int shuffle = 0; shuffle <= 2; shuffle++) {
          for (int kind = 0; kind < 4; kind++) {
            int ts = new int[] {8, 4, 1, 2}[kind];
            out.add(nat.compress(NativeBloscTest.data(kind, 20_000 + kind * 3001, rnd), 5, shuffle, ts, codec, 4096));
          }
        }
      }
    }
    return out;
  }

  /** Outcome of one decoder: the bytes, or null when it refused. */
  static byte[] java(byte[] c) {
    try {
      BloscHeader h = BloscHeader.parse(c, 0, c.length);
      byte[] out = new byte[h.nbytes()];
      Blosc.decompress(h, c, 0, out, 0, Blosc.Impl.JAVA);
      return out;
    } catch (IOException e) {
      LAST_JAVA_ERROR.set(e.getMessage());
      return null;
    }
  }

  static final ThreadLocal<String> LAST_JAVA_ERROR = new ThreadLocal<>();

  static byte[] nativeRaw(byte[] c, int nbytes) {
    Memory in = new Memory(c.length);
    in.write(0, c, 0, c.length);
    Memory out = new Memory(Math.max(1, nbytes));
    int n = CBlosc.blosc_decompress_ctx(in, out, new NativeLong(nbytes), 1);
    if (n != nbytes || n < 0) {
      return null;
    }
    byte[] r = new byte[nbytes];
    out.read(0, r, 0, nbytes);
    return r;
  }

  static int le32(byte[] b, int p) {
    return (b[p] & 0xff) | (b[p + 1] & 0xff) << 8 | (b[p + 2] & 0xff) << 16 | (b[p + 3] & 0xff) << 24;
  }

  /**
   * Mutations c-blosc refuses but the format allows, so Java decodes them (null when not such a case):
   * a leftover of what c-blosc 1.x's implementation requires beyond the format.
   */
  static String documentedCBloscStricter(byte[] c) {
    if ((c[0] & 0xff) > 2) {
      return "format version 3-5 (c-blosc2's; c-blosc 1.x refuses them)";
    }
    return null;
  }

  @Test
  void javaAndCBloscAgreeOnMutatedChunks() throws Exception {
    JnaBlosc nat = NativeRequired.binding();
    Random rnd = new Random(1515);
    Map<String, Integer> counts = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    List<String> javaStricter = new ArrayList<>();
    int compared = 0;
    for (byte[] seed : seeds(nat)) {
      List<byte[]> muts = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        for (int bit = 0; bit < 8; bit++) {
          byte[] m = seed.clone();
          m[i] ^= (byte) (1 << bit);
          muts.add(m);
        }
      }
      for (int k = 0; k < 120 && seed.length > 16; k++) {
        byte[] m = seed.clone();
        int flips = 1 + rnd.nextInt(3);
        for (int f = 0; f < flips; f++) {
          int pos = 16 + rnd.nextInt(m.length - 16);
          if (k % 3 == 0) {
            m[pos] ^= (byte) (1 << rnd.nextInt(8));
          } else {
            m[pos] = (byte) rnd.nextInt(256);
          }
        }
        muts.add(m);
      }
      for (byte[] m : muts) {
        int nbytes = le32(m, 4);
        int cbytes = le32(m, 12);
        if (nbytes < 0 || nbytes > MAX_NBYTES || cbytes < 16 || cbytes > m.length) {
          // c-blosc 1.x takes cbytes from the header without knowing the buffer: such chunks never reach it
          // (BloscHeader refuses them before any native call); Java must refuse them as well
          if (java(m) != null && (cbytes > m.length || cbytes < 16)) {
            problems.add("java decoded a chunk whose cbytes " + cbytes + " does not fit " + m.length);
          }
          counts.merge("not given to c-blosc", 1, Integer::sum);
          continue;
        }
        byte[] j = java(m);
        byte[] n = nativeRaw(m, nbytes);
        compared++;
        if (j != null && n != null) {
          if (!Arrays.equals(j, n)) {
            problems.add("different bytes: " + describe(seed, m));
            counts.merge("both decode, DIFFERENT bytes", 1, Integer::sum);
          } else {
            counts.merge("both decode, same bytes", 1, Integer::sum);
          }
        } else if (j == null && n == null) {
          counts.merge("both refuse", 1, Integer::sum);
        } else if (n == null) {
          String why = documentedCBloscStricter(m);
          if (why == null) {
            problems.add("java decodes what c-blosc refuses: " + describe(seed, m));
            counts.merge("only java decodes (undocumented)", 1, Integer::sum);
          } else {
            counts.merge("only java decodes: " + why, 1, Integer::sum);
          }
        } else {
          counts.merge("only c-blosc decodes", 1, Integer::sum);
          javaStricter.add(describe(seed, m) + " java: " + LAST_JAVA_ERROR.get());
        }
      }
    }
    System.out.println("[differential] " + compared + " mutated chunks given to both decoders: " + counts);
    Map<String, Integer> shown = new LinkedHashMap<>();
    for (String p : problems) {
      String kind = p.substring(0, p.indexOf(':'));
      if (shown.merge(kind, 1, Integer::sum) <= 12) {
        System.out.println("[differential] " + p);
      }
    }
    for (String p : javaStricter.subList(0, Math.min(12, javaStricter.size()))) {
      System.out.println("[differential] only c-blosc decodes: " + p);
    }
    assertTrue(compared > 5000, "compared " + compared);
    assertTrue(problems.isEmpty(), () -> problems.size() + " disagreements, first: " + problems.get(0));
  }

  static String describe(byte[] seed, byte[] m) {
    StringBuilder sb = new StringBuilder();
    try {
      sb.append(BloscHeader.parse(m, 0, m.length));
    } catch (IOException e) {
      sb.append("[").append(e.getMessage()).append("]");
    }
    sb.append(String.format(" flags 0x%02x", m[2] & 0xff)).append(" changed bytes");
    int shown = 0;
    for (int i = 0; i < m.length && shown < 4; i++) {
      if (m[i] != seed[i]) {
        sb.append(' ').append(i).append(String.format(":%02x->%02x", seed[i] & 0xff, m[i] & 0xff));
        shown++;
      }
    }
    return sb.toString();
  }
}
