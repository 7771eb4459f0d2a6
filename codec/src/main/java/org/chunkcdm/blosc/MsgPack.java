package org.chunkcdm.blosc;

import java.nio.charset.StandardCharsets;

/**
 * The little msgpack a Blosc2 frame's header and trailer need, read strictly from a byte array: integers, booleans,
 * strings, bin, arrays, maps, fixext; every length checked against the array. Errors are {@link CodecException}s
 * naming the byte offset.
 */
final class MsgPack {
  private final byte[] b;
  private int p;
  private final String what;

  MsgPack(byte[] b, String what) {
    this.b = b;
    this.what = what;
  }

  int position() {
    return p;
  }

  private CodecException bad(String msg) {
    return new CodecException(what + ": " + msg + " at byte " + p);
  }

  private int u8() throws CodecException {
    if (p >= b.length) {
      throw bad("truncated");
    }
    return b[p++] & 0xff;
  }

  private long be(int n) throws CodecException {
    if (n > b.length - p) {
      throw bad("truncated");
    }
    long v = 0;
    for (int i = 0; i < n; i++) {
      v = v << 8 | (b[p++] & 0xff);
    }
    return v;
  }

  int peek() throws CodecException {
    if (p >= b.length) {
      throw bad("truncated");
    }
    return b[p] & 0xff;
  }

  /** Any integer format, as a long (uint64 above Long.MAX_VALUE is refused). */
  long integer() throws CodecException {
    int t = u8();
    if (t <= 0x7f) {
      return t;
    }
    if (t >= 0xe0) {
      return (byte) t;
    }
    switch (t) {
      case 0xcc: return be(1);
      case 0xcd: return be(2);
      case 0xce: return be(4);
      case 0xcf: {
        long v = be(8);
        if (v < 0) {
          throw bad("uint64 " + Long.toUnsignedString(v) + " too large");
        }
        return v;
      }
      case 0xd0: return (byte) be(1);
      case 0xd1: return (short) be(2);
      case 0xd2: return (int) be(4);
      case 0xd3: return be(8);
      default:
        p--;
        throw bad(String.format("an integer expected, found format 0x%02X", t));
    }
  }

  boolean bool() throws CodecException {
    int t = u8();
    if (t == 0xc2 || t == 0xc3) {
      return t == 0xc3;
    }
    p--;
    throw bad(String.format("a boolean expected, found format 0x%02X", t));
  }

  int arrayHeader() throws CodecException {
    return countHeader(0x90, 0xdc, "an array");
  }

  int mapHeader() throws CodecException {
    return countHeader(0x80, 0xde, "a map");
  }

  /** The entry count of an array or map header: fix format {@code fix}, 16-bit {@code c16}, 32-bit {@code c16 + 1}. */
  private int countHeader(int fix, int c16, String what) throws CodecException {
    int t = u8();
    if ((t & 0xf0) == fix) {
      return t & 0x0f;
    }
    if (t == c16) {
      return (int) be(2);
    }
    if (t == c16 + 1) {
      return checkCount(be(4));
    }
    p--;
    throw bad(String.format("%s expected, found format 0x%02X", what, t));
  }

  private int checkCount(long n) throws CodecException {
    if (n > b.length - p) {
      throw bad(n + " entries claimed, more than the bytes left");
    }
    return (int) n;
  }

  /** The payload of a str (raw bytes). */
  byte[] strBytes() throws CodecException {
    int t = u8();
    return payload((t & 0xe0) == 0xa0 ? t & 0x1f : length(t, 0xd9, "a string"));
  }

  String string() throws CodecException {
    return new String(strBytes(), StandardCharsets.UTF_8);
  }

  byte[] bin() throws CodecException {
    return payload(length(u8(), 0xc4, "bin"));
  }

  /** The length after format {@code t}: of 1, 2 or 4 bytes for {@code f8}, {@code f8 + 1}, {@code f8 + 2}. */
  private long length(int t, int f8, String what) throws CodecException {
    if (t == f8) {
      return be(1);
    }
    if (t == f8 + 1) {
      return be(2);
    }
    if (t == f8 + 2) {
      return be(4);
    }
    p--;
    throw bad(String.format("%s expected, found format 0x%02X", what, t));
  }

  /** The payload of a fixext of {@code len} bytes (1, 2, 4, 8 or 16). */
  byte[] fixext(int len) throws CodecException {
    int want = len == 1 ? 0xd4 : len == 2 ? 0xd5 : len == 4 ? 0xd6 : len == 8 ? 0xd7 : 0xd8;
    int t = u8();
    if (t != want) {
      p--;
      throw bad(String.format("a %d-byte fixext expected, found format 0x%02X", len, t));
    }
    u8(); // the extension type
    return payload(len);
  }

  private byte[] payload(long n) throws CodecException {
    if (n < 0 || n > b.length - p) {
      throw bad(n + " bytes claimed, only " + (b.length - p) + " left");
    }
    byte[] out = java.util.Arrays.copyOfRange(b, p, p + (int) n);
    p += (int) n;
    return out;
  }

  /** Skips one value of any type (nested arrays and maps included). */
  void skip() throws CodecException {
    int t = peek();
    if (t <= 0x7f || t >= 0xe0 || t >= 0xcc && t <= 0xd3) {
      integer();
    } else if (t == 0xc0 || t == 0xc2 || t == 0xc3) {
      p++;
    } else if ((t & 0xe0) == 0xa0 || t >= 0xd9 && t <= 0xdb) {
      strBytes();
    } else if (t >= 0xc4 && t <= 0xc6) {
      bin();
    } else if (t == 0xca || t == 0xcb) {
      p++;
      payload(t == 0xca ? 4 : 8);
    } else if ((t & 0xf0) == 0x90 || t == 0xdc || t == 0xdd) {
      for (int i = arrayHeader(); i > 0; i--) {
        skip();
      }
    } else if ((t & 0xf0) == 0x80 || t == 0xde || t == 0xdf) {
      for (int i = 2 * mapHeader(); i > 0; i--) {
        skip();
      }
    } else if (t >= 0xd4 && t <= 0xd8) {
      fixext(1 << (t - 0xd4));
    } else if (t >= 0xc7 && t <= 0xc9) {
      p++;
      long n = be(t == 0xc7 ? 1 : t == 0xc8 ? 2 : 4);
      u8();
      payload(n);
    } else {
      throw bad(String.format("unknown msgpack format 0x%02X", t));
    }
  }
}
