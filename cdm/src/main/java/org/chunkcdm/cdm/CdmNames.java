package org.chunkcdm.cdm;

import org.chunkcdm.open.Names;

/** Variable names per docs/cdm-contract.md section 2 (the rules live in {@link Names}, free of netcdf-java). */
public final class CdmNames {
  private CdmNames() {}

  /** {@code temp.b2frame} → {@code temp}; {@code x_int8} stays; the result is a valid CDM name. */
  public static String fromFileName(String fileName) {
    return Names.fromFileName(fileName);
  }

  /** A valid CDM object name, made the way netcdf-java does. */
  public static String valid(String name) {
    return Names.valid(name);
  }
}
