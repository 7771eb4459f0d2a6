package org.chunkcdm.ds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes {@code .ds} files by the layout rules of testdata/ds/README.md, for tests and the benchmark
 * that need shapes, masks and sizes the fixtures do not have. Values are given as little-endian element bytes
 * (bool: one 0/1 byte each) and stored in the requested byte order.
 */
final class DsWriter {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final ObjectNode header = JSON.createObjectNode();
  private final ByteArrayOutputStream body = new ByteArrayOutputStream();
  private final ObjectNode dataset = JSON.createObjectNode();

  /** Adds a numeric or bool variable; {@code mask} (1 = missing) may be null; {@code le} holds every element. */
  ObjectNode numeric(String name, String type, long[] shape, String[] dims, boolean bigEndian, byte[] le, boolean[] mask) {
    int item = type.equals("bool") ? 1 : Integer.parseInt(type.replaceAll("[a-z]", "")) / 8;
    int n = le.length / item;
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    boolean masked = mask != null && anyTrue(mask);
    if (masked) {
      b.writeBytes(pack(mask));
    }
    ByteArrayOutputStream vals = new ByteArrayOutputStream();
    boolean[] keep = new boolean[n];
    for (int i = 0; i < n; i++) {
      keep[i] = !masked || !mask[i];
      if (keep[i] && !type.equals("bool")) {
        for (int k = 0; k < item; k++) {
          vals.write(le[i * item + (bigEndian ? item - 1 - k : k)]);
        }
      }
    }
    if (type.equals("bool")) {
      int kept = 0;
      for (boolean k : keep) {
        kept += k ? 1 : 0;
      }
      boolean[] bits = new boolean[kept];
      int j = 0;
      for (int i = 0; i < n; i++) {
        if (keep[i]) {
          bits[j++] = le[i] != 0;
        }
      }
      vals.writeBytes(pack(bits));
    }
    b.writeBytes(vals.toByteArray());
    ObjectNode v = variable(name, type, shape, dims, b.toByteArray(), masked);
    if (!type.equals("bool")) {
      v.put(".endian", bigEndian ? "b" : "l");
    }
    return v;
  }

  /** Adds a str or unicode variable; null elements are masked. */
  ObjectNode strings(String name, String type, long[] shape, String[] dims, String[] values, boolean bigEndian) {
    boolean masked = false;
    boolean[] mask = new boolean[values.length];
    for (int i = 0; i < values.length; i++) {
      mask[i] = values[i] == null;
      masked |= mask[i];
    }
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    if (masked) {
      b.writeBytes(pack(mask));
    }
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    for (String s : values) {
      if (s != null) {
        byte[] u = s.getBytes(type.equals("str") ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
        b.writeBytes(ByteBuffer.allocate(8).order(bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN)
            .putLong(u.length).array());
        text.writeBytes(u);
      }
    }
    b.writeBytes(text.toByteArray());
    ObjectNode v = variable(name, type, shape, dims, b.toByteArray(), masked);
    v.put(".endian", bigEndian ? "b" : "l");
    return v;
  }

  private ObjectNode variable(String name, String type, long[] shape, String[] dims, byte[] block, boolean masked) {
    String key = name.startsWith(".") || name.startsWith("\\") ? "\\" + name : name;
    ObjectNode v = header.putObject(key);
    if (dims != null) {
      ArrayNode d = v.putArray(".dims");
      for (String x : dims) {
        d.add(x);
      }
    }
    ArrayNode s = v.putArray(".size");
    for (long x : shape) {
      s.add(x);
    }
    v.put(".offset", body.size());
    v.put(".len", block.length);
    v.put(".type", type);
    v.put(".missing", masked);
    body.writeBytes(block);
    return v;
  }

  ObjectNode dataset() {
    return dataset;
  }

  /** The header JSON text (the dataset member last, as the writer does). */
  String headerText() {
    ObjectNode h = header.deepCopy();
    h.set(".", dataset);
    return h.toString();
  }

  byte[] bytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("ds-1.0\n".getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(headerText().getBytes(StandardCharsets.UTF_8));
    out.write('\n');
    out.writeBytes(body.toByteArray());
    return out.toByteArray();
  }

  Path write(Path p) throws IOException {
    Files.write(p, bytes());
    return p;
  }

  JsonNode header() {
    return header;
  }

  static byte[] pack(boolean[] bits) {
    byte[] out = new byte[(bits.length + 7) / 8];
    for (int i = 0; i < bits.length; i++) {
      if (bits[i]) {
        out[i / 8] |= (byte) (0x80 >>> (i % 8));
      }
    }
    return out;
  }

  private static boolean anyTrue(boolean[] b) {
    for (boolean x : b) {
      if (x) {
        return true;
      }
    }
    return false;
  }
}
