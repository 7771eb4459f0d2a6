package org.chunkcdm.io;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.ServiceConfigurationError;

/** The implementations of a service on the class path, as hosts with several class loaders need them found. */
public final class Services {
  private Services() {}

  /**
   * Every implementation of {@code type} found through {@code anchor}'s class loader and the context class loader,
   * each class once; providers that do not implement this copy of {@code type} (a context loader of another host
   * may list some built against another copy) are skipped.
   */
  public static <T> List<T> load(Class<T> type, Class<?> anchor) {
    List<T> out = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    for (ClassLoader cl : new ClassLoader[] {anchor.getClassLoader(), Thread.currentThread().getContextClassLoader()}) {
      if (cl == null) {
        continue;
      }
      Iterator<T> it = ServiceLoader.load(type, cl).iterator();
      for (int guard = 0; guard < 1000; guard++) {
        T o;
        try {
          if (!it.hasNext()) {
            break;
          }
          o = it.next();
        } catch (ServiceConfigurationError e) {
          continue; // not one of ours
        }
        if (!seen.contains(o.getClass().getName())) {
          seen.add(o.getClass().getName());
          out.add(o);
        }
      }
    }
    return out;
  }
}
