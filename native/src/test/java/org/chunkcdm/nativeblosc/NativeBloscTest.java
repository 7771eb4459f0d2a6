package org.chunkcdm.nativeblosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.blosc.BloscCompressor;
import org.chunkcdm.blosc.BloscHeader;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Native c-blosc and the pure-Java decoder agree with the fixtures and with each other. */
class NativeBloscTest {
  static final ObjectMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  /** One Blosc chunk of the fixtures: name, file bytes, offset, length, expected bytes (or null). */
  static Stream<Arguments> blosc1Chunks() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (Fixtures.Dataset d : Fixtures.manifest("blosc2").datasets("chunk-blosc1")) {
      byte[] f = Files.readAllBytes(d.file());
      out.add(Arguments.of(d.path(), f, 0, f.length, d.variables().get(0).expected()));
    }
    for (Fixtures.Dataset d : Fixtures.manifest("bcolz").datasets()) {
      try (Stream<Path> files = Files.walk(d.file())) {
        for (Path p : (Iterable<Path>) files.filter(p -> p.getFileName().toString().matches("__\\d+\\.blp"))::iterator) {
          byte[] f = Files.readAllBytes(p);
          out.add(Arguments.of(d.file().relativize(p).toString() + "@" + d.path(), f, 16, f.length - 16, null));
        }
      }
    }
    for (Fixtures.Dataset d : Fixtures.manifest("bloscpack").datasets()) {
      byte[] f = Files.readAllBytes(d.file());
      int i = 0;
      for (JsonNode c : d.json().path("observed").path("chunks")) {
        out.add(Arguments.of(d.path() + "#" + i++, f, c.get(0).asInt(), c.get(2).asInt(), null));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("blosc1Chunks")
  void nativeEqualsJavaEqualsExpected(String name, byte[] buf, int off, int len, byte[] expected) throws Exception {
    JnaBlosc nat = NativeRequired.binding();
    BloscHeader h = BloscHeader.parse(buf, off, len);
    byte[] java = new byte[h.nbytes()];
    Blosc.decompress(buf, off, len, java, 0, Blosc.Impl.JAVA);
    if (expected != null) {
      assertArrayEquals(expected, java, name + " (java)");
    }
    if (h.version() <= 2) {
      assertTrue(nat.canDecode(h), name);
      byte[] viaNative = new byte[h.nbytes()];
      Blosc.decompress(buf, off, len, viaNative, 0, Blosc.Impl.NATIVE);
      assertArrayEquals(java, viaNative, name + " (native vs java)");
      for (boolean direct : new boolean[] {true, false}) {
        assertArrayEquals(java, intoBuffer(h, buf, off, direct, Blosc.Impl.NATIVE), name + " (native into a "
            + (direct ? "direct" : "heap") + " buffer)");
      }
    } else {
      // c-blosc 1.x refuses format version 5 (c-blosc2's Blosc1-compatible chunks): AUTO falls back to Java
      assertFalse(nat.canDecode(h), name);
      byte[] auto = new byte[h.nbytes()];
      Blosc.decompress(buf, off, len, auto, 0, Blosc.Impl.AUTO);
      assertArrayEquals(java, auto, name + " (auto)");
      assertThrows(IOException.class, () -> Blosc.decompress(buf, off, len, new byte[h.nbytes()], 0, Blosc.Impl.NATIVE));
      assertEquals(null, intoBuffer(h, buf, off, true, Blosc.Impl.AUTO), name + ": not native, nothing written");
    }
  }

  /**
   * The chunk decoded by {@link Blosc#decompressNative} into a buffer at position 3 between guard bytes (which must
   * stay, as the position must); null when it was not decoded natively (then nothing may have been written).
   */
  static byte[] intoBuffer(BloscHeader h, byte[] buf, int off, boolean direct, Blosc.Impl impl) throws IOException {
    int room = h.nbytes() + 3 + 5;
    ByteBuffer b = direct ? ByteBuffer.allocateDirect(room) : ByteBuffer.allocate(room);
    for (int i = 0; i < room; i++) {
      b.put(i, (byte) 0x5A);
    }
    b.position(3);
    boolean decoded = Blosc.decompressNative(h, buf, off, b, impl);
    assertEquals(3, b.position(), "position");
    byte[] all = new byte[room];
    b.get(0, all);
    for (int i = 0; i < room; i++) {
      if (i < 3 || i >= 3 + h.nbytes() || !decoded) {
        assertEquals((byte) 0x5A, all[i], "byte " + i + " outside the chunk's");
      }
    }
    return decoded ? Arrays.copyOfRange(all, 3, 3 + h.nbytes()) : null;
  }

  @Test
  void blosc2ChunksAreNeverHandedToCBlosc1() throws Exception {
    JnaBlosc nat = NativeRequired.binding();
    int n = 0;
    for (Fixtures.Dataset d : Fixtures.manifest("blosc2").datasets("chunk-blosc2")) {
      byte[] f = Files.readAllBytes(d.file());
      BloscHeader h = BloscHeader.parse(f, 0, f.length);
      assertFalse(nat.canDecode(h), d.path());
      byte[] auto = new byte[h.nbytes()];
      Blosc.decompress(f, 0, f.length, auto, 0, Blosc.Impl.AUTO);
      n++;
    }
    assertTrue(n > 10);
  }

  /** Data shapes that exercise every stream kind: smooth, ramps, constant runs, noise. */
  static byte[] data(int kind, int n, Random rnd) {
    ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    switch (kind) {
      case 0:
        for (int i = 0; b.remaining() >= 8; i++) {
          b.putDouble(Math.sin(i * 0.001) * 100 + rnd.nextGaussian() * 0.01);
        }
        break;
      case 1:
        for (int i = 0; b.remaining() >= 4; i++) {
          b.putInt(i * 3);
        }
        break;
      case 2:
        while (b.remaining() > 0) {
          b.put((byte) 0x5a);
        }
        break;
      default:
        byte[] r = new byte[n];
        rnd.nextBytes(r);
        b.put(r);
    }
    return b.array();
  }

  @Test
  void chunksCompressedByCBloscDecodeIdenticallyInJava() throws Exception {
    JnaBlosc nat = NativeRequired.binding();
    Random rnd = new Random(42);
    int cases = 0;
    for (BloscCompressor c : nat.codecs()) {
      String cname = c == BloscCompressor.LZ4 ? "lz4" : c.cname();
      for (String codec : c == BloscCompressor.LZ4 ? new String[] {"lz4", "lz4hc"} : new String[] {cname}) {
        for (int shuffle = 0; shuffle <= 2; shuffle++) {
          for (int ts : new int[] {1, 2, 4, 8, 3, 16}) {
            for (int kind = 0; kind < 4; kind++) {
              int n = new int[] {100_000, 65_536, 7_777, 300_001}[kind];
              byte[] in = data(kind, n, rnd);
              int clevel = 1 + rnd.nextInt(9);
              int blocksize = rnd.nextBoolean() ? 0 : 4096 * (1 + rnd.nextInt(8));
              byte[] chunk = nat.compress(in, clevel, shuffle, ts, codec, blocksize);
              byte[] java = new byte[in.length];
              Blosc.decompress(chunk, 0, chunk.length, java, 0, Blosc.Impl.JAVA);
              assertArrayEquals(in, java, codec + " shuffle " + shuffle + " ts " + ts + " kind " + kind + " clevel " + clevel);
              cases++;
            }
          }
        }
      }
    }
    assertTrue(cases >= 4 * 3 * 6 * 4, "cases " + cases);
  }

  /**
   * Corrupted Blosc1 chunks that pass the Java header checks reach c-blosc: every header bit flipped, random body
   * bytes flipped or replaced, every codec. Native decoding must end in output or an IOException, never another
   * exception (a crash of c-blosc would end the test JVM and fail the build).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("blosc1Chunks")
  void corruptedChunksThroughNativeGiveOutputOrIOException(String name, byte[] buf, int off, int len, byte[] expected)
      throws Exception {
    NativeRequired.binding();
    byte[] orig = Arrays.copyOfRange(buf, off, off + len);
    if (BloscHeader.parse(orig, 0, orig.length).version() > 2) {
      return; // c-blosc 1.x never sees these (blosc2ChunksAreNeverHandedToCBlosc1)
    }
    Random rnd = new Random(name.hashCode());
    int[] outcomes = new int[2];
    for (int i = 0; i < Math.min(16, orig.length); i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] c = orig.clone();
        c[i] ^= (byte) (1 << bit);
        nativeOutcome(name + " header byte " + i + " bit " + bit, c, outcomes);
      }
    }
    for (int k = 0; k < 64 && orig.length > 16; k++) {
      byte[] c = orig.clone();
      int pos = 16 + rnd.nextInt(orig.length - 16);
      if (k % 2 == 0) {
        c[pos] ^= (byte) (1 << rnd.nextInt(8));
      } else {
        c[pos] = (byte) rnd.nextInt(256);
      }
      nativeOutcome(name + " body byte " + pos, c, outcomes);
    }
    assertTrue(outcomes[1] > 0, name + ": no corruption was detected " + Arrays.toString(outcomes));
  }

  @Test
  void corruptedChunksOfEveryCodecThroughNative() throws Exception {
    JnaBlosc nat = NativeRequired.binding();
    Random rnd = new Random(11);
    int[] outcomes = new int[2];
    for (BloscCompressor c : nat.codecs()) {
      String cname = c == BloscCompressor.LZ4 ? "lz4" : c.cname();
      for (String codec : c == BloscCompressor.LZ4 ? new String[] {"lz4", "lz4hc"} : new String[] {cname}) {
        for (int shuffle = 0; shuffle <= 2; shuffle++) {
          for (int kind = 0; kind < 4; kind++) {
            byte[] chunk = nat.compress(data(kind, 50_000, rnd), 5, shuffle, 4, codec, 8192);
            for (int k = 0; k < 200; k++) {
              byte[] bad = chunk.clone();
              int flips = 1 + rnd.nextInt(4);
              for (int f = 0; f < flips; f++) {
                int pos = 16 + rnd.nextInt(bad.length - 16);
                bad[pos] = (byte) rnd.nextInt(256);
              }
              nativeOutcome(codec + " shuffle " + shuffle + " kind " + kind + " case " + k, bad, outcomes);
            }
          }
        }
      }
    }
    assertTrue(outcomes[1] > 0, "some corruptions must be detected: " + Arrays.toString(outcomes));
  }

  /** Decodes {@code c} natively; counts output (0) and IOException (1); anything else fails. */
  static void nativeOutcome(String what, byte[] c, int[] outcomes) {
    try {
      BloscHeader h = BloscHeader.parse(c, 0, c.length);
      if (h.nbytes() > 64 << 20) {
        throw new IOException("test guard: refusing to allocate " + h.nbytes());
      }
      Blosc.decompress(h, c, 0, new byte[h.nbytes()], 0, Blosc.Impl.NATIVE);
      outcomes[0]++;
    } catch (IOException e) {
      assertTrue(e.getMessage() != null && !e.getMessage().isEmpty(), what + ": IOException without a message");
      outcomes[1]++;
    } catch (Throwable t) {
      throw new AssertionError(what + ": " + t, t);
    }
  }

  @Test
  void malformedChunksNeverReachNativeCode() throws Exception {
    NativeRequired.binding();
    Path p = Fixtures.family("blosc2").resolve("chunks/chunk_cblosc1_lz4hc_noshuffle_u1.chunk");
    byte[] f = Files.readAllBytes(p);
    for (int cut = 0; cut < f.length; cut += Math.max(1, f.length / 50)) {
      int c = cut;
      assertThrows(IOException.class, () -> Blosc.decompress(f, 0, c, new byte[1 << 20], 0, Blosc.Impl.NATIVE));
    }
    byte[] lying = f.clone();
    lying[4] = (byte) 0xff; // nbytes far beyond the destination
    lying[5] = (byte) 0xff;
    lying[6] = (byte) 0xff;
    lying[7] = (byte) 0x0f;
    assertThrows(IOException.class, () -> Blosc.decompress(lying, 0, lying.length, new byte[100], 0, Blosc.Impl.NATIVE));
  }

  @Test
  void facadeReportsTheLibrary() {
    NativeRequired.binding();
    assertTrue(Blosc.nativeVersion().startsWith("c-blosc 1."), Blosc.nativeVersion());
    assertEquals(Blosc.Impl.AUTO, Blosc.configured());
  }
}
