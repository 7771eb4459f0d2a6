package org.chunkcdm.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.chunkcdm.chunk.SectionReader;
import org.junit.jupiter.api.Test;
import ucar.nc2.NetcdfFiles;

/**
 * The chunk layer, the opener SPI, the codec and the file access use no netcdf-java: no compiled class of the
 * packages {@code org.chunkcdm.chunk}, {@code .open}, {@code .blosc} (and its sub-packages) or {@code .io}
 * refers to a {@code ucar/} class. (Each format module's OpenerTest runs its opener in a class loader without
 * netcdf-java.)
 */
class NoNetcdfJavaTest {
  @Test
  void chunkOpenBloscAndIoPackagesReferToNoUcarClass() throws Exception {
    Path classes = Paths.get(SectionReader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertTrue(Files.isDirectory(classes), "core's classes directory: " + classes);
    List<String> offenders = new ArrayList<>();
    int scanned = 0;
    for (String pkg : new String[] {"chunk", "open", "blosc", "io"}) {
      Path dir = classes.resolve("org/chunkcdm/" + pkg);
      try (Stream<Path> s = Files.walk(dir)) {
        for (Path c : (Iterable<Path>) s.filter(f -> f.toString().endsWith(".class"))::iterator) {
          scanned++;
          if (new String(Files.readAllBytes(c), StandardCharsets.ISO_8859_1).contains("ucar/")) {
            offenders.add(classes.relativize(c).toString());
          }
        }
      }
    }
    assertTrue(scanned > 40, "classes scanned: " + scanned);
    assertEquals(List.of(), offenders, "classes referring to netcdf-java");
  }

  @Test
  void cdmAdapterClassesDoReferToIt() throws Exception {
    // the scan can fail: the CDM adapter's classes are found by the same search
    Path classes = Paths.get(SectionReader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    byte[] b = Files.readAllBytes(classes.resolve("org/chunkcdm/cdm/CdmReader.class"));
    assertTrue(new String(b, StandardCharsets.ISO_8859_1).contains("ucar/"));
  }

  @Test
  void namesAreMadeValidLikeNetcdfJava() {
    String[] samples = {"a", " a b ", "a/b", "x\ty", "\u0001lead", "tail\u0002", "a  b/c", "", " ", "é ü", "a.b",
      "\u001fx\u0020y", "1 2 3", "//", "name\n", "t\u007f"};
    for (String s : samples) {
      String want = NetcdfFiles.makeValidCdmObjectName(s);
      assertEquals(want == null || want.isEmpty() ? "_" : want, Names.valid(s), "'" + s + "'");
    }
  }
}
