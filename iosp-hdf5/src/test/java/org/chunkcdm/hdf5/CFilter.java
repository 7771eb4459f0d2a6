package org.chunkcdm.hdf5;

import com.sun.jna.Function;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * An HDF5 filter plugin's own filter function, called through JNA as HDF5 calls it ({@code size_t filter(unsigned
 * flags, size_t cd_nelmts, const unsigned cd_values[], size_t nbytes, size_t *buf_size, void **buf)}, the buffer
 * from malloc): the C reference of the differential tests. The plugin is found by {@code H5PLget_plugin_info},
 * whose {@code H5Z_class2_t} holds the function at byte 40.
 */
final class CFilter {
  static final String PLUGINS = "/usr/lib/x86_64-linux-gnu/hdf5/serial/plugins";
  static final int REVERSE = 0x0100;

  final int id;
  private final Function fn;
  /** Held so that the plugin stays loaded: JNA unloads a library once its NativeLibrary is collected. */
  private final NativeLibrary lib;

  private CFilter(int id, Function fn, NativeLibrary lib) {
    this.id = id;
    this.fn = fn;
    this.lib = lib;
  }

  /** The plugin in Debian's HDF5 plugin directory, or null when it is not installed or does not load. */
  static CFilter load(String file) {
    Path p = Paths.get(PLUGINS, file);
    if (!Files.isRegularFile(p)) {
      return null;
    }
    try {
      initHdf5();
      NativeLibrary lib = NativeLibrary.getInstance(p.toString());
      Pointer info = lib.getFunction("H5PLget_plugin_info").invokePointer(new Object[0]);
      return new CFilter(info.getInt(4), Function.getFunction(info.getPointer(40)), lib);
    } catch (UnsatisfiedLinkError | RuntimeException e) {
      return null;
    }
  }

  private static NativeLibrary hdf5;

  /**
   * Initializes the HDF5 library the plugins link (their error paths push HDF5 errors, which needs an initialized
   * library) and turns HDF5's error printing off.
   */
  private static synchronized void initHdf5() {
    if (hdf5 == null) {
      NativeLibrary h5 = NativeLibrary.getInstance("hdf5_serial");
      h5.getFunction("H5open").invokeInt(new Object[0]);
      h5.getFunction("H5Eset_auto2").invokeInt(new Object[] {0L, null, null});
      hdf5 = h5;
    }
  }

  /** Runs the filter (flags 0 = encode, {@link #REVERSE} = decode); null when it fails (returns 0). */
  synchronized byte[] run(int flags, int[] cd, byte[] in) {
    Pointer buf = new Pointer(Native.malloc(Math.max(1, in.length)));
    buf.write(0, in, 0, in.length);
    PointerByReference pbuf = new PointerByReference(buf);
    LongByReference size = new LongByReference(in.length);
    long n = fn.invokeLong(new Object[] {flags, (long) cd.length, cd, (long) in.length, size, pbuf});
    Pointer out = pbuf.getValue();
    byte[] r = n == 0 || out == null ? null : out.getByteArray(0, (int) n);
    if (out != null) {
      Native.free(Pointer.nativeValue(out));
    }
    return r;
  }
}
