package org.chunkcdm.cli.serve;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * What a cdmremote request asks for, read from its query string and checked against the dataset before anything
 * is sent: the parameters, the variables and their sections; anything else is a {@link Refusal}.
 */
final class ServeRequests {
  private ServeRequests() {}

  static Map<String, String> query(String q) throws Refusal {
    Map<String, String> out = new LinkedHashMap<>();
    if (q == null || q.isEmpty()) {
      return out;
    }
    for (String kv : q.split("&")) {
      if (kv.isEmpty()) {
        continue;
      }
      int eq = kv.indexOf('=');
      String k = eq < 0 ? kv : kv.substring(0, eq);
      String v = eq < 0 ? "" : kv.substring(eq + 1);
      try {
        out.put(URLDecoder.decode(k, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT), URLDecoder.decode(v, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        throw new Refusal(400, "malformed query parameter '" + k + "'");
      }
    }
    return out;
  }

  /** A variable and its section, checked before anything is sent. */
  record Selection(Variable v, Section s) {}

  /** {@code a(0:1,2);b} → the variable specs, splitting on ';' outside parentheses. */
  static List<String> splitVars(String spec) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < spec.length(); i++) {
      char c = spec.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ';' && depth == 0) {
        out.add(spec.substring(start, i));
        start = i + 1;
      }
    }
    out.add(spec.substring(start));
    return out;
  }

  static Selection selection(NetcdfFile nc, String one) throws Refusal {
    String name = one;
    String sec = null;
    if (one.endsWith(")")) {
      int open = one.lastIndexOf('(');
      if (open <= 0) {
        throw new Refusal(400, "malformed variable selection '" + one + "'");
      }
      name = one.substring(0, open);
      sec = one.substring(open + 1, one.length() - 1);
    } else if (one.contains("(") || one.contains(")")) {
      throw new Refusal(400, "malformed variable selection '" + one + "'");
    }
    Variable v = nc.findVariable(name);
    if (v == null) {
      throw new Refusal(400, "unknown variable '" + name + "'");
    }
    if (v.getDataType() == ucar.ma2.DataType.SEQUENCE) {
      throw new Refusal(400, "variable '" + name + "' is a sequence, which this server does not send");
    }
    int[] shape = v.getShape();
    Section s;
    try {
      s = sec == null || sec.isEmpty() ? new Section(shape) : new Section(sec);
    } catch (InvalidRangeException | RuntimeException e) {
      throw new Refusal(400, "malformed section '" + sec + "' for variable '" + name + "': " + oneLine(e.getMessage()));
    }
    if (s.getRank() != shape.length) {
      throw new Refusal(400, "section '" + sec + "' has rank " + s.getRank() + ", variable '" + name + "' has rank " + shape.length);
    }
    try {
      s = Section.fill(s, shape);
    } catch (InvalidRangeException e) {
      throw new Refusal(400, "section '" + sec + "' of variable '" + name + "': " + oneLine(e.getMessage()));
    }
    for (int d = 0; d < shape.length; d++) {
      Range r = s.getRange(d);
      if (r.length() > 0 && (r.first() < 0 || r.last() >= shape[d])) {
        throw new Refusal(400, "section '" + sec + "' is out of range for variable '" + name + "' of shape "
            + java.util.Arrays.toString(shape));
      }
    }
    return new Selection(v, s);
  }

  static String oneLine(String s) {
    if (s == null) {
      return "";
    }
    String t = s.replace('\r', ' ').replace('\n', ' ');
    return t.length() > 500 ? t.substring(0, 500) + "..." : t;
  }
}
