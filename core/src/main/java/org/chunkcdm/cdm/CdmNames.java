package org.chunkcdm.cdm;

import java.util.Locale;
import ucar.nc2.NetcdfFiles;

/** Variable names per docs/cdm-contract.md section 2. */
public final class CdmNames {
  /** Extensions stripped from single-array dataset names. */
  private static final String[] KNOWN = {".bcolz", ".blp", ".b2frame", ".b2f", ".b2nd"};

  private CdmNames() {}

  /** {@code temp.b2frame} → {@code temp}; {@code x_int8} stays; the result is a valid CDM name. */
  public static String fromFileName(String fileName) {
    String n = fileName;
    while (n.endsWith("/") && n.length() > 1) {
      n = n.substring(0, n.length() - 1);
    }
    String lower = n.toLowerCase(Locale.ROOT);
    for (String ext : KNOWN) {
      if (lower.endsWith(ext) && n.length() > ext.length()) {
        n = n.substring(0, n.length() - ext.length());
        break;
      }
    }
    return valid(n);
  }

  /** A valid CDM object name, made the way netcdf-java does. */
  public static String valid(String name) {
    String v = NetcdfFiles.makeValidCdmObjectName(name);
    return v == null || v.isEmpty() ? "_" : v;
  }
}
