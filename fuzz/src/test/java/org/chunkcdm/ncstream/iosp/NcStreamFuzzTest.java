package org.chunkcdm.ncstream.iosp;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Path;
import org.chunkcdm.fuzz.FuzzSupport;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Section;
import ucar.ma2.StructureDataIterator;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Sequence;
import ucar.nc2.Variable;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * chunkcdm's ncstream reader ({@link NcStreamFileIosp}): the start marker, header messages (protobuf), data
 * messages of every layout (regular, deflated, strings/opaque/vlen objects, structures, sequences, column-oriented
 * DATA2), error messages (MAGIC_ERR), varint lengths and the end marker. The fuzzer's bytes are a {@code .ncs} file
 * that is opened and whose variables are read (whole when small, otherwise their first element).
 */
@ExtendWith(FuzzSupport.WarmUp.class)
class NcStreamFuzzTest {
  @FuzzTest
  void ncstreamFile(byte[] data) throws Exception {
    FuzzSupport.asFile("fuzz.ncs", data, NcStreamFuzzTest::openAndRead);
  }

  private static void openAndRead(Path p) throws IOException {
    try (NetcdfFile nc = NcStreamFileIosp.open(p.toString())) {
      int n = 0;
      for (Variable v : nc.getVariables()) {
        if (n++ >= 16) {
          break;
        }
        read(v);
      }
    }
  }

  private static void read(Variable v) throws IOException {
    if (v instanceof Sequence) {
      StructureDataIterator it = ((Sequence) v).getStructureIterator(-1);
      try {
        for (int rows = 0; rows < 1000 && it.hasNext(); rows++) {
          it.next();
        }
      } finally {
        it.close();
      }
      return;
    }
    long bytes = v.getSize() * Math.max(1, v.getElementSize());
    try {
      if (v.getSize() < 0 || bytes <= FuzzSupport.MAX_DECODE) { // vlen (size -1) or small: the whole variable
        v.read();
      } else if (v.getRank() > 0) {
        int[] origin = new int[v.getRank()];
        int[] shape = new int[v.getRank()];
        java.util.Arrays.fill(shape, 1);
        for (int d = 0; d < shape.length; d++) {
          if (v.getShape(d) <= 0) {
            return; // vlen or empty dimension: nothing fixed-size to read
          }
        }
        v.read(new Section(origin, shape));
      }
    } catch (InvalidRangeException e) {
      throw new AssertionError("the first element is always a valid section", e);
    }
  }
}
