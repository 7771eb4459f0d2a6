package org.chunkcdm.open;

import java.util.Locale;

/**
 * Variable and dimension names as the CDM shows them (docs/cdm-contract.md section 2), without netcdf-java:
 * leading and trailing blanks and control characters dropped, {@code /} and spaces turned into {@code _}
 * (the rule of netcdf-java's {@code NetcdfFiles.makeValidCdmObjectName}; a test checks they agree).
 */
public final class Names {
  /** Extensions stripped from single-array dataset names. */
  private static final String[] KNOWN = {".bcolz", ".blp", ".b2frame", ".b2f", ".b2nd"};

  private Names() {}

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

  /** A valid CDM object name ({@code _} for a name that would be empty). */
  public static String valid(String name) {
    String t = name.trim();
    StringBuilder sb = null;
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      boolean bad = c < 0x20 || c == '/' || c == ' ';
      if (bad && sb == null) {
        sb = new StringBuilder(t.length()).append(t, 0, i);
      }
      if (sb != null) {
        if (c == '/' || c == ' ') {
          sb.append('_');
        } else if (c >= 0x20) {
          sb.append(c);
        }
      }
    }
    String v = sb == null ? t : sb.toString();
    return v.isEmpty() ? "_" : v;
  }
}
