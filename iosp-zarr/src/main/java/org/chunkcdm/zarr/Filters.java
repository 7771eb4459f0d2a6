package org.chunkcdm.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Locale;
import org.chunkcdm.blosc.Streams;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.io.FormatException;

/**
 * numcodecs filters of Zarr v2 ({@code filters}, applied in list order when writing, undone in reverse): Delta,
 * FixedScaleOffset, Quantize, AsType, Shuffle, PackBits and BitRound. Each works on the whole chunk in storage order.
 */
final class Filters {
  private Filters() {}

  /** The step of a filter config, or null when the filter is not known. */
  static Step of(JsonNode cfg) throws IOException {
    String id = cfg.path("id").asText("");
    switch (id.toLowerCase(Locale.ROOT)) {
      case "delta":
        return new Delta(dtype(cfg, "dtype"), dtype(cfg, cfg.hasNonNull("astype") ? "astype" : "dtype"));
      case "fixedscaleoffset":
        return new FixedScaleOffset(cfg.path("offset").asDouble(0), cfg.path("scale").asDouble(1), dtype(cfg, "dtype"),
            dtype(cfg, cfg.hasNonNull("astype") ? "astype" : "dtype"));
      case "quantize":
        return new Cast("quantize " + cfg.path("digits").asInt() + " digits", dtype(cfg, "dtype"),
            dtype(cfg, cfg.hasNonNull("astype") ? "astype" : "dtype"));
      case "astype":
        return new Cast("astype", dtype(cfg, "decode_dtype"), dtype(cfg, "encode_dtype"));
      case "shuffle":
        return new Shuffle(cfg.path("elementsize").asInt(4));
      case "packbits":
        return new PackBits();
      case "bitround":
        return new Identity("bitround keepbits " + cfg.path("keepbits").asInt());
      default:
        return null;
    }
  }

  private static DType dtype(JsonNode cfg, String key) throws IOException {
    DType t = DType.parseNumpy(cfg.path(key).asText(null));
    if (!Elements.isNumeric(t)) {
      throw new FormatException("filter " + cfg.path("id").asText() + ": " + key + " '" + t + "' is not numeric");
    }
    return t;
  }

  private static int count(int len, DType t, String what) throws FormatException {
    if (len % t.itemSize() != 0) {
      throw new FormatException(what + ": " + len + " bytes are not whole " + t + " elements");
    }
    return len / t.itemSize();
  }

  private static void checkOut(long got, int outLen, String what) throws FormatException {
    if (outLen >= 0 && got != outLen) {
      throw new FormatException(what + " decodes to " + got + " bytes, the chunk needs " + outLen);
    }
  }

  /**
   * A filter that turns {@code enc} elements into as many {@code dec} elements (Delta, FixedScaleOffset, AsType,
   * Quantize): the stored bytes checked to be whole elements, the output allocated, {@link #decode(byte[], int, byte[])}
   * fills it.
   */
  abstract static class Elementwise implements Step {
    final String name;
    final DType dec;
    final DType enc;

    Elementwise(String name, DType dec, DType enc) {
      this.name = name;
      this.dec = dec;
      this.enc = enc;
    }

    /** Decodes {@code n} elements of {@code src} (type {@code enc}) into {@code out} (type {@code dec}). */
    abstract void decode(byte[] src, int n, byte[] out);

    @Override
    public final byte[] decode(byte[] in, int off, int len, int outLen) throws IOException {
      byte[] src = slice(in, off, len);
      int n = count(len, enc, name);
      checkOut((long) n * dec.itemSize(), outLen, name);
      byte[] out = new byte[Compressors.alloc((long) n * dec.itemSize(), name + " chunk")];
      decode(src, n, out);
      return out;
    }

    @Override
    public long encodedSize(long decodedLen) {
      return decodedLen / dec.itemSize() * enc.itemSize();
    }
  }

  /** Stored as the first element then differences in {@code astype}; decoded by a running sum in {@code dtype}. */
  static final class Delta extends Elementwise {
    Delta(DType dtype, DType astype) {
      super("delta", dtype, astype);
    }

    @Override
    void decode(byte[] src, int n, byte[] out) {
      DType dtype = dec;
      DType astype = enc;
      if (Elements.isInteger(dtype)) {
        long acc = 0;
        boolean fromInt = Elements.isInteger(astype);
        for (int i = 0; i < n; i++) {
          long d = fromInt ? Elements.getLong(astype, src, i) : (long) Elements.getDouble(astype, src, i);
          acc += d; // wraps in 64 bits; the store below keeps the dtype's width
          Elements.putLong(dtype, out, i, acc);
          acc = Elements.getLong(dtype, out, i);
        }
      } else if (dtype.itemSize() == 4) {
        float acc = 0;
        for (int i = 0; i < n; i++) {
          acc = (float) (acc + (float) Elements.getDouble(astype, src, i));
          Elements.putDouble(dtype, out, i, acc);
        }
      } else {
        double acc = 0;
        for (int i = 0; i < n; i++) {
          acc += Elements.getDouble(astype, src, i);
          Elements.putDouble(dtype, out, i, dtype.itemSize() == 2 ? DType.halfToFloat(Elements.floatToHalf((float) acc)) : acc);
          acc = Elements.getDouble(dtype, out, i);
        }
      }
    }

    @Override
    public String describe() {
      return "delta " + dec + " as " + enc;
    }
  }

  /** Stored as round((x - offset) * scale) in {@code astype}; decoded as stored / scale + offset, cast to {@code dtype}. */
  static final class FixedScaleOffset extends Elementwise {
    final double offset;
    final double scale;

    FixedScaleOffset(double offset, double scale, DType dtype, DType astype) {
      super("fixedscaleoffset", dtype, astype);
      this.offset = offset;
      this.scale = scale;
    }

    @Override
    void decode(byte[] src, int n, byte[] out) {
      boolean single = enc.kind() == DType.Kind.FLOAT && enc.itemSize() <= 4; // numpy keeps float32 arithmetic
      for (int i = 0; i < n; i++) {
        double v = Elements.getDouble(enc, src, i);
        double d = single ? (float) ((float) (v / (float) scale) + (float) offset) : v / scale + offset;
        Elements.putDouble(dec, out, i, d);
      }
    }

    @Override
    public String describe() {
      return "fixedscaleoffset offset " + fmt(offset) + " scale " + fmt(scale) + " " + dec + " as " + enc;
    }
  }

  static String fmt(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  /** Stored as {@code enc} elements, decoded by a cast to {@code dec} (AsType, Quantize). */
  static final class Cast extends Elementwise {
    Cast(String name, DType dec, DType enc) {
      super(name, dec, enc);
    }

    @Override
    void decode(byte[] src, int n, byte[] out) {
      for (int i = 0; i < n; i++) {
        Elements.cast(enc, src, dec, out, i);
      }
    }

    @Override
    public String describe() {
      return name + " " + dec + " stored as " + enc;
    }
  }

  /** numcodecs Shuffle: byte k of element i stored at {@code k * count + i}. */
  static final class Shuffle implements Step {
    final int elementSize;

    Shuffle(int elementSize) {
      this.elementSize = Math.max(1, elementSize);
    }

    @Override
    public byte[] decode(byte[] in, int off, int len, int outLen) throws IOException {
      checkOut(len, outLen, "shuffle");
      byte[] out = new byte[len];
      Streams.unshuffle(elementSize, in, off, out, 0, len);
      return out;
    }

    @Override
    public long encodedSize(long decodedLen) {
      return decodedLen;
    }

    @Override
    public String describe() {
      return "shuffle elementsize " + elementSize;
    }
  }

  /** numcodecs PackBits: byte 0 = padding bits at the end, then 8 booleans a byte, most significant bit first. */
  static final class PackBits implements Step {
    @Override
    public byte[] decode(byte[] in, int off, int len, int outLen) throws IOException {
      if (len < 1) {
        throw new FormatException("packbits: empty chunk");
      }
      int pad = in[off] & 0xFF;
      long n = (long) (len - 1) * 8 - pad;
      if (pad > 7 || n < 0) {
        throw new FormatException("packbits: " + pad + " padding bits in " + (len - 1) + " bytes");
      }
      checkOut(n, outLen, "packbits");
      byte[] out = new byte[(int) n];
      for (int i = 0; i < n; i++) {
        out[i] = (byte) ((in[off + 1 + (i >>> 3)] >>> (7 - (i & 7))) & 1);
      }
      return out;
    }

    @Override
    public long encodedSize(long decodedLen) {
      return decodedLen < 0 ? -1 : 1 + (decodedLen + 7) / 8;
    }

    @Override
    public String describe() {
      return "packbits";
    }
  }

  /** A filter whose decoding changes nothing (BitRound). */
  static final class Identity implements Step {
    final String name;

    Identity(String name) {
      this.name = name;
    }

    @Override
    public byte[] decode(byte[] in, int off, int len, int outLen) throws IOException {
      checkOut(len, outLen, name);
      return slice(in, off, len);
    }

    @Override
    public long encodedSize(long decodedLen) {
      return decodedLen;
    }

    @Override
    public String describe() {
      return name;
    }
  }

  static byte[] slice(byte[] in, int off, int len) {
    if (off == 0 && len == in.length) {
      return in;
    }
    return java.util.Arrays.copyOfRange(in, off, off + len);
  }
}
