package org.chunkcdm.blosc.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Optional;

/**
 * Calls into the C library through the FFM API of Java 22 and later, from a jar of Java 17 bytecode: every FFM type is
 * reached through reflection once, and what the callers keep are method handles whose types name only Java 17
 * types (arrays, {@code int}, {@code long}). Internal to chunkcdm (the chunk layer's {@code pread} reads, the Blosc codec's raw
 * copies); nothing here runs on Java 17–21.
 *
 * <p>A feature built on it is on when the JVM is Java 22+ and grants this code native access
 * ({@code --enable-native-access=ALL-UNNAMED}, which the CLI's launchers pass), so that it never makes the JVM print
 * a warning; {@code -Dchunkcdm.ffm=false} turns every such call off.
 */
public final class Ffm {
  private Ffm() {}

  /** Stands for a C pointer among the parameter types of {@link #downcall}. */
  public static final Class<?> ADDRESS = Object.class;

  private static final String JAVA_OFF;
  private static final boolean GRANTED;
  private static final Class<?> SEGMENT;
  private static final Class<?> LAYOUT;
  private static final Class<?> OPTION;
  private static final Object LINKER;
  private static final Object LOOKUP;
  private static final Method FIND;
  private static final Method DESC_OF;
  private static final Method DESC_OF_VOID;
  private static final Method DOWNCALL;
  private static final Object J_INT;
  private static final Object J_LONG;
  private static final Object J_BYTE;
  private static final Object ADDR;

  static {
    String off = null;
    boolean granted = false;
    Class<?> seg = null;
    Class<?> layout = null;
    Class<?> option = null;
    Object linker = null;
    Object lookup = null;
    Method find = null;
    Method descOf = null;
    Method descOfVoid = null;
    Method downcall = null;
    Object jInt = null;
    Object jLong = null;
    Object jByte = null;
    Object addr = null;
    if (Runtime.version().feature() < 22) {
      off = "needs Java 22 or later (critical FFM calls)";
    } else {
      try {
        granted = (Boolean) Module.class.getMethod("isNativeAccessEnabled").invoke(Ffm.class.getModule());
        seg = Class.forName("java.lang.foreign.MemorySegment");
        layout = Class.forName("java.lang.foreign.MemoryLayout");
        Class<?> valueLayout = Class.forName("java.lang.foreign.ValueLayout");
        Class<?> fdesc = Class.forName("java.lang.foreign.FunctionDescriptor");
        Class<?> linkerC = Class.forName("java.lang.foreign.Linker");
        option = Class.forName("java.lang.foreign.Linker$Option");
        jInt = valueLayout.getField("JAVA_INT").get(null);
        jLong = valueLayout.getField("JAVA_LONG").get(null);
        jByte = valueLayout.getField("JAVA_BYTE").get(null);
        addr = valueLayout.getField("ADDRESS").get(null);
        descOf = fdesc.getMethod("of", layout, Array.newInstance(layout, 0).getClass());
        descOfVoid = fdesc.getMethod("ofVoid", Array.newInstance(layout, 0).getClass());
        downcall = linkerC.getMethod("downcallHandle", seg, fdesc, Array.newInstance(option, 0).getClass());
        find = Class.forName("java.lang.foreign.SymbolLookup").getMethod("find", String.class);
        // nativeLinker() itself is not restricted: no warning before a feature decides to link something
        linker = linkerC.getMethod("nativeLinker").invoke(null);
        lookup = linkerC.getMethod("defaultLookup").invoke(linker);
      } catch (ReflectiveOperationException | RuntimeException e) {
        Throwable c = e instanceof InvocationTargetException ? e.getCause() : e;
        off = "FFM API not usable: " + c;
      }
    }
    JAVA_OFF = off;
    GRANTED = granted;
    SEGMENT = seg;
    LAYOUT = layout;
    OPTION = option;
    LINKER = linker;
    LOOKUP = lookup;
    FIND = find;
    DESC_OF = descOf;
    DESC_OF_VOID = descOfVoid;
    DOWNCALL = downcall;
    J_INT = jInt;
    J_LONG = jLong;
    J_BYTE = jByte;
    ADDR = addr;
  }

  /**
   * Why chunkcdm makes no FFM calls in this JVM, or null when it may make them: {@code -Dchunkcdm.ffm=false} turns
   * them off; else they need Java 22+ and native access granted to chunkcdm's code.
   */
  public static String off() {
    if (Settings.FFM.choice().equals("false")) {
      return "off by -Dchunkcdm.ffm=false";
    }
    if (JAVA_OFF != null) {
      return JAVA_OFF;
    }
    if (!GRANTED) {
      return "no native access granted (--enable-native-access=ALL-UNNAMED, or the module's name; the CLI's launchers"
          + " pass it)";
    }
    return null;
  }

  private static Object layout(Class<?> c) {
    if (c == int.class) {
      return J_INT;
    } else if (c == long.class) {
      return J_LONG;
    } else if (c == ADDRESS) {
      return ADDR;
    }
    throw new IllegalArgumentException("no C layout for " + c);
  }

  /**
   * A downcall handle of the C library's {@code symbol} ({@code ret} {@code void.class}, {@code int.class},
   * {@code long.class} or {@link #ADDRESS}; the same for {@code params}). {@code critical}: called without leaving
   * the Java thread state, arrays' memory may be passed (the garbage collector waits for the call: short calls
   * only). {@code firstVariadic}: index of the first variadic parameter, or -1. Only after {@link #off} said null.
   */
  public static MethodHandle downcall(String symbol, boolean critical, int firstVariadic, Class<?> ret, Class<?>... params)
      throws ReflectiveOperationException {
    Object ls = Array.newInstance(LAYOUT, params.length);
    for (int i = 0; i < params.length; i++) {
      Array.set(ls, i, layout(params[i]));
    }
    Object desc = ret == void.class ? DESC_OF_VOID.invoke(null, ls) : DESC_OF.invoke(null, layout(ret), ls);
    int n = (critical ? 1 : 0) + (firstVariadic >= 0 ? 1 : 0);
    Object[] opts = (Object[]) Array.newInstance(OPTION, n);
    int k = 0;
    if (critical) {
      opts[k++] = OPTION.getMethod("critical", boolean.class).invoke(null, true);
    }
    if (firstVariadic >= 0) {
      opts[k] = OPTION.getMethod("firstVariadicArg", int.class).invoke(null, firstVariadic);
    }
    Optional<?> sym = (Optional<?>) FIND.invoke(LOOKUP, symbol);
    if (sym.isEmpty()) {
      throw new IllegalStateException("no symbol " + symbol + " in the C library");
    }
    try {
      return (MethodHandle) DOWNCALL.invoke(LINKER, sym.get(), desc, opts);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      throw e;
    }
  }

  /**
   * {@code (array, long off, long len) → MemorySegment}: the slice [off, off + len) of a heap array of type
   * {@code arrayType} ({@code byte[].class}, {@code long[].class}, ...), offsets in bytes; a slice outside the array
   * throws {@link IndexOutOfBoundsException} before any call it is passed to.
   */
  public static MethodHandle heapSlice(Class<?> arrayType) throws ReflectiveOperationException {
    MethodHandles.Lookup l = MethodHandles.publicLookup();
    MethodHandle of = l.unreflect(SEGMENT.getMethod("ofArray", arrayType));
    MethodHandle slice = l.unreflect(SEGMENT.getMethod("asSlice", long.class, long.class));
    return MethodHandles.filterArguments(slice, 0, of);
  }

  /** The whole of a heap array as a segment: {@code (array) → MemorySegment}. */
  public static MethodHandle heapSegment(Class<?> arrayType) throws ReflectiveOperationException {
    return MethodHandles.publicLookup().unreflect(SEGMENT.getMethod("ofArray", arrayType));
  }

  /**
   * Calls {@code call} (a non-critical downcall taking a C string first, then {@code more}) with {@code bytes}
   * copied NUL-terminated into native memory of a confined arena that is closed again afterwards.
   */
  public static Object withCString(MethodHandle call, byte[] bytes, Object... more) throws Throwable {
    Class<?> arenaC = Class.forName("java.lang.foreign.Arena");
    Object arena = arenaC.getMethod("ofConfined").invoke(null);
    try {
      Object s = Class.forName("java.lang.foreign.SegmentAllocator").getMethod("allocate", long.class)
          .invoke(arena, (long) bytes.length + 1); // zeroed: the terminating NUL
      SEGMENT.getMethod("copy", Object.class, int.class, SEGMENT, Class.forName("java.lang.foreign.ValueLayout"),
          long.class, int.class).invoke(null, bytes, 0, s, J_BYTE, 0L, bytes.length);
      Object[] args = new Object[1 + more.length];
      args[0] = s;
      System.arraycopy(more, 0, args, 1, more.length);
      return call.invokeWithArguments(args);
    } finally {
      arenaC.getMethod("close").invoke(arena);
    }
  }
}
