package org.chunkcdm.nativeblosc;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import java.util.ArrayList;
import java.util.List;

/**
 * JNA direct mapping of the c-blosc 1.x functions chunkcdm uses. Loading never throws: {@link #LOADED} is
 * false and {@link #PROBLEM} says why when the library (Debian: libblosc1, {@code libblosc.so.1}) is missing.
 * The library is looked up as {@code -Dchunkcdm.blosc.library}, {@code CHUNKCDM_BLOSC_LIBRARY}, then
 * {@code blosc}, {@code libblosc.so.1} and {@code libblosc.1.dylib}.
 */
final class CBlosc {
  static final boolean LOADED;
  static final String PROBLEM;
  static final String LIBRARY;

  static {
    List<String> names = new ArrayList<>();
    String configured = org.chunkcdm.blosc.internal.Settings.BLOSC_LIBRARY.choice(); // -D, else the environment
    if (configured != null) {
      names.add(configured);
    }
    names.add("blosc");
    names.add("libblosc.so.1");
    names.add("libblosc.1.dylib");
    boolean ok = false;
    String problem = null;
    String lib = null;
    for (String n : names) {
      try {
        NativeLibrary l = NativeLibrary.getInstance(n);
        Native.register(CBlosc.class, l);
        ok = true;
        lib = l.getFile() != null ? l.getFile().toString() : n;
        break;
      } catch (Throwable t) { // UnsatisfiedLinkError, NoClassDefFoundError (no JNA), ...
        problem = (problem == null ? "" : problem + "; ") + n + ": " + t.getMessage();
      }
    }
    LOADED = ok;
    PROBLEM = ok ? null : "c-blosc 1.x not found (" + problem + ")";
    LIBRARY = lib;
  }

  private CBlosc() {}

  static native int blosc_decompress_ctx(Pointer src, Pointer dest, NativeLong destsize, int numinternalthreads);

  static native int blosc_compress_ctx(int clevel, int doshuffle, NativeLong typesize, NativeLong nbytes, Pointer src,
      Pointer dest, NativeLong destsize, String compressor, NativeLong blocksize, int numinternalthreads);

  static native String blosc_get_version_string();

  static native String blosc_list_compressors();
}
