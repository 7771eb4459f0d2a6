package org.chunkcdm.dist;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.zip.CRC32;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.util.xml.RuntimeConfigParser;

/**
 * Runs in the "host" JVM of {@link DistJarIT}: registers chunkcdm's ncstream reader as threddsConfig.xml does,
 * reads the .ncs file given first ({@code NCS path iosp-class crc}), then writes the dataset given second with the
 * jar's writer to the third path and reads that back the same way.
 */
public final class NcsHostProbe {
  public static void main(String[] args) throws Exception {
    String xml = "<nj22Config><ioServiceProvider class=\"org.chunkcdm.ncstream.iosp.NcStreamFileIosp\"/></nj22Config>";
    StringBuilder err = new StringBuilder();
    RuntimeConfigParser.read(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), err);
    if (err.length() > 0) {
      System.out.println("CONFIG " + err.toString().replace('\n', ' '));
    }
    report(args[0]);
    try (NetcdfFile src = NetcdfFiles.open(args[1]); OutputStream o = Files.newOutputStream(Paths.get(args[2]))) {
      new org.chunkcdm.ncstream.NcStreamOut(o, org.chunkcdm.ncstream.NcStreamOut.Options.defaults().messageBytes(4096))
          .writeAll(src, null, null);
    }
    report(args[2]);
  }

  static void report(String path) throws Exception {
    try (NetcdfFile nc = NetcdfFiles.open(path)) {
      System.out.printf("NCS %s %s %08x%n", path, nc.getIosp().getClass().getName(), crc(nc));
    }
  }

  /** CRC of every variable's values (big-endian bytes, strings as UTF-8), in variable order. */
  static long crc(NetcdfFile nc) throws Exception {
    CRC32 crc = new CRC32();
    for (Variable v : nc.getVariables()) {
      ucar.ma2.Array a = v.read();
      if (a.getElementType() == String.class) {
        for (ucar.ma2.IndexIterator it = a.getIndexIterator(); it.hasNext(); ) {
          crc.update(String.valueOf(it.getObjectNext()).getBytes(StandardCharsets.UTF_8));
        }
      } else {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        ucar.nc2.iosp.IospHelper.copyToOutputStream(a, b);
        crc.update(b.toByteArray());
      }
    }
    return crc.getValue();
  }
}
