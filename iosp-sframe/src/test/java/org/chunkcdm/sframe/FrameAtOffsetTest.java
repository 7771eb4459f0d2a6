package org.chunkcdm.sframe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.chunkcdm.blosc.BloscFrame;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.open.DatasetVariable;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageBufferPacker;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * {@link ContiguousFrame}'s entry points for frames that are not a file of their own: a frame at an offset of a
 * bigger file (a stored zip member) and a frame behind any byte source read the same values and attributes as the
 * frame file; a range outside is refused. Frames carrying python-blosc2's store markers are not claimed by this
 * module's IOSP and opener. vlmeta of the python-blosc2 fixtures (tuples, NaN, lists) read as python-blosc2 gives
 * them.
 */
class FrameAtOffsetTest {
  @TempDir
  Path tmp;

  @Test
  void frameAtAnOffsetAndBehindBytesReadLikeTheFile() throws Exception {
    for (String name : List.of("b2nd/b2nd_3d_i2_cframe.b2nd", "cframe/cf_insert_i4.b2frame")) {
      Path src = Fixtures.family("blosc2").resolve(name);
      byte[] frame = Files.readAllBytes(src);
      byte[] big = new byte[frame.length + 1000];
      java.util.Arrays.fill(big, (byte) 0x5a);
      System.arraycopy(frame, 0, big, 777, frame.length);
      Path f = Files.write(tmp.resolve("inside.bin"), big);
      try (ChunkedDataset ds = Datasets.open(src); FileHandles files = new FileHandles(f)) {
        ChunkedVariable want = ds.variables().get(0);
        long[] shape = want.array().grid().shape();
        byte[] values = SectionReader.readBytes(want.array(), new long[shape.length], shape, ones(shape.length));
        ContiguousFrame at = ContiguousFrame.open(files, f, 777, frame.length, "member x");
        for (ContiguousFrame cf : List.of(at, ContiguousFrame.open(BloscFrame.Source.of(frame), "bytes x"))) {
          DatasetVariable v = cf.variable(want.name(), null);
          assertEquals(want.dimensions(), v.dimensions());
          assertEquals(want.attributes().keySet(), v.attributes().keySet(), name);
          assertArrayEquals(values, SectionReader.readBytes(v.array(), new long[shape.length], shape,
              ones(shape.length)), name);
          assertEquals(frame.length, cf.frameLength());
        }
        // the same frame one byte longer than the file holds, or cut: refused, naming it
        IOException e = assertThrows(IOException.class,
            () -> ContiguousFrame.open(files, f, 777, big.length - 776, "member y"));
        NetcdfChecks.assertMentions(e, "member y");
        e = assertThrows(IOException.class, () -> ContiguousFrame.open(files, f, 777, frame.length - 1, "member z"));
        NetcdfChecks.assertMentions(e, "member z");
      }
    }
  }

  static long[] ones(int n) {
    long[] s = new long[n];
    java.util.Arrays.fill(s, 1);
    return s;
  }

  @Test
  void storeFramesAreLeftToTheStoresReader() throws Exception {
    Path embed = Fixtures.family("blosc2-stores").resolve("embedstore/v_embed.b2e");
    Path keyMap = Fixtures.family("blosc2-stores").resolve("dictstore/v_dict_mixed.b2d/embed.b2e");
    for (Path p : List.of(embed, keyMap)) {
      byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(p), ContiguousFrame.PROBE_BYTES);
      assertTrue(ContiguousFrame.isStoreFrame(head), p.toString());
      assertFalse(new Blosc2Opener().canOpen(p), p + " claimed by the frame opener");
    }
    Path leaf = Fixtures.family("blosc2-stores").resolve("dictstore/v_dict_mixed.b2d/grid/counts.b2nd");
    assertTrue(new Blosc2Opener().canOpen(leaf));
    assertEquals(List.of("b2nd"), List.copyOf(ContiguousFrame.metalayerNames(Files.readAllBytes(leaf))));
    assertTrue(ContiguousFrame.metalayerNames(new byte[] {1, 2, 3}).isEmpty());
  }

  /** The standalone b2nd and SChunk of the store fixtures: user vlmeta as attributes with the manifest's values. */
  @Test
  void pythonBlosc2VlmetaAreAttributes() throws Exception {
    for (Fixtures.Dataset d : Fixtures.manifest("blosc2-stores").datasets("b2nd-cframe", "cframe")) {
      try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
        Variable v = nc.getVariables().get(0);
        com.fasterxml.jackson.databind.JsonNode attrs = d.variables().get(0).json().path("attrs");
        for (java.util.Iterator<String> it = attrs.fieldNames(); it.hasNext(); ) {
          String k = it.next();
          com.fasterxml.jackson.databind.JsonNode want = attrs.get(k);
          Attribute a = v.findAttribute(k);
          assertNotNull(a, d + ": " + k);
          if (want.isArray()) {
            assertEquals(want.size(), a.getLength(), d + ": " + k);
            for (int i = 0; i < want.size(); i++) {
              assertEquals(want.get(i).asDouble(), a.getNumericValue(i).doubleValue(), d + ": " + k);
            }
          } else if (want.isNumber()) {
            assertEquals(want.asDouble(), a.getNumericValue().doubleValue(), d + ": " + k);
          } else {
            assertEquals(want.asText(), a.getStringValue(), d + ": " + k);
          }
        }
      }
    }
  }

  /** A tuple as python-blosc2 writes it (a list led by "__tuple__") reads as the list of its items. */
  @Test
  void tupleMarkerIsDropped() throws Exception {
    MessageBufferPacker p = MessagePack.newDefaultBufferPacker();
    p.packArrayHeader(4).packString("__tuple__").packInt(1).packInt(2).packInt(3);
    var a = MetaAttributes.of("t", p.toByteArray());
    assertArrayEquals(new int[] {1, 2, 3}, (int[]) a.get("t"));
    p = MessagePack.newDefaultBufferPacker();
    p.packArrayHeader(2).packString("a").packString("__tuple__"); // only a leading marker is one
    a = MetaAttributes.of("l", p.toByteArray());
    assertArrayEquals(new String[] {"a", "__tuple__"}, (String[]) a.get("l"));
  }
}
